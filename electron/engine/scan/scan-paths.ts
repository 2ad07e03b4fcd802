// The fast path of a path-limited scan: when every given path is plainly a
// file (or a link, or gone), its cost is 2 git processes on the critical path
// instead of 3, and none of them walks the work tree.
//
//   update-index --add --remove  ∥  check-ignore --no-index     (same paths)
//   write-tree                   ∥  diff-index --cached --numstat (stats)
//
// The general scan asks `ls-files -o -m` which paths changed and which are
// ignored; with a pathspec spread over many folders that walks nearly the
// whole tree. Here update-index is given the paths directly (it re-reads only
// those whose stat data changed) and the ignore check runs beside it. A path
// check-ignore reports was added speculatively: if the latest tree did not
// have it, it is dropped again (rare: one ls-tree and one update-index more),
// so the result equals the general scan's (tracked files stay tracked even if
// a rule now matches them, as with ls-files -m).
//
// Anything unusual falls back to the general scan before a git process runs:
// folders, special/unreadable/oversized files, a parent that is not a real
// folder, a possible nested repository, `.git` or `.gitignore` in the path, a
// name a credential pattern might match (check-ignore takes no --exclude, and
// those patterns must outrank .gitignore), or an index whose tree is unknown.
import { accessSync, constants as fsConstants } from 'node:fs';
import path from 'node:path';
import type { GitContext } from '../git/git-env.js';
import { lstatQuiet } from '../support/fsutil.js';
import { git, gitStdin, splitNul } from '../git/git-runner.js';
import { indexSignature } from '../index/index-signature.js';
import { objectDirsChangedSince, stampObjectDirs } from '../objects/loose-write.js';
import { numstatIndex } from '../git/stats.js';
import type { ScanOptions, ScanResult } from './scan-result.js';

/** Above this many paths the general scan's one ls-files is the better deal. */
const MAX_FAST_PATHS = 200;

/** Null when the fast path does not apply (nothing was run or changed). */
export async function scanPathsFast(gitCtx: GitContext, root: string, indexFile: string, options: ScanOptions): Promise<ScanResult | null> {
  const paths = options.paths;
  const knownTree = options.knownTree;
  if (paths === undefined || knownTree === undefined || options.recheckIgnored) return null;
  if (paths.length === 0 || paths.length > MAX_FAST_PATHS) return null;
  const credential = credentialMatchers(options.excludeArgs ?? []);
  if (credential === null) return null;
  const unique = [...new Set(paths)];
  for (const rel of unique) {
    const parts = rel.split('/');
    if (parts.some((p) => p === '' || p.toLowerCase() === '.git' || p === '.gitignore')) return null;
    if (parts.some((p) => credential.some((re) => re.test(p)))) return null;
  }
  if (!allPlain(root, unique, options.maxFileBytes)) return null;

  const [before, stamp] = await Promise.all([indexSignature(indexFile), options.trackObjectDirs ? stampObjectDirs(gitCtx.gitDir) : undefined]);
  const stampedAt = Date.now();
  const plain: GitContext = { ...gitCtx, plainPaths: true };
  const input = unique.map((p) => `${p}\0`).join('');
  const [, ignoredRun] = await Promise.all([
    gitStdin(gitCtx, ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], { input }),
    gitStdin(plain, ['check-ignore', '--no-index', '-z', '--stdin'], { input, okCodes: [0, 1] }),
  ]);
  const ignored = splitNul(ignoredRun.stdout.toString('utf8'));
  if (ignored.length > 0) {
    // Added speculatively above: keep only those the latest tree already had.
    const tracked = new Set(splitNul(await git(gitCtx, ['ls-tree', '-r', '-z', '--name-only', knownTree, '--', ...ignored])));
    const drop = ignored.filter((p) => !tracked.has(p));
    if (drop.length > 0) await gitStdin(gitCtx, ['update-index', '--force-remove', '-z', '--stdin'], { input: drop.map((p) => `${p}\0`).join('') });
  }
  const result = { skipped: [], nestedRepos: [], changed: unique.length, hashed: unique };
  const after = await indexSignature(indexFile);
  if (before !== null && after === before) return { ...result, tree: knownTree };
  const from = options.statsFrom;
  const [written, stats] = await Promise.all([git(gitCtx, ['write-tree']), from !== undefined ? numstatIndex(gitCtx, from) : undefined]);
  const tree = written.trim();
  const objectDirs = stamp ? await objectDirsChangedSince(gitCtx.gitDir, stamp, stampedAt) : undefined;
  const withDirs = objectDirs ? { ...result, objectDirs } : result;
  return stats ? { ...withDirs, tree, stats } : { ...withDirs, tree };
}

/**
 * One matcher per segment of every credential pattern, tested against every
 * segment of a path: a deliberately loose test (it ignores anchoring, '!' and
 * folder-only marks) whose only job is to send anything that might be a
 * credential to the general scan. Null if a pattern uses syntax not handled.
 */
export function credentialMatchers(excludeArgs: readonly string[]): RegExp[] | null {
  const matchers: RegExp[] = [];
  for (const arg of excludeArgs) {
    const pattern = arg.replace(/^--exclude=/, '').replace(/^!/, '');
    if (/[[\]\\]/.test(pattern)) return null;
    for (const segment of pattern.split('/')) {
      if (segment === '' || segment === '**') continue; // any folders: the other segments decide
      const body = segment.replace(/[.+^${}()|]/g, (c) => `\\${c}`).replace(/\*/g, '.*').replace(/\?/g, '.');
      matchers.push(new RegExp(`^${body}$`, 'i'));
    }
  }
  return matchers;
}

/**
 * Every path is a readable regular file under the limit, a symlink, or gone;
 * its parents are real folders with no `.git`. Synchronous calls: a few
 * dozen stats of folders the file system has cached take microseconds each,
 * where each one queued on libuv's threadpool (4 threads, shared with every
 * other read of the snapshot) waited ~0.3 ms.
 */
export function allPlain(root: string, paths: readonly string[], maxFileBytes: number): boolean {
  const dirs = new Map<string, boolean>();
  const dirOk = (rel: string): boolean => {
    let known = dirs.get(rel);
    if (known === undefined) {
      const st = lstatQuiet(path.join(root, rel));
      // A missing folder is fine (the file is gone with it); a folder with
      // its own .git may be a nested repository the general scan must see.
      known = st === null || (st.isDirectory() && lstatQuiet(path.join(root, rel, '.git')) === null);
      dirs.set(rel, known);
    }
    return known;
  };
  return paths.every((rel) => {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) if (!dirOk(parts.slice(0, i).join('/'))) return false;
    const full = path.join(root, rel);
    const st = lstatQuiet(full);
    if (st === null || st.isSymbolicLink()) return true;
    if (!st.isFile() || st.size > maxFileBytes) return false;
    try {
      accessSync(full, fsConstants.R_OK);
      return true;
    } catch {
      return false;
    }
  });
}
