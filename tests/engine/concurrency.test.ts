import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';
import { MERGE_AT } from '../../electron/engine/objects/pack-merge.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

const run = promisify(execFile);
let s: Sandbox | undefined;
afterEach(() => s?.cleanup());

describe('several writers at once', () => {
  it('4 processes x 10 snapshots of one workspace: no failure, no lost checkpoint, fsck clean', async () => {
    s = await sandbox();
    const engine = path.join(REPO_ROOT, 'dist', 'electron', 'engine', 'index.js');
    const script = path.join(REPO_ROOT, 'tests', 'engine', 'fixtures', 'snapshot-loop.mjs');
    const env = { ...process.env, HOME: s.home };
    const outputs = await Promise.all(
      ['w1', 'w2', 'w3', 'w4'].map((name) => run(process.execPath, [script, engine, s!.storeHome, s!.ws, name, '10'], { env })),
    );
    const reported = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
    // A writer that waited for the lock may find its file already recorded by
    // another one (then it reports no id): every reported id must exist.
    expect(reported.length).toBeGreaterThan(0);
    const listed = new Set((await s.workspace.list()).map((c) => c.id));
    for (const id of reported) expect(listed.has(id)).toBe(true);
    expect(listed.size).toBe(new Set(reported).size);
    expect(storeGit(s.storeHome, ['fsck', '--strict', '--no-dangling'])).toBe('');
    // the newest checkpoint holds every file
    const latest = await s.workspace.resolve('latest');
    const tree = storeGit(s.storeHome, ['ls-tree', '-r', '--name-only', latest.id]).trim().split('\n');
    expect(tree).toHaveLength(40);
  });
});

describe('packs written and joined by several processes at once', () => {
  it('4 processes x 12 path-limited snapshots over 2 workspaces of one store: every checkpoint reads back, packs joined, fsck clean', async () => {
    s = await sandbox();
    const second = path.join(s.base, 'ws2');
    fs.mkdirSync(second);
    const names = ['a', 'b', 'c', 'd'];
    for (const [k, name] of names.entries()) {
      const root = k < 2 ? s.ws : second;
      for (let i = 0; i < 4; i++) write(root, `${name}/f${i}.txt`, `${name} base ${i}\n`);
    }
    await s.workspace.snapshot();
    await (await s.store.workspace(second)).snapshot();
    const engine = path.join(REPO_ROOT, 'dist', 'electron', 'engine', 'index.js');
    const script = path.join(REPO_ROOT, 'tests', 'engine', 'fixtures', 'pack-race-loop.mjs');
    const env = { ...process.env, HOME: s.home };
    const outputs = await Promise.all(names.map((name, k) => run(process.execPath, [script, engine, s!.storeHome, k < 2 ? s!.ws : second, name, '12'], { env })));
    const taken = outputs.flatMap((o) => JSON.parse(o.stdout) as { id: string; file: string; text: string }[]);
    expect(taken).toHaveLength(48);
    // Every checkpoint reported as taken holds what its process wrote, whichever pack its objects ended in.
    for (const { id, file, text } of taken) expect(storeGit(s.storeHome, ['show', `${id}:${file}`])).toBe(text);
    expect(storeGit(s.storeHome, ['fsck', '--strict', '--no-dangling'])).toBe('');
    const packDir = path.join(s.storeHome, 'git', 'objects', 'pack');
    const packs = fs.readdirSync(packDir).filter((n) => n.endsWith('.idx'));
    for (const idx of packs) storeGit(s.storeHome, ['verify-pack', path.join(packDir, idx)]);
    expect(packs.length).toBeLessThan(MERGE_AT);
  });
});
