// Checkpoint stats between two trees (or a tree and an index): one `--numstat` process.
import type { CheckpointStats } from '../../../shared/model.js';
import type { GitContext } from './git-env.js';
import { git } from './git-runner.js';

export async function numstat(gitCtx: GitContext, from: string, to: string): Promise<CheckpointStats> {
  if (from === to) return { files: 0, insertions: 0, deletions: 0 };
  return parseNumstat(await git(gitCtx, ['diff-tree', '-r', '-z', '--no-renames', '--numstat', from, to]));
}

/** The same counts from a tree to the index's entries (no tree of the index needed). */
export async function numstatIndex(gitCtx: GitContext, from: string): Promise<CheckpointStats> {
  return parseNumstat(await git(gitCtx, ['diff-index', '--cached', '-z', '--no-renames', '--numstat', from]));
}

function parseNumstat(out: string): CheckpointStats {
  let files = 0;
  let insertions = 0;
  let deletions = 0;
  // -z --numstat without renames: "<ins>\t<del>\t<path>\0"; binary files show "-".
  for (const record of out.split('\0')) {
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(record);
    if (!m) continue;
    files += 1;
    if (m[1] !== '-') insertions += Number(m[1]);
    if (m[2] !== '-') deletions += Number(m[2]);
  }
  return { files, insertions, deletions };
}
