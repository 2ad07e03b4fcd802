// Checkpoint stats between two trees (or a tree and an index): one `--numstat` process.
// Renames are detected (-M) exactly as the diff detects them (diff.ts), so a checkpoint
// is counted once, by one rule, in the list, its row, `show`, the diff and MCP: a
// folder of 6 files moved is 6 files +0 −0, not 12 files with every line twice.
import { FEW_PATHS, type CheckpointStats } from '../../../shared/model.js';
import type { GitContext } from './git-env.js';
import { git } from './git-runner.js';

/** The counts, and the changed paths themselves when there are few (a checkpoint's words name them). */
export interface CountedStats extends CheckpointStats {
  paths?: string[];
}

export async function numstat(gitCtx: GitContext, from: string, to: string): Promise<CountedStats> {
  if (from === to) return { files: 0, insertions: 0, deletions: 0 };
  return parseNumstat(await git(gitCtx, ['diff-tree', '-r', '-z', '-M', '--numstat', from, to]));
}

/** The same counts from a tree to the index's entries (no tree of the index needed). */
export async function numstatIndex(gitCtx: GitContext, from: string): Promise<CountedStats> {
  return parseNumstat(await git(gitCtx, ['diff-index', '--cached', '-z', '-M', '--numstat', from]));
}

/** Parses `-z --numstat` output: "<ins>\t<del>\t<path>\0", or for a rename "<ins>\t<del>\t\0<old>\0<new>\0"; binary files show "-". */
export function parseNumstat(out: string): CountedStats {
  let files = 0;
  let insertions = 0;
  let deletions = 0;
  const paths: string[] = [];
  const tokens = out.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const record = tokens[i] ?? '';
    const m = /^(\d+|-)\t(\d+|-)\t/.exec(record);
    if (!m) continue;
    let path = record.slice(m[0].length);
    if (path === '') {
      // A rename: the old path and the new one follow; it is one file, named by where it is now.
      path = tokens[i + 2] ?? '';
      i += 2;
    }
    files += 1;
    if (m[1] !== '-') insertions += Number(m[1]);
    if (m[2] !== '-') deletions += Number(m[2]);
    if (paths.length <= FEW_PATHS) paths.push(path);
  }
  return files > 0 && files <= FEW_PATHS ? { files, insertions, deletions, paths } : { files, insertions, deletions };
}
