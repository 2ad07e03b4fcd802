// Writes the trees along changed paths from Node, byte for byte what
// `git write-tree` writes for the same entries: only the trees on a changed
// path are read and rewritten, every other subtree keeps its id.
//
// Git's tree format and order (tree.c, base_name_compare): entries sorted by
// their raw name bytes, a subtree compared as if its name ended in '/' (so
// `a.b` < `a/` < `a0` while a file `a` sorts before `a-b`); modes without a
// leading zero ('40000' for trees); a folder left with no entries is dropped,
// as the index has no way to hold one.
import type { GitContext } from '../git/git-env.js';
import { ObjectBatch } from '../objects/object-batch.js';
import { isTreeMode, readTree, TREE_MODE, type TreeEntry } from './tree-read.js';

export type TreeReader = (oid: string) => Promise<TreeEntry[]>;

/** What a path becomes: a blob with its mode, or null for removed. */
export type PathChange = { mode: string; oid: string } | null;

const SLASH = Buffer.from('/');

function sortKey(entry: TreeEntry): Buffer {
  return isTreeMode(entry.mode) ? Buffer.concat([entry.name, SLASH]) : entry.name;
}

export function compareEntries(a: TreeEntry, b: TreeEntry): number {
  return Buffer.compare(sortKey(a), sortKey(b));
}

export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort(compareEntries);
  const parts: Buffer[] = [];
  for (const e of sorted) parts.push(Buffer.from(`${e.mode} `, 'latin1'), e.name, Buffer.from([0]), Buffer.from(e.oid, 'hex'));
  return Buffer.concat(parts);
}

/** Changes grouped by folder: a leaf is a path's new blob (or removal), a branch a subfolder. */
export interface ChangeNode {
  leaf?: PathChange;
  children: Map<string, ChangeNode>;
}

export function changeTree(changes: ReadonlyMap<string, PathChange>): ChangeNode {
  const root: ChangeNode = { children: new Map() };
  for (const [rel, change] of changes) {
    let node = root;
    for (const segment of rel.split('/')) {
      let next = node.children.get(segment);
      if (!next) {
        next = { children: new Map() };
        node.children.set(segment, next);
      }
      node = next;
    }
    node.leaf = change;
  }
  return root;
}

/**
 * Applies `changes` (path → new blob or null) to `rootTree` and writes every
 * rewritten tree as a loose object; returns the new root tree's id. Callers
 * guarantee no change path is a folder and none crosses a file (tree-update.ts
 * checks both against the old tree first). With `batch`, the trees join it
 * (the caller seals it before anything refers to them); else they are
 * written durably before this returns.
 */
export async function writeUpdatedTree(
  gitCtx: GitContext,
  rootTree: string,
  changes: ReadonlyMap<string, PathChange>,
  read: TreeReader = (oid) => readTree(gitCtx, oid),
  batch?: ObjectBatch,
): Promise<string> {
  const into = batch ?? new ObjectBatch(gitCtx.gitDir);
  try {
    const rewritten = await rewrite(into, read, rootTree, changeTree(changes));
    const oid = rewritten ?? into.put('tree', Buffer.alloc(0));
    if (!batch) await into.seal();
    return oid;
  } finally {
    if (!batch) await into.close();
  }
}

/** The new id of one folder, or null when it ends up empty. */
async function rewrite(batch: ObjectBatch, read: TreeReader, tree: string | null, node: ChangeNode): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  for (const entry of tree === null ? [] : await read(tree)) entries.set(entry.name.toString('latin1'), entry);
  await Promise.all(
    [...node.children].map(async ([segment, child]) => {
      const name = Buffer.from(segment, 'utf8');
      const key = name.toString('latin1');
      if (child.children.size === 0) {
        const change = child.leaf ?? null;
        if (change === null) entries.delete(key);
        else entries.set(key, { mode: change.mode, name, oid: change.oid });
        return;
      }
      const existing = entries.get(key);
      const subtree = existing && isTreeMode(existing.mode) ? existing.oid : null;
      const oid = await rewrite(batch, read, subtree, child);
      if (oid === null) entries.delete(key);
      else entries.set(key, { mode: TREE_MODE, name, oid });
    }),
  );
  if (entries.size === 0) return null;
  return batch.put('tree', serializeTree([...entries.values()]));
}
