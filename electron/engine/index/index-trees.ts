// The trees of an index, built in Node and written as one pack: what
// `git write-tree` writes, for a first snapshot of a large workspace, where
// write-tree would create and fsync one loose file per folder (pack-write.ts).
// The trees are byte for byte git's (serializeTree: git's entry order and
// modes); names stay raw bytes from `ls-files -s -z`.
// The index's cache of trees is left as it was (empty, in a new index): a
// later write-tree computes it again, finding every tree already stored.
import { ChronoscopeError } from '../../../shared/errors.js';
import type { GitContext } from '../git/git-env.js';
import { gitStdin } from '../git/git-runner.js';
import { PackWriter } from '../objects/pack-write.js';
import { serializeTree } from '../trees/tree-write.js';
import { TREE_MODE, type TreeEntry } from '../trees/tree-read.js';

export interface IndexEntry {
  mode: string;
  oid: string;
  /** The path's raw bytes. */
  path: Buffer;
}

/** Every stage-0 entry of the index, in index order (one `ls-files -s -z`). */
export async function readIndexEntries(gitCtx: GitContext): Promise<IndexEntry[]> {
  const out = (await gitStdin(gitCtx, ['ls-files', '-s', '-z'])).stdout;
  const entries: IndexEntry[] = [];
  let at = 0;
  while (at < out.length) {
    const end = out.indexOf(0, at);
    const stop = end < 0 ? out.length : end;
    // "<mode> <oid> <stage>\t<path>"
    const tab = out.indexOf(0x09, at);
    if (tab < 0 || tab > stop) throw new ChronoscopeError('internal', 'unexpected ls-files output');
    const [mode, oid, stage] = out.toString('latin1', at, tab).split(' ');
    if (mode === undefined || oid === undefined || stage !== '0') throw new ChronoscopeError('internal', `index entry not at stage 0: ${out.toString('utf8', tab + 1, stop)}`);
    entries.push({ mode, oid, path: Buffer.from(out.subarray(tab + 1, stop)) });
    at = stop + 1;
  }
  return entries;
}

/** Adds every tree of `entries` to `pack`; returns the root tree's id. */
export function putTreesOf(entries: readonly IndexEntry[], pack: Pick<PackWriter, 'put'>): string {
  // Folders by their path as latin1 text: one char per byte, so raw names survive.
  const folders = new Map<string, TreeEntry[]>([['', []]]);
  const folder = (dir: string): TreeEntry[] => {
    let list = folders.get(dir);
    if (!list) {
      list = [];
      folders.set(dir, list);
      if (dir !== '') folder(parentOf(dir));
    }
    return list;
  };
  for (const entry of entries) {
    const rel = entry.path.toString('latin1');
    const slash = rel.lastIndexOf('/');
    folder(slash < 0 ? '' : rel.slice(0, slash)).push({ mode: entry.mode, name: Buffer.from(rel.slice(slash + 1), 'latin1'), oid: entry.oid });
  }
  // Deepest first: a folder's id is known before its parent's tree is built.
  const order = [...folders.keys()].filter((dir) => dir !== '').sort((a, b) => depth(b) - depth(a));
  for (const dir of order) {
    const oid = pack.put('tree', serializeTree(folders.get(dir) ?? []));
    folders.get(parentOf(dir))?.push({ mode: TREE_MODE, name: Buffer.from(dir.slice(dir.lastIndexOf('/') + 1), 'latin1'), oid });
  }
  return pack.put('tree', serializeTree(folders.get('') ?? []));
}

/** Writes the index's trees into the store as one pack; returns the root tree's id and the entries read. */
export async function writeIndexTrees(gitCtx: GitContext): Promise<{ tree: string; entries: IndexEntry[] }> {
  const pack = new PackWriter();
  const entries = await readIndexEntries(gitCtx);
  const tree = putTreesOf(entries, pack);
  await pack.write(gitCtx.gitDir);
  return { tree, entries };
}

function parentOf(dir: string): string {
  const slash = dir.lastIndexOf('/');
  return slash < 0 ? '' : dir.slice(0, slash);
}

function depth(dir: string): number {
  let count = 0;
  for (let at = dir.indexOf('/'); at >= 0; at = dir.indexOf('/', at + 1)) count++;
  return count;
}
