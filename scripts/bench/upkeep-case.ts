// The store's size after many small snapshots, before and after upkeep
// (engine/upkeep.ts), beside `git gc` run on a copy of the same objects:
// upkeep should leave the store within 1.1× of git's own compression.
// A fresh store of its own: a first snapshot, a due check as a CLI command
// makes after it (the baseline), then N path-limited snapshots of 10 edited
// files (edit10_paths, the agent hook's shape), then one more due check.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { storeGit } from '../../electron/engine/layout/context.js';
import { gitStdin } from '../../electron/engine/git/git-runner.js';
import { storeLayout } from '../../electron/engine/layout/paths.js';
import { fsckStore, objectsFootprint, upkeepDue, upkeepIfDue, type StoreFootprint } from '../../electron/engine/upkeep.js';
import { EngineSide } from './engine-side.js';
import { median } from './report.js';
import { editFiles, pickFiles, type GeneratedWorkspace } from './workspace.js';

export interface UpkeepBench {
  snapshots: number;
  /** Whether the due check (default limits) asked for upkeep after them. */
  due: boolean;
  before: StoreFootprint;
  after: StoreFootprint;
  git_gc: StoreFootprint;
  /** after.bytes / git_gc.bytes (target ≤ 1.1). */
  ratio: number;
  upkeep_ms: number;
  git_gc_ms: number;
  fsck_clean: boolean;
  /** Median of a few edit10 snapshots right before and right after upkeep (after: some objects are deltas, read by git). */
  snapshot_ms_before: number;
  snapshot_ms_after: number;
}

const TIMED = 7;

export async function measureUpkeep(ws: GeneratedWorkspace, dir: string, snapshots: number, progress: (m: string) => void): Promise<UpkeepBench> {
  const home = join(dir, 'upkeep-home');
  const side = await EngineSide.open(home, ws.root);
  await side.snapshot('first');
  await upkeepDue(home);
  progress(`upkeep: ${snapshots} snapshots of 10 edited files`);
  for (let round = 0; round < snapshots; round++) {
    const files = pickFiles(ws, 10, 10_000 + round);
    editFiles(ws.root, files, `upkeep ${round}`);
    if ((await side.snapshot('edit10', files)) === null) throw new Error(`upkeep case: snapshot ${round} took no checkpoint`);
    if (round % 100 === 99) progress(`upkeep: ${round + 1} snapshots`);
  }
  await side.settled();
  const timedSnapshots = async (from: number): Promise<number> => {
    const ms: number[] = [];
    for (let i = 0; i < TIMED; i++) {
      const files = pickFiles(ws, 10, from + i);
      editFiles(ws.root, files, `timed ${from + i}`);
      const t = performance.now();
      await side.snapshot('edit10', files);
      ms.push(performance.now() - t);
      await side.settled();
    }
    return Math.round(median(ms) * 10) / 10;
  };
  const snapshotMsBefore = await timedSnapshots(50_000);
  const gitDir = storeLayout(home).gitDir;
  const before = await objectsFootprint(gitDir);
  const due = (await upkeepDue(home)).due;

  progress('upkeep: git gc on a copy of the same objects');
  const copy = join(dir, 'upkeep-gc-copy.git');
  cpSync(gitDir, copy, { recursive: true });
  let gcStart = performance.now();
  await gitStdin(storeGit({ ...storeLayout(home), gitDir: copy }), ['gc', '--quiet']);
  const gitGcMs = performance.now() - gcStart;
  const gitGc = await objectsFootprint(copy);
  rmSync(copy, { recursive: true, force: true });

  progress('upkeep: the store compressed by upkeep');
  gcStart = performance.now();
  const result = await upkeepIfDue(home, { force: !due, niceness: 0 });
  const upkeepMs = performance.now() - gcStart;
  if (!result.ran) throw new Error(`upkeep case: upkeep did not run (${result.reason})`);
  const fsckClean = (await fsckStore(home)) === '';
  const snapshotMsAfter = await timedSnapshots(60_000);
  return {
    snapshots,
    due,
    before,
    after: result.after,
    git_gc: gitGc,
    ratio: Math.round((result.after.bytes / gitGc.bytes) * 1000) / 1000,
    upkeep_ms: Math.round(upkeepMs),
    git_gc_ms: Math.round(gitGcMs),
    fsck_clean: fsckClean,
    snapshot_ms_before: snapshotMsBefore,
    snapshot_ms_after: snapshotMsAfter,
  };
}

const mb = (bytes: number): string => `${(bytes / (1 << 20)).toFixed(1)} MB`;

/** The lines the human table gets. */
export function upkeepLines(r: UpkeepBench): string[] {
  return [
    `upkeep after ${r.snapshots} edit10 snapshots (${r.due ? 'due by its counts' : 'NOT due by its counts: forced'}; target ≤ 1.10× git gc: ${r.ratio <= 1.1 ? 'pass' : 'MISS'}):`,
    `  store objects before ${mb(r.before.bytes)} in ${r.before.files} files → after upkeep ${mb(r.after.bytes)} in ${r.after.files} files (${(r.upkeep_ms / 1000).toFixed(1)} s)`,
    `  git gc on a copy of the same objects: ${mb(r.git_gc.bytes)} in ${r.git_gc.files} files (${(r.git_gc_ms / 1000).toFixed(1)} s); ratio ${r.ratio.toFixed(2)}×; fsck ${r.fsck_clean ? 'clean' : 'NOT clean'}`,
    `  a path-limited edit10 snapshot (in process, median of ${TIMED}): ${r.snapshot_ms_before.toFixed(1)} ms before upkeep, ${r.snapshot_ms_after.toFixed(1)} ms after`,
  ];
}
