// A checkpoint brought back from the trash is whole: every object under each
// one's commit is in the store (one `git rev-list --objects --missing=print`
// over all of them), each is listed again as it was, and show and diff read
// them (the engine for every 25th, the real CLI for a few).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import { baseEnv, runCli } from '../agents/run-cli.js';

export async function expectReadable(home: string, workspace: string, checkpoints: readonly Checkpoint[]): Promise<void> {
  expect(checkpoints.length).toBeGreaterThan(0);
  const walk = spawnSync('git', ['--git-dir', join(home, 'git'), 'rev-list', '--objects', '--missing=print', '--stdin'], {
    input: checkpoints.map((c) => `${c.id}\n`).join(''),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  expect(walk.status, walk.stderr).toBe(0);
  const lines = walk.stdout.split('\n').filter(Boolean);
  expect(lines.filter((l) => l.startsWith('?')), 'objects missing').toEqual([]);
  const walked = new Set(lines);
  expect(checkpoints.filter((c) => !walked.has(c.id)).map((c) => c.id)).toEqual([]);

  const ws = await (await openStore({ home })).workspace(workspace);
  const listed = new Map((await ws.list()).map((c) => [c.id, c]));
  for (const c of checkpoints) expect(listed.get(c.id)?.reason, c.id).toBe(c.reason);
  for (let i = 0; i < checkpoints.length; i += 25) {
    const c = checkpoints[i]!;
    expect((await ws.show(c.id)).checkpoint.id).toBe(c.id);
    await ws.diff(c.id, 'workspace');
  }
  const step = Math.max(1, Math.floor(checkpoints.length / 4));
  for (let i = 0; i < checkpoints.length; i += step) {
    const id = checkpoints[i]!.id;
    for (const args of [['show', id], ['diff', id, 'workspace']]) {
      const run = await runCli([...args, '-w', workspace], { env: baseEnv(home) });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
  }
}
