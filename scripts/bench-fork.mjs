// Fork's writing, measured beside its old way in the same run: the guarded
// writer (engine/tree-write.ts, what `fork` and the verifier's scratch copy
// use) against git's read-tree + checkout-index (what fork used before; it
// ignored recorded modes). Never fails; prints figures.
//   npm run build:node && node scripts/bench-fork.mjs [files=5000] [rounds=3]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../dist/electron/engine/index.js';

const files = Number(process.argv[2] ?? 5000);
const rounds = Number(process.argv[3] ?? 3);
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-bench-fork-'));
try {
  const wsDir = path.join(base, 'ws');
  const perFolder = 25;
  for (let i = 0; i < files; i++) {
    const dir = path.join(wsDir, `d${Math.floor(i / perFolder)}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.txt`), `${'x'.repeat(2000)}${i}\n`);
  }
  const store = await openStore({ home: path.join(base, 'store') });
  const ws = await store.workspace(wsDir);
  const taken = await ws.snapshot();
  const gitDir = path.join(base, 'store', 'git');
  const tree = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', `${taken.id}^{tree}`], { encoding: 'utf8' }).trim();
  const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
  console.log(`${files} files in ${Math.ceil(files / perFolder)} folders; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  for (let r = 0; r < rounds; r++) {
    const [a, b] = [path.join(base, `m${r}`), path.join(base, `c${r}`)];
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    let t = process.hrtime.bigint();
    await ws.materialize(taken.id, a);
    const guarded = ms(t);
    t = process.hrtime.bigint();
    const env = { ...process.env, GIT_INDEX_FILE: path.join(base, `idx${r}`) };
    execFileSync('git', ['--git-dir', gitDir, '--work-tree', b, 'read-tree', tree], { env });
    execFileSync('git', ['--git-dir', gitDir, '--work-tree', b, 'checkout-index', '--all', '--force'], { env });
    const checkout = ms(t);
    console.log(`round ${r + 1}: guarded writer ${guarded.toFixed(0)} ms   read-tree + checkout-index (baseline) ${checkout.toFixed(0)} ms`);
  }
} finally {
  fs.rmSync(base, { recursive: true, force: true });
}
