#!/usr/bin/env node
// `npm start` (after the build) and `npm run dist` come through here: make
// sure Electron's binary is there (scripts/launcher/electron-binary.mjs), then
// run the app. Every way this can fail ends in one paragraph that says why and
// what to do, and a non-zero exit. Plain .mjs: it runs before and without the
// TypeScript build.
//
//   node scripts/start-electron.mjs [--install-only] [-- args for the app]
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { electronDir, ensureBinary, LaunchError, paragraph } from './launcher/electron-binary.mjs';
import { sandboxProblem } from './launcher/linux-sandbox.mjs';

const appRoot = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const installOnly = args.includes('--install-only');
const rest = args.indexOf('--') >= 0 ? args.slice(args.indexOf('--') + 1) : [];

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let binary;
try {
  binary = await ensureBinary(electronDir(import.meta.url));
} catch (err) {
  if (err instanceof LaunchError) fail(err.message);
  throw err;
}
if (installOnly) process.exit(0);

// Checked now, reported only if Electron then fails: a profile we cannot see may still allow it.
const sandbox = sandboxProblem({
  platform: process.platform,
  uid: typeof process.getuid === 'function' ? process.getuid() : null,
  binary,
  args: rest,
  read: (path) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return null;
    }
  },
  stat: (path) => {
    try {
      const st = statSync(path);
      return { uid: st.uid, mode: st.mode };
    } catch {
      return null;
    }
  },
  list: (dir) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
});

const child = spawn(binary, [appRoot, ...rest], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('error', (err) =>
  fail(paragraph(`chronoscope: cannot start the desktop app: Electron's binary ${binary} could not be run (${err.message}). Delete node_modules/electron/dist and run \`npm start\` again to fetch it anew, or use the browser host: \`npm run serve -- --workspace /path/to/project\`.`)),
);
child.on('exit', (code, signal) => {
  if ((code !== 0 || signal) && sandbox) {
    process.stderr.write(
      `${paragraph(`chronoscope: Electron stopped at start, most likely because its sandbox cannot run: ${sandbox.why}. These commands fix it (once, as an administrator):`)}\n\n${sandbox.commands.map((c) => `  ${c}`).join('\n')}\n\nThen run \`npm start\` again.\n`,
    );
  }
  process.exit(code ?? 1);
});
