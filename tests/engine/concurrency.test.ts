import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';
import { sandbox, storeGit, type Sandbox } from './helpers.js';

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
