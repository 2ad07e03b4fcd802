// Sharing's costs, measured beside a baseline in the same run (issue 43):
// 1. what the pre-push hook adds to a person's `git push`: the same push with
//    and without the hook installed, alternating, the upload waited for
//    between rounds (it runs detached, after the hook has returned);
// 2. what `share push` sends for 100 new checkpoints after 100 shared ones:
//    git's own count of the bytes it wrote, beside what those checkpoints hold.
// Never fails; prints figures.
//   npm run build:node && node scripts/bench-share.mjs [rounds=7] [files=300]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../dist/electron/engine/index.js';

const rounds = Number(process.argv[2] ?? 7);
const files = Number(process.argv[3] ?? 300);
const cli = path.resolve('dist/electron/cli/bin.cjs');
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-bench-share-'));
const home = path.join(base, 'store');
const env = { ...process.env, CHRONOSCOPE_HOME: home, CHRONOSCOPE_DAEMON: '0' };
const git = (cwd, args) => execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const chrono = (cwd, args) => spawnSync(process.execPath, [cli, ...args], { cwd, env, encoding: 'utf8' });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

try {
  const remote = path.join(base, 'remote.git');
  git(base, ['init', '-q', '--bare', '-b', 'main', remote]);
  const ws = path.join(base, 'ws');
  git(base, ['clone', '-q', '-o', 'team', remote, ws]);
  git(ws, ['config', 'user.email', 'bench@example.com']);
  git(ws, ['config', 'user.name', 'Bench']);
  for (let i = 0; i < files; i++) {
    const dir = path.join(ws, `d${i % 20}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.txt`), `${`line ${i} `.repeat(400)}\n`);
  }
  git(ws, ['add', '-A']);
  git(ws, ['commit', '-q', '-m', 'start']);
  git(ws, ['push', '-q', 'team', 'HEAD:main']);
  const store = await openStore({ home });
  const workspace = await store.workspace(ws);
  const snapshots = async (n, tag) => {
    for (let i = 0; i < n; i++) {
      const file = path.join(ws, `d${i % 20}`, `f${i}.txt`);
      fs.appendFileSync(file, `${tag} ${i}\n`);
      await workspace.snapshot({ reason: `${tag} ${i}`, paths: [path.relative(ws, file)] });
    }
  };
  await snapshots(100, 'first');
  const enabled = JSON.parse(chrono(ws, ['share', 'enable', '--json']).stdout);
  const first = JSON.parse(chrono(ws, ['share', 'push', '--json']).stdout);
  console.log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores; git ${git(base, ['--version']).trim()}`);

  // ---- 2. bytes for 100 new checkpoints ----
  await snapshots(100, 'second');
  const second = JSON.parse(chrono(ws, ['share', 'push', '--json']).stdout);
  const written = (out) => /Writing objects: 100% \((\d+)\/\d+\), ([\d.]+) (bytes|KiB|MiB)/.exec(out);
  const bytesOf = (m) => (m ? Number(m[2]) * { bytes: 1, KiB: 1024, MiB: 1024 * 1024 }[m[3]] : NaN);
  const gitDir = path.join(home, 'git');
  const logRef = `refs/chronoscope-push/${workspace.meta.id}/log`;
  const newIds = git(gitDir, ['--git-dir', gitDir, 'rev-list', '--no-walk', `${logRef}^@`]).trim().split('\n').slice(1);
  const held = spawnSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-check=%(objectsize)'], {
    input: git(gitDir, ['--git-dir', gitDir, 'rev-list', '--objects', '--no-object-names', ...newIds]),
    encoding: 'utf8',
  }).stdout.trim().split('\n').reduce((sum, n) => sum + Number(n), 0);
  const sent2 = written(second.gitOutput);
  const sent1 = written(first.gitOutput);
  console.log(`\nshare push of 100 checkpoints (1 file of ~4 kB changed each, ${files} files in the tree):`);
  console.log(`| push | checkpoints | objects sent | bytes sent (git's count) | what those checkpoints hold (every object they reach, uncompressed) |`);
  console.log(`|---|---|---|---|---|`);
  console.log(`| first (nothing shared yet) | ${first.checkpoints} | ${sent1?.[1]} | ${bytesOf(sent1).toFixed(0)} | — |`);
  console.log(`| next 100 | ${second.checkpoints} | ${sent2?.[1]} | ${bytesOf(sent2).toFixed(0)} | ${held} |`);

  // ---- 1. the hook on a git push ----
  const hook = path.join(ws, '.git', 'hooks', 'pre-push');
  const aside = path.join(base, 'pre-push.aside');
  const logFile = path.join(home, 'share.log');
  const lines = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').length : 0);
  const timePush = (i, tag) => {
    fs.appendFileSync(path.join(ws, 'd0', 'f0.txt'), `${tag} ${i}\n`);
    git(ws, ['commit', '-q', '-am', `${tag} ${i}`]);
    const t = process.hrtime.bigint();
    git(ws, ['push', '-q', 'team', 'HEAD:main']);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const withHook = [];
  const without = [];
  const emptyHook = [];
  for (let i = 0; i < rounds; i++) {
    const before = lines();
    withHook.push(timePush(i, 'hook'));
    for (let w = 0; lines() === before && w < 600; w++) await sleep(100); // the detached upload, before the next round
    await sleep(2000); // and what it leaves running (the CLI's background upkeep) settles
    fs.renameSync(hook, aside);
    without.push(timePush(i, 'plain'));
    fs.writeFileSync(hook, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    emptyHook.push(timePush(i, 'empty'));
    fs.renameSync(aside, hook);
    await sleep(500);
  }
  console.log(`\ngit push of one commit to a local bare remote, ${rounds} rounds alternating:`);
  console.log(`| case | median ms | all (ms) |`);
  console.log(`|---|---|---|`);
  console.log(`| with the share hook | ${median(withHook).toFixed(1)} | ${withHook.map((x) => x.toFixed(0)).join(', ')} |`);
  console.log(`| no pre-push hook (baseline) | ${median(without).toFixed(1)} | ${without.map((x) => x.toFixed(0)).join(', ')} |`);
  console.log(`| a pre-push hook that only exits 0 | ${median(emptyHook).toFixed(1)} | ${emptyHook.map((x) => x.toFixed(0)).join(', ')} |`);
  console.log(`| share hook − no hook | ${(median(withHook) - median(without)).toFixed(1)} | |`);
  void enabled;
} finally {
  fs.rmSync(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
