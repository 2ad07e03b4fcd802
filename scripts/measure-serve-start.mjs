#!/usr/bin/env node
// How long `npm run serve` takes to print its URL, beside the floor in the
// same run: the built CLI's `serve` started directly (no build check, no npm).
// Each run gets a fresh store and workspace; the service is stopped after the URL.
//
//   node scripts/measure-serve-start.mjs [runs=3]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 3);

function timeToUrl(command, args) {
  const base = mkdtempSync(join(tmpdir(), 'serve-start-'));
  const started = process.hrtime.bigint();
  // detached: its own process group, so npm and the server it started stop together.
  const workspace = join(base, 'workspace');
  mkdirSync(workspace);
  const child = spawn(command, [...args, '--workspace', workspace, '--port', '0'], {
    cwd: root,
    detached: true,
    env: { ...process.env, CHRONOSCOPE_HOME: join(base, 'store'), CHRONOSCOPE_DAEMON: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('http://')) return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      process.kill(-child.pid, 'SIGTERM');
      child.once('exit', () => {
        rmSync(base, { recursive: true, force: true });
        resolve(seconds);
      });
    });
    child.once('exit', (code) => (out.includes('http://') ? undefined : reject(new Error(`${command} exited ${code} before its URL`))));
  });
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (let i = 0; i < runs; i++) {
  const viaNpm = await timeToUrl(npm, ['run', '--silent', 'serve', '--']);
  const direct = await timeToUrl(process.execPath, ['dist/electron/cli/bin.cjs', 'serve']);
  process.stdout.write(`run ${i + 1}: npm run serve ${viaNpm.toFixed(2)} s to the URL; the built CLI's serve alone ${direct.toFixed(2)} s\n`);
}
