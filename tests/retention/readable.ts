// A checkpoint brought back from the trash is whole: show and diff read its
// commit, its tree and its files (the engine for each one, the real CLI for a sample).
import { expect } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import { baseEnv, runCli } from '../agents/run-cli.js';

export async function expectReadable(home: string, workspace: string, checkpoints: readonly Checkpoint[]): Promise<void> {
  const ws = await (await openStore({ home })).workspace(workspace);
  // show reads each one's commit and tree (and the one before it); diff against the files on disk reads its files.
  for (const [i, c] of checkpoints.entries()) {
    const shown = await ws.show(c.id);
    expect(shown.checkpoint.id).toBe(c.id);
    if (i % 10 === 0) expect((await ws.diff(c.id, 'workspace')).files.length).toBeGreaterThanOrEqual(0);
  }
  const step = Math.max(1, Math.floor(checkpoints.length / 5));
  for (let i = 0; i < checkpoints.length; i += step) {
    const id = checkpoints[i]!.id;
    for (const args of [['show', id], ['diff', id, 'workspace']]) {
      const run = await runCli([...args, '-w', workspace], { env: baseEnv(home) });
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
    }
  }
}
