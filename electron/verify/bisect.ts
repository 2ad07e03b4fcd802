// Finding the first failing checkpoint between a passing one and a failing
// one. The checkpoints between them, in time order, are searched by halving:
// each run verifies the middle of what is still unknown, so n checkpoints
// between the ends take at most ⌈log2(n+1)⌉ runs. Both ends are trusted as the
// person named them, not re-run.
import { ChronoscopeError } from '../../shared/errors.js';
import type { BisectResult, BisectRun, Checkpoint, VerificationRecord } from '../../shared/model.js';
import type { Workspace } from '../engine/api.js';

export interface BisectProgress {
  /** Runs done so far, and at most how many the search can still take. */
  done: number;
  remaining_at_most: number;
  /** The checkpoint about to be verified, or just verified (with its outcome). */
  id: string;
  passed?: boolean;
}

export interface BisectOptions {
  signal?: AbortSignal;
  onProgress?: (progress: BisectProgress) => void;
}

export type VerifyOne = (id: string, signal?: AbortSignal) => Promise<VerificationRecord>;

/** The checkpoints from `good` to `bad`, oldest first, both ends included. */
export async function bisectRange(workspace: Workspace, good: string, bad: string): Promise<Checkpoint[]> {
  const [goodCp, badCp] = await Promise.all([workspace.resolve(good), workspace.resolve(bad)]);
  if (goodCp.id === badCp.id) throw new ChronoscopeError('bad_input', '--good and --bad name the same checkpoint');
  const oldestFirst = (await workspace.list()).reverse();
  const from = oldestFirst.findIndex((c) => c.id === goodCp.id);
  const to = oldestFirst.findIndex((c) => c.id === badCp.id);
  if (from < 0 || to < 0) throw new ChronoscopeError('not_found', 'a checkpoint of the range is no longer listed');
  if (from > to) throw new ChronoscopeError('bad_input', `the good checkpoint ${goodCp.id.slice(0, 8)} is newer than the bad one ${badCp.id.slice(0, 8)}; name the older, passing one as --good`);
  return oldestFirst.slice(from, to + 1);
}

export function maxRuns(between: number): number {
  return Math.ceil(Math.log2(between + 1));
}

export async function bisect(workspace: Workspace, good: string, bad: string, verify: VerifyOne, options: BisectOptions = {}): Promise<BisectResult> {
  const range = await bisectRange(workspace, good, bad);
  let lo = 0; // passes
  let hi = range.length - 1; // fails
  const runs: BisectRun[] = [];
  while (hi - lo > 1) {
    if (options.signal?.aborted) throw new ChronoscopeError('conflict', 'bisect cancelled');
    const mid = lo + Math.floor((hi - lo) / 2);
    const id = (range[mid] as Checkpoint).id;
    options.onProgress?.({ done: runs.length, remaining_at_most: maxRuns(hi - lo - 1), id });
    const record = await verify(id, options.signal);
    runs.push({ id, passed: record.passed });
    if (record.passed) lo = mid;
    else hi = mid;
    options.onProgress?.({ done: runs.length, remaining_at_most: maxRuns(hi - lo - 1), id, passed: record.passed });
  }
  return { first_bad: (range[hi] as Checkpoint).id, last_good: (range[lo] as Checkpoint).id, runs };
}
