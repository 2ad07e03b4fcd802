// Comparing two trees in Node, as `git diff-tree -r --no-renames --raw A B
// [-- paths]` does (literal paths), for the restore's plan and path checks: a
// restore of a few files then starts no git process to compare. Subtrees with
// the same id on both sides are skipped unread, so the cost follows what
// differs, read through the store's loose files or its long-lived reader
// (tree-read.ts). Past MAX_TREES trees read it gives up (null) and the caller
// asks git: a comparison of everything against everything is git's job.
//
// Same answers as git: entries are walked in git's tree order (a subtree
// sorts as its name plus '/'), so a file and a folder of the same name are a
// deletion and an addition, not a change; a blob's mode or type change (file
// ↔ link) is a change ('T' when the type differs); gitlinks are leaves.
import type { GitContext } from '../git/git-env.js';
import { EMPTY_TREE } from '../git/git-runner.js';
import { isTreeMode, readTree, type TreeEntry } from './tree-read.js';
import { compareEntries, type TreeReader } from './tree-write.js';

export interface TreeChange {
  path: string;
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
  status: 'A' | 'D' | 'M' | 'T';
}

const NONE_MODE = '000000';
const NONE_OID = '0000000000000000000000000000000000000000';
/** Trees read before the comparison is left to git. */
const MAX_TREES = 400;

/** A tree reader that reads each tree once. */
export function cachedReader(gitCtx: GitContext): TreeReader {
  const trees = new Map<string, Promise<TreeEntry[]>>();
  return (oid) => {
    let known = trees.get(oid);
    if (!known) {
      known = readTree(gitCtx, oid);
      trees.set(oid, known);
    }
    return known;
  };
}

/** Whether a folder holds any of the given paths (or lies inside one). */
function inScope(dir: string, paths: readonly string[] | undefined): boolean {
  if (paths === undefined || paths.length === 0 || dir === '') return true;
  return paths.some((p) => dir === p || dir.startsWith(`${p}/`) || p.startsWith(`${dir}/`));
}

function wanted(rel: string, paths: readonly string[] | undefined): boolean {
  return paths === undefined || paths.length === 0 || paths.some((p) => rel === p || rel.startsWith(`${p}/`));
}

/** The changes from `from` to `to` (null for an empty side), or null when too many trees differ. */
export async function diffTreesInNode(read: TreeReader, from: string, to: string, paths?: readonly string[]): Promise<TreeChange[] | null> {
  const changes: TreeChange[] = [];
  let budget = MAX_TREES;
  const entries = async (oid: string | null): Promise<TreeEntry[]> => {
    if (oid === null || oid === EMPTY_TREE) return [];
    budget -= 1;
    return read(oid);
  };
  const leaf = (rel: string, a: TreeEntry | null, b: TreeEntry | null): void => {
    if (!wanted(rel, paths)) return;
    const status = a === null ? 'A' : b === null ? 'D' : a.mode.slice(0, 2) !== b.mode.slice(0, 2) ? 'T' : 'M';
    changes.push({ path: rel, oldMode: a?.mode ?? NONE_MODE, newMode: b?.mode ?? NONE_MODE, oldOid: a?.oid ?? NONE_OID, newOid: b?.oid ?? NONE_OID, status });
  };
  const walk = async (dir: string, a: string | null, b: string | null): Promise<boolean> => {
    if (a === b || !inScope(dir, paths)) return true;
    const [left, right] = await Promise.all([entries(a), entries(b)]);
    if (budget < 0) return false;
    const l = [...left].sort(compareEntries);
    const r = [...right].sort(compareEntries);
    let i = 0;
    let j = 0;
    while (i < l.length || j < r.length) {
      const x = l[i];
      const y = r[j];
      const order = x === undefined ? 1 : y === undefined ? -1 : compareEntries(x, y);
      const a1 = order <= 0 ? (x ?? null) : null;
      const b1 = order >= 0 ? (y ?? null) : null;
      if (order <= 0) i++;
      if (order >= 0) j++;
      const name = (a1 ?? b1)?.name.toString('utf8') ?? '';
      const rel = dir === '' ? name : `${dir}/${name}`;
      if (a1 && b1 && a1.oid === b1.oid && a1.mode === b1.mode) continue;
      const aTree = a1 !== null && isTreeMode(a1.mode);
      const bTree = b1 !== null && isTreeMode(b1.mode);
      if (aTree || bTree) {
        // Same sort key: both are trees (a file of the same name sorts elsewhere).
        if (!(await walk(rel, aTree ? (a1?.oid ?? null) : null, bTree ? (b1?.oid ?? null) : null))) return false;
      } else leaf(rel, a1, b1);
    }
    return true;
  };
  return (await walk('', from, to)) ? changes : null;
}

/** True if `rel` names a file or folder in `tree`. */
export async function pathInTree(read: TreeReader, tree: string, rel: string): Promise<boolean> {
  let oid = tree;
  if (tree === EMPTY_TREE) return false;
  const parts = rel.split('/');
  for (const [i, part] of parts.entries()) {
    const name = Buffer.from(part, 'utf8');
    const entry = (await read(oid)).find((e) => e.name.equals(name));
    if (!entry) return false;
    if (i === parts.length - 1) return true;
    if (!isTreeMode(entry.mode)) return false;
    oid = entry.oid;
  }
  return false;
}
