// A path-limited snapshot with no git process: the new tree is the latest
// checkpoint's tree with the given paths replaced, hashed and written from
// Node (blobs and the trees along those paths, tree-write.ts), the previous
// trees read from disk or through the store's long-lived reader
// (tree-read.ts), the line counts computed here (line-stats.ts). The private
// index is not touched on this path; index-sync.ts brings it up to date
// afterwards, off the snapshot's critical path.
//
// It covers the common case — files the latest checkpoint already has, edited,
// re-linked or deleted, and new files a full scan's `ls-files -o` already let
// through the ignore rules (so a full scan that found a few changes builds its
// tree here too, scan.ts `withoutIndex`) — and returns null (the git paths in
// scan.ts / scan-paths.ts take over, before anything was written) for
// everything that needs git's own rules: any other new file, a possible rename (a file
// gone and another new), a folder or a path that
// crosses a file, special/unreadable/oversized files, nested repositories,
// `.git`/`.gitignore` in the path, a name a credential pattern might match,
// exclude rules changed since the last scan, a file that changed while it was
// read, and Windows (where git keeps the executable bit from the index).
import { readFileSync, readlinkSync, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FEW_PATHS, type CheckpointStats } from '../../../shared/model.js';
import type { CountedStats } from '../git/stats.js';
import type { WsContext } from '../layout/context.js';
import { buildExcludeFile, credentialExcludeArgs } from './excludes.js';
import type { Head } from '../head.js';
import { lstatQuiet } from '../support/fsutil.js';
import { lineCounts } from '../trees/line-stats.js';
import { fileSignature, type SeenFile } from '../index/seen-files.js';
import { objectId } from '../objects/loose-write.js';
import type { ObjectBatch } from '../objects/object-batch.js';
import type { MetaFile } from '../layout/meta.js';
import { unrecordableName } from './scan.js';
import type { ScanResult } from './scan-result.js';
import { allPlain, credentialMatchers } from './scan-paths.js';
import { isTreeMode, readObject, readTree, type TreeEntry } from '../trees/tree-read.js';
import { writeUpdatedTree, type PathChange } from '../trees/tree-write.js';

/** Above this many paths the git paths are the better deal (the same bound as scan-paths.ts). */
const MAX_NODE_PATHS = 200;

/** What a file or link is recorded as (a gitlink or anything else goes to git). */
const BLOB_MODES = ['100644', '100755', '120000'];

export interface NodeScan extends ScanResult {
  stats: CountedStats;
  /** Each path as recorded: its file signature when hashed, mode and blob (null: gone), for index-sync.ts. */
  seen: Map<string, SeenFile | null>;
  /** Paths the latest tree had and this snapshot removed. */
  removed: Set<string>;
}

export interface NodeScanOptions {
  /** Objects go into this batch; the caller seals it before a ref names them. */
  batch: ObjectBatch;
  /**
   * Paths git's rules already let in (what a scan's `ls-files -o` listed, or
   * the index tracks): recorded even when absent from the latest tree. Any
   * other new path goes to git.
   */
  recordable?: ReadonlySet<string>;
}

/** Null when this path does not apply (nothing was written). */
export async function scanPathsInNode(ctx: WsContext, paths: readonly string[], latest: Head, meta: MetaFile, { batch, recordable }: NodeScanOptions): Promise<NodeScan | null> {
  if (process.platform === 'win32') return null;
  const unique = [...new Set(paths)];
  if (unique.length === 0 || unique.length > MAX_NODE_PATHS) return null;
  if (!pathsAreSimple(ctx, unique)) return null;
  const maxFileBytes = ctx.settings.max_file_mb * 1024 * 1024;
  const trees = new Map<string, Promise<TreeEntry[]>>();
  const read = (oid: string): Promise<TreeEntry[]> => {
    let known = trees.get(oid);
    if (!known) {
      known = readTree(ctx.git, oid);
      trees.set(oid, known);
    }
    return known;
  };
  // Everything that reads runs at once (each is a few file-system calls); nothing is written before all pass.
  const [excludes, plain, olds, disk] = await Promise.all([
    readTextQuiet(ctx.layout.excludeFile),
    allPlain(ctx.root, unique, maxFileBytes),
    Promise.all(unique.map((rel) => entryAt(read, latest.tree, rel))),
    Promise.all(unique.map((rel) => readDisk(path.join(ctx.root, rel), maxFileBytes))),
  ]);
  // Exclude rules that changed since the last scan must be applied by git first.
  if (excludes !== buildExcludeFile(ctx.settings, meta.nested_repos) || !plain) return null;
  if (olds.some((old) => old === undefined || (old !== null && !BLOB_MODES.includes(old.mode)))) return null;

  const changes = new Map<string, PathChange>();
  const seen = new Map<string, SeenFile | null>();
  const removed = new Set<string>();
  const stats: CountedStats = { files: 0, insertions: 0, deletions: 0 };
  const counted: Promise<void>[] = [];
  const blobs: { rel: string; old: TreeEntry | null; now: DiskFile }[] = [];
  for (const [i, rel] of unique.entries()) {
    const old = olds[i] as TreeEntry | null;
    const now = disk[i];
    if (now === undefined) return null; // changed while read, or turned into something else
    if (now === null) {
      seen.set(rel, null);
      if (old === null) continue;
      removed.add(rel);
      changes.set(rel, null);
      counted.push(count(ctx, stats, old, null));
      continue;
    }
    if (old === null && recordable?.has(rel) !== true) return null; // a new file: git's ignore rules decide
    blobs.push({ rel, old, now });
  }
  // A file gone and another new: maybe a rename, which git's -M decides (git/stats.ts), so that a
  // moved folder is counted as the diff shows it (6 files renamed, not 12 files +120 −120).
  if (removed.size > 0 && blobs.some((b) => b.old === null)) return null;
  for (const { rel, old, now } of blobs) {
    const oid = objectId('blob', now.data);
    seen.set(rel, { signature: now.signature, mode: now.mode, oid });
    if (old !== null && oid === old.oid && now.mode === old.mode) continue;
    if (oid !== old?.oid) batch.put('blob', now.data, oid);
    changes.set(rel, { mode: now.mode, oid });
    counted.push(count(ctx, stats, old, now.data));
  }
  await Promise.all(counted);
  if (changes.size > 0 && changes.size <= FEW_PATHS) stats.paths = [...changes.keys()].sort();
  const tree = changes.size === 0 ? latest.tree : await writeUpdatedTree(ctx.git, latest.tree, changes, read, batch);
  // The files read (for the modes git cannot record, file-modes.ts).
  const hashed = blobs.map((b) => b.rel);
  return { tree, stats, seen, removed, skipped: [], nestedRepos: [], changed: unique.length, hashed };
}

