// "A snapshot never reuses an object it cannot read back." When git hashes a
// file whose object already exists, it keeps the existing file (it only
// freshens its time) — even an empty or damaged one left by a crash or a
// power loss, so the new checkpoint would silently depend on it. After a
// scan, the objects of the files it hashed are checked: a loose object file
// that is empty or does not inflate to a valid header is written anew from the
// file's bytes (object-batch.ts, durably). Packed objects are written whole
// and fsynced before they are named (by git, core.fsync, or by pack-write.ts):
// not checked here.
// A bulk snapshot (git wrote its new blobs into one pack) reuses an existing
// object the same way — a loose one included, damaged or not. There the files
// are not read again: the index says which object each path got (one
// `ls-files -s`, or the scan's own reading of it, beside seconds of hashing), and only those that are loose —
// reused, since new ones went into the pack — are read back (a header read
// each, like the small path).
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { readBounded } from '../../fs/bounded-read.js';
import type { GitContext } from '../git/git-env.js';
import { readIndexEntries, type IndexEntry } from '../index/index-trees.js';
import { mapLimit } from '../support/fsutil.js';
import { looseInfo } from '../objects/loose-read.js';
import { objectId } from '../objects/loose-write.js';
import { writeLooseObject } from '../objects/object-batch.js';

/** Beyond this many hashed files (a first snapshot) the files are not re-read: git wrote those into a fresh pack (see repairBulkObjects). */
export const CHECK_MAX_FILES = 200;

/** What is at `rel` on disk now as blob content (a file's bytes or a link's target); null if neither. */
async function diskBlob(root: string, rel: string, maxBytes: number): Promise<Buffer | null> {
  const full = path.join(root, rel);
  const st = await fs.lstat(full).catch(() => null);
  if (st?.isSymbolicLink()) return Buffer.from(await fs.readlink(full), 'utf8');
  if (!st?.isFile()) return null;
  return readBounded(full, maxBytes).catch(() => null);
}

/**
 * Rewrites the loose object of each hashed path that is present but cannot be
 * read back (writeLooseObject replaces it); returns the paths repaired.
 */
export async function repairHashedObjects(gitCtx: GitContext, root: string, rels: readonly string[], maxBytes: number, indexEntries?: readonly IndexEntry[]): Promise<string[]> {
  if (rels.length === 0) return [];
  if (rels.length > CHECK_MAX_FILES) return repairBulkObjects(gitCtx, root, rels, maxBytes, indexEntries);
  const gitDir = gitCtx.gitDir;
  const repaired: string[] = [];
  await mapLimit(rels, 16, async (rel) => {
    const data = await diskBlob(root, rel, maxBytes);
    if (data === null) return;
    const oid = objectId('blob', data);
    const file = path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
    const st = await fs.lstat(file).catch(() => null);
    if (!st) return; // packed, or absent: git wrote it or will say so
    if (st.size > 0 && (await looseInfo(gitDir, oid)) !== null) return;
    await writeLooseObject(gitDir, 'blob', data);
    repaired.push(rel);
  });
  return repaired.sort();
}

/** Which of `oids` have a loose object file (by listing the object folders they fall in). */
async function looseAmong(gitDir: string, oids: readonly string[]): Promise<Set<string>> {
  const byDir = new Map<string, Set<string>>();
  for (const oid of oids) {
    const dir = oid.slice(0, 2);
    const rests = byDir.get(dir) ?? new Set<string>();
    rests.add(oid.slice(2));
    byDir.set(dir, rests);
  }
  const found = new Set<string>();
  await mapLimit([...byDir], 16, async ([dir, rests]) => {
    for (const name of await fs.readdir(path.join(gitDir, 'objects', dir)).catch(() => [] as string[])) if (rests.has(name)) found.add(`${dir}${name}`);
  });
  return found;
}

/** True when the object file exists loose but cannot be read back (empty, or no valid header). */
async function looseDamaged(gitDir: string, oid: string): Promise<boolean> {
  const st = await fs.lstat(path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2))).catch(() => null);
  if (!st) return false;
  return st.size === 0 || (await looseInfo(gitDir, oid)) === null;
}

/**
 * The bulk case: the blob each hashed path got comes from the index; a loose
 * one that cannot be read back is written anew from the file. If the file
 * changed since it was hashed, the damaged object cannot be rebuilt: the
 * snapshot fails (nothing is recorded) rather than name it.
 */
async function repairBulkObjects(gitCtx: GitContext, root: string, rels: readonly string[], maxBytes: number, indexEntries?: readonly IndexEntry[]): Promise<string[]> {
  const wanted = new Set(rels);
  const blobs: { rel: string; oid: string }[] = [];
  // The scan's own reading of the index when it made one (a first snapshot's trees), else one `ls-files -s`.
  for (const entry of indexEntries ?? (await readIndexEntries(gitCtx))) {
    const rel = entry.path.toString('utf8');
    if (!wanted.has(rel) || entry.mode === '160000') continue;
    blobs.push({ rel, oid: entry.oid });
  }
  const repaired: string[] = [];
  // Only objects that exist loose can be damaged leftovers: one listing per object folder
  // instead of a stat per file (git put the others into its fresh pack).
  const loose = await looseAmong(gitCtx.gitDir, blobs.map((b) => b.oid));
  await mapLimit(blobs, 32, async ({ rel, oid }) => {
    if (!loose.has(oid) || !(await looseDamaged(gitCtx.gitDir, oid))) return;
    const data = await diskBlob(root, rel, maxBytes);
    if (data === null || objectId('blob', data) !== oid) {
      throw new ChronoscopeError('internal', `the stored copy of ${rel} is damaged and the file changed since it was read; nothing was recorded, snapshot again`);
    }
    await writeLooseObject(gitCtx.gitDir, 'blob', data);
    repaired.push(rel);
  });
  return repaired.sort();
}
