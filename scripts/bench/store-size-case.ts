// store_size_N: the store's size after N snapshots of 40 edited files (the
// shape of an agent's busy session on a 2,000-file workspace), with upkeep
// left to its own due rule — run where the app or the service would run it:
// at each pause in the work (here every `pauseEvery` snapshots, as an agent's
// thinking time gives 15 s of quiet) and after the last one — beside `git gc
// --prune=now` of a copy of the same objects, after the last pause and after
// about ten pauses along the way. Target: ≤ 1.1× at every size, at every pause.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { storeGit } from '../../electron/engine/layout/context.js';
import { gitStdin } from '../../electron/engine/git/git-runner.js';
import { storeLayout } from '../../electron/engine/layout/paths.js';
import { objectsFootprint, upkeepDue, upkeepIfDue } from '../../electron/engine/upkeep.js';
import { EngineSide } from './engine-side.js';
import { editFiles, generateWorkspace, pickFiles } from './workspace.js';

export interface StoreSizeRow {
  snapshots: number;
  /** Bytes of objects/ after the last pause's upkeep (if it was due). */
  ours: number;
  git_gc: number;
  ratio: number;
  /** How many pauses found upkeep due, and the time those runs took. */
  upkeeps: number;
  /** Of those, how many compressed the whole store anew (the rest rolled up only what was new). */
  full_upkeeps: number;
  /** The longest single upkeep. */
  upkeep_max_ms: number;
  upkeep_ms: number;
  snapshot_ms: number;
  /**
   * The largest ratio seen after a pause, sampled at about ten pauses and the
   * last (a routine upkeep only rolls up what is new, so between two full
   * runs the store sits above its last full compression; the last pause alone
   * may happen to be a full run).
   */
  worst: { ratio: number; snapshots: number; sampled: number };
}

const EDITED = 40;

export async function measureStoreSize(dir: string, snapshots: number, progress: (m: string) => void): Promise<StoreSizeRow> {
  const ws = generateWorkspace(join(dir, `size-${snapshots}-ws`), { files: 2000, bytes: 8 << 20 });
  const home = join(dir, `size-${snapshots}-home`);
  const side = await EngineSide.open(home, ws.root);
  await side.snapshot('first');
  await upkeepDue(home);
  const pauseEvery = Math.max(25, Math.round(snapshots / 40));
  let upkeeps = 0;
  let fullUpkeeps = 0;
  let upkeepMaxMs = 0;
  let upkeepMs = 0;
  let snapshotMs = 0;
  const gitDir = storeLayout(home).gitDir;
  const sampleEvery = Math.max(1, Math.round(snapshots / pauseEvery / 10));
  let pauses = 0;
  const worst = { ratio: 0, snapshots: 0, sampled: 0 };
  const sample = async (at: number): Promise<{ ours: number; gitGc: number }> => {
    const ours = (await objectsFootprint(gitDir)).bytes;
    const gitGc = await gcSize(dir, home, gitDir, snapshots);
    const ratio = ours / gitGc;
    worst.sampled += 1;
    if (ratio > worst.ratio) Object.assign(worst, { ratio: Math.round(ratio * 1000) / 1000, snapshots: at });
    return { ours, gitGc };
  };
  const pause = async (): Promise<void> => {
    await side.settled();
    const t = performance.now();
    const run = await upkeepIfDue(home, { niceness: 0 });
    if (run.ran) {
      upkeeps += 1;
      if (run.kind === 'full') fullUpkeeps += 1;
      upkeepMaxMs = Math.max(upkeepMaxMs, performance.now() - t);
      upkeepMs += performance.now() - t;
    }
  };
  for (let round = 0; round < snapshots; round++) {
    const files = pickFiles(ws, EDITED, round);
    editFiles(ws.root, files, `size ${round}`);
    const t = performance.now();
    if ((await side.snapshot('edit40', files)) === null) throw new Error(`store size case: snapshot ${round} took no checkpoint`);
    snapshotMs += performance.now() - t;
    if ((round + 1) % pauseEvery === 0) {
      await pause();
      pauses += 1;
      if (pauses % sampleEvery === 0 && round + 1 < snapshots) await sample(round + 1);
    }
    if ((round + 1) % 1000 === 0) progress(`store_size_${snapshots}: ${round + 1} snapshots, ${upkeeps} upkeeps (${fullUpkeeps} full, ${(upkeepMs / 1000).toFixed(1)} s), store ${mb((await objectsFootprint(storeLayout(home).gitDir)).bytes)}`);
  }
  await pause();
  const { ours, gitGc } = await sample(snapshots);
  rmSync(home, { recursive: true, force: true });
  rmSync(ws.root, { recursive: true, force: true });
  return {
    snapshots,
    ours,
    git_gc: gitGc,
    ratio: Math.round((ours / gitGc) * 1000) / 1000,
    upkeeps,
    full_upkeeps: fullUpkeeps,
    upkeep_max_ms: Math.round(upkeepMaxMs),
    upkeep_ms: Math.round(upkeepMs),
    snapshot_ms: Math.round((snapshotMs / snapshots) * 10) / 10,
    worst,
  };
}

/** `git gc --prune=now` of a copy of the store's objects: its objects' bytes. */
export async function gcSize(dir: string, home: string, gitDir: string, snapshots: number): Promise<number> {
  const copy = join(dir, `size-${snapshots}-gc.git`);
  cpSync(gitDir, copy, { recursive: true });
  try {
    await gitStdin(storeGit({ ...storeLayout(home), gitDir: copy }), ['gc', '--quiet', '--prune=now']);
    return (await objectsFootprint(copy)).bytes;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

const mb = (bytes: number): string => `${(bytes / (1 << 20)).toFixed(2)} MB`;

export function storeSizeLines(rows: readonly StoreSizeRow[]): string[] {
  return [
    'store size with upkeep on its own rule (at pauses), against git gc --prune=now of a copy; target ≤ 1.10×:',
    ...rows.map(
      (r) =>
        `  store_size_${r.snapshots}: ours ${mb(r.ours)}, git gc ${mb(r.git_gc)}, ${r.ratio.toFixed(2)}× ${r.ratio <= 1.1 ? 'pass' : 'MISS'}; ${r.upkeeps} upkeeps due (${r.full_upkeeps} full), ${(r.upkeep_ms / 1000).toFixed(1)} s in all, longest ${(r.upkeep_max_ms / 1000).toFixed(1)} s; a snapshot ${r.snapshot_ms} ms on average; worst after a pause ${r.worst.ratio.toFixed(2)}× (at ${r.worst.snapshots} snapshots, ${r.worst.sampled} sampled) ${r.worst.ratio <= 1.1 ? 'pass' : 'MISS'}`,
    ),
  ];
}
