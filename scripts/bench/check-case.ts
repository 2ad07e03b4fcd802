// check_1000: `chronoscope check` (the engine's checkStore, in this process)
// against `git fsck --full` on the same store, both timed in this run. The
// store holds 1,000 real checkpoints of the bench's workspace: a first
// snapshot, then 999 path-limited snapshots of one or two edited files each
// (as the watcher and the hooks take them), so the checkpoints have distinct
// root trees that share most of their subtrees — what a check must not walk
// 1,000 times. Both sides prove every object (git fsck also unreachable ones:
// here there are none to speak of).
//
// check_1000_delta: the same store after `git repack -adf --depth=50
// --window=250` (a copy), as git's gc or our upkeep leave a months-old store:
// most objects are deltas whose chains the check must apply.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../electron/engine/index.js';
import { checkStore } from '../../electron/engine/check.js';
import { storeLayout } from '../../electron/engine/layout/paths.js';
import { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { git } from './git-process.js';
import { editFiles, pickFiles, type GeneratedWorkspace } from './workspace.js';

export const CHECK_SIZE = 1000;

export interface CheckTimes {
  engine: number[];
  fsck: number[];
  objects: number;
}

export interface CheckCases {
  plain: CheckTimes;
  /** The same checkpoints after git repack -adf --depth=50 --window=250. */
  delta: CheckTimes;
}

/** Builds the store (untimed), then alternates the two sides `runs` times, on it and on a delta-compressed copy. */
export async function measureCheck(ws: GeneratedWorkspace, home: string, runs: number, onProgress: (message: string) => void): Promise<CheckCases> {
  const store = await openStore({ home, settings: { retention: { version: 2, max_checkpoints: 100_000, max_age_days: 36_500, max_store_mb: 10_000_000 } } });
  const workspace = await store.workspace(ws.root);
  onProgress(`check_1000: taking ${CHECK_SIZE} checkpoints (untimed)`);
  await workspace.snapshot({ reason: 'first', trigger: 'manual' });
  for (let i = 1; i < CHECK_SIZE; i++) {
    const paths = pickFiles(ws, 1 + (i % 2), 10_000 + i);
    editFiles(ws.root, paths, `check ${i}`);
    const taken = await workspace.snapshot({ reason: `check ${i}`, trigger: 'auto', paths });
    if (taken.id === null) throw new Error(`check_1000: snapshot ${i} took no checkpoint`);
  }
  if (workspace instanceof WorkspaceImpl) await workspace.settled();
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, LANG: 'C', LC_ALL: 'C', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  onProgress('check_1000: check against git fsck --full');
  const plain = await timeBoth(home, workspace.meta.id, runs, env);
  const deltaHome = `${home}-delta`;
  cpSync(home, deltaHome, { recursive: true });
  onProgress('check_1000_delta: git repack -adf --depth=50 --window=250 (untimed), then check against git fsck --full');
  await git(['--git-dir', storeLayout(deltaHome).gitDir, 'repack', '-a', '-d', '-f', '-q', '--depth=50', '--window=250'], env, deltaHome);
  const delta = await timeBoth(deltaHome, workspace.meta.id, runs, env);
  return { plain, delta };
}

/** The check and git fsck --full on one store, alternating which goes first. */
async function timeBoth(home: string, wsId: string, runs: number, env: NodeJS.ProcessEnv): Promise<CheckTimes> {
  const layout = storeLayout(home);
  const times: CheckTimes = { engine: [], fsck: [], objects: 0 };
  for (let run = 0; run < runs; run++) {
    const sides: Array<() => Promise<void>> = [
      async () => {
        const start = performance.now();
        const result = await checkStore(layout, [wsId]);
        times.engine.push(performance.now() - start);
        if (!result.clean || result.checkpoints !== CHECK_SIZE) throw new Error(`check (${home}): the check saw ${result.checkpoints} checkpoints, clean ${String(result.clean)}`);
        times.objects = result.objects;
      },
      async () => {
        const start = performance.now();
        await git(['--git-dir', layout.gitDir, 'fsck', '--full', '--no-progress'], env, join(home));
        times.fsck.push(performance.now() - start);
      },
    ];
    if (run % 2 === 1) sides.reverse();
    for (const side of sides) await side();
  }
  return times;
}
