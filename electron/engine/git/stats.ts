// Checkpoint stats between two trees (or a tree and an index): one `--numstat` process.
import { FEW_PATHS, type CheckpointStats } from '../../../shared/model.js';
import type { GitContext } from './git-env.js';
import { git } from './git-runner.js';

/** The counts, and the changed paths themselves when there are few (a checkpoint's words name them). */
export interface CountedStats extends CheckpointStats {
  paths?: string[];
}

export async function numstat(gitCtx: GitContext, from: string, to: string): Promise<CountedStats> {
  if (from === to) return { files: 0, insertions: 0, deletions: 0 };
  return parseNumstat(await git(gitCtx, ['diff-tree', '-r', '-z', '--no-renames', '--numstat', from, to]));
}

/** The same counts from a tree to the index's entries (no tree of the index needed). */
export async function numstatIndex(gitCtx: GitContext, from: string): Promise<CountedStats> {
  return parseNumstat(await git(gitCtx, ['diff-index', '--cached', '-z', '--no-renames', '--numstat', from]));
}

function parseNumstat(out: string): CountedStats {
  let files = 0;
  let insertions = 0;
  let deletions = 0;
  const paths: string[] = [];
  // -z --numstat without renames: "<ins>\t<del>\t<path>\0"; binary files show "-".
  for (const record of out.split('\0')) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(record);
    if (!m) continue;
    files += 1;
    if (m[1] !== '-') insertions += Number(m[1]);
    if (m[2] !== '-') deletions += Number(m[2]);
    if (paths.length <= FEW_PATHS) paths.push(record.slice(m[0].length));
  }
  return files > 0 && files <= FEW_PATHS ? { files, insertions, deletions, paths } : { files, insertions, deletions };
}
