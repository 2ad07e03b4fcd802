// "A snapshot never reuses an object it cannot read back." When git hashes a
// file whose object already exists, it keeps the existing file (it only
// freshens its time) — even an empty or damaged one left by a crash or a
// power loss, so the new checkpoint would silently depend on it. After a
// scan, the objects of the files it hashed are checked: a loose object file
// that is empty or does not inflate to a valid header is written anew from the
// file's bytes (through loose-write.ts, durably). Packed objects are written
// whole by git and fsynced (core.fsync): not checked here.
import fs from 'node:fs/promises';
import path from 'node:path';
import { readBounded } from '../fs/bounded-read.js';
import { mapLimit } from './fsutil.js';
import { looseInfo } from './loose-read.js';
import { objectId, writeLooseObject } from './loose-write.js';

/** Beyond this many hashed files (a first snapshot) the re-read would cost more than the check is worth; git wrote those into a fresh pack. */
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
export async function repairHashedObjects(gitDir: string, root: string, rels: readonly string[], maxBytes: number): Promise<string[]> {
  if (rels.length === 0 || rels.length > CHECK_MAX_FILES) return [];
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
