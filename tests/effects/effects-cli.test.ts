// `chronoscope effects`: a push made by hand, with no app and no hook, is listed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, EffectRecord } from '../../shared/model.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import { git } from './git-helpers.js';

let dir: string;
let ws: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-effects-cli-'));
  ws = join(dir, 'ws');
  env = baseEnv(join(dir, 'store'));
  git(dir, 'init', '-q', '--bare', join(dir, 'remote.git'));
  git(dir, 'init', '-q', '-b', 'main', ws);
  git(ws, 'remote', 'add', 'origin', join(dir, 'remote.git'));
  await writeFile(join(ws, 'a.txt'), 'one');
  git(ws, 'add', 'a.txt');
  git(ws, 'commit', '-q', '-m', 'one');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('chronoscope effects', () => {
  it('lists pushes made by hand after the workspace was registered, and filters with --since', async () => {
    const snap = await runCli(['snapshot', '--json', '-w', ws, '-m', 'start'], { env });
    expect(snap.code).toBe(0);
    expect(JSON.parse((await runCli(['effects', '--json', '-w', ws], { env })).stdout)).toEqual([]);

    git(ws, 'push', '-q', 'origin', 'main');
    const head = git(ws, 'rev-parse', 'HEAD');
    const listed = JSON.parse((await runCli(['effects', '--json', '-w', ws], { env })).stdout) as EffectRecord[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ kind: 'git_push', source: 'reflog', new_commit: head, compensation: 'git push origin --delete main' });

    const text = await runCli(['effects', '-w', ws], { env });
    expect(text.stdout).toContain('undo: git push origin --delete main');

    // A checkpoint taken after the push: nothing since it.
    await new Promise((r) => setTimeout(r, 1100)); // reflog times have whole seconds
    await writeFile(join(ws, 'a.txt'), 'two');
    await runCli(['snapshot', '-w', ws, '-m', 'later'], { env });
    const [latest] = JSON.parse((await runCli(['list', '--json', '-w', ws], { env })).stdout) as Checkpoint[];
    const since = JSON.parse((await runCli(['effects', '--json', '--since', latest!.id, '-w', ws], { env })).stdout) as EffectRecord[];
    expect(since).toEqual([]);
    const bad = await runCli(['effects', '--since', 'HEAD~1', '-w', ws], { env });
    expect(bad.code).toBe(2); // a malformed id is a usage error
    expect(bad.stdout).toBe('');
  });
});