/** Names this path handles without git: no '.git', '.gitignore', credential look-alikes, or paths inside other paths. */
function pathsAreSimple(ctx: WsContext, paths: readonly string[]): boolean {
  const credential = credentialMatchers(credentialExcludeArgs(ctx.settings));
  if (credential === null) return false;
  const all = new Set(paths);
  for (const rel of paths) {
    const parts = rel.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.toLowerCase() === '.git' || p === '.gitignore')) return false;
    // Names git cannot store, and names that are not UTF-8 (decoded with U+FFFD): the git path names them as left out.
    if (unrecordableName(rel) || rel.includes('\uFFFD')) return false;
    if (parts.some((p) => credential.some((re) => re.test(p)))) return false;
    for (let i = 1; i < parts.length; i++) if (all.has(parts.slice(0, i).join('/'))) return false;
  }
  return true;
}

/** The latest tree's entry at rel: null when absent, undefined when the path crosses a file or names a folder. */
async function entryAt(read: (oid: string) => Promise<TreeEntry[]>, root: string, rel: string): Promise<TreeEntry | null | undefined> {
  const parts = rel.split('/');
  let tree = root;
  for (const [i, part] of parts.entries()) {
    const name = Buffer.from(part, 'utf8');
    const entry = (await read(tree)).find((e) => e.name.equals(name));
    if (!entry) return null;
    const last = i === parts.length - 1;
    if (last) return isTreeMode(entry.mode) ? undefined : entry;
    if (!isTreeMode(entry.mode)) return undefined;
    tree = entry.oid;
  }
  return null;
}

interface DiskFile {
  mode: string;
  data: Buffer;
  signature: string;
}

/** Files up to this size are read with synchronous calls (microseconds from the page cache, no threadpool queue). */
const SYNC_READ_BYTES = 256 * 1024;

/** A file's or link's blob content and mode; null when gone; undefined when it changed while read or is neither. */
async function readDisk(full: string, maxBytes: number): Promise<DiskFile | null | undefined> {
  const before = lstatQuiet(full);
  if (before === null) return null;
  if (before.size > maxBytes) return undefined; // skipped as too large: the git path reports it
  let data: Buffer;
  let mode: string;
  try {
    if (before.isSymbolicLink()) {
      data = readlinkSync(full, { encoding: 'buffer' });
      mode = '120000';
    } else if (before.isFile()) {
      data = before.size <= SYNC_READ_BYTES ? readFileSync(full) : await fs.readFile(full);
      // Git records only the owner's executable bit (core.fileMode).
      mode = before.mode & 0o100 ? '100755' : '100644';
    } else return undefined;
  } catch {
    return undefined;
  }
  const after = lstatQuiet(full);
  const signature = fileSignature(before);
  if (after === null || fileSignature(after) !== signature) return undefined;
  if (mode !== '120000' && data.length !== before.size) return undefined;
  return { mode, data, signature };
}

async function count(ctx: WsContext, stats: CheckpointStats, old: TreeEntry | null, now: Buffer | null): Promise<void> {
  const before = old === null ? null : await readObject(ctx.git, old.oid, 'blob');
  const counts = lineCounts(before, now);
  stats.files += 1;
  stats.insertions += counts.insertions;
  stats.deletions += counts.deletions;
}

function readTextQuiet(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
