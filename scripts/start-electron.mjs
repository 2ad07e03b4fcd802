#!/usr/bin/env node
// `npm start` (after the build) and `npm run dist` come through here. The
// project installs with ignore-scripts (see .npmrc), so Electron's postinstall
// never fetched its binary: fetch it now with Electron's own installer, or say
// in one line why not and what to use instead. Plain .mjs: it runs before and
// without the TypeScript build.
//
//   node scripts/start-electron.mjs [--install-only] [-- args for the app]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const electronDir = dirname(require.resolve('electron/package.json'));

/** The binary's path as Electron's index.js computes it, or null when not installed. */
function binaryPath() {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

function lastMeaningfulLine(text) {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('at '));
  return lines[0] ?? 'the installer failed without a message';
}

function ensureBinary() {
  const found = binaryPath();
  if (found) return found;
  process.stderr.write("chronoscope: Electron's binary is not installed yet; downloading it with Electron's installer…\n");
  const result = spawnSync(process.execPath, [join(electronDir, 'install.js')], {
    cwd: electronDir,
    encoding: 'utf8',
    stdio: ['ignore', 'inherit', 'pipe'],
    timeout: 10 * 60_000,
  });
  const installed = binaryPath();
  if (result.status === 0 && installed) return installed;
  const why = result.error ? result.error.message : lastMeaningfulLine(result.stderr ?? '');
  process.stderr.write(
    `chronoscope: Electron's binary could not be downloaded: ${why} — on this machine use \`npm run serve\` (the browser host) instead\n`,
  );
  process.exit(1);
}

const args = process.argv.slice(2);
const installOnly = args.includes('--install-only');
const binary = ensureBinary();
if (installOnly) process.exit(0);

const rest = args.indexOf('--') >= 0 ? args.slice(args.indexOf('--') + 1) : [];
const child = spawn(binary, [appRoot, ...rest], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
