// The two git processes a scan starts to learn what changed, side by side:
// changed tracked files (diff-files: an lstat per index entry) and untracked
// ones (ls-files -o: a walk of the folders). On 10,000 files each takes about
// as long as the other, and together ~1.7x one.
// diff-files rather than `ls-files -m`: it also lists a file whose stat data
// alone changed (a chmod 0644 -> 0600, which git's modes cannot show), so its
// permission bits are recorded at once (file-modes.ts); update-index then
// refreshes its stat data, and it is not listed again.
// One place for both commands: a hook may start them before the engine is
// loaded (early-scan.ts), and the scan uses that listing only if it would
// have run exactly these.
import type { GitContext } from './git-env.js';
import { git } from './git-runner.js';

export interface ScanListing {
  /** diff-files: tracked paths whose stat data differ from the index (NUL-separated). */
  modified: Promise<string>;
  /** ls-files -t -o: untracked paths git's rules let in ('? path'), a nested repository as 'dir/'. */
  others: Promise<string>;
}

/** Starts both listings; `pathspec` is [] for the whole tree, else ['--', ...paths]. */
export function startListing(gitCtx: GitContext, excludeArgs: readonly string[], pathspec: readonly string[]): ScanListing {
  const others = git(gitCtx, ['ls-files', '-z', '-t', '-o', '--exclude-standard', ...excludeArgs, ...pathspec]);
  // No preload threads: like ls-files -m, one thread lstats the entries (on 2 busy cores, 20 threads were slower).
  const modified = git(gitCtx, ['-c', 'core.preloadIndex=false', 'diff-files', '-z', '--name-only', '--ignore-submodules=dirty', ...pathspec]);
  return { modified, others };
}
