// Joins index files that hold different paths into one. A first snapshot
// hashes its files in two update-index processes side by side, one per core,
// each into an index of its own (scan.ts); this writes the private index from
// both, keeping every entry's bytes — stat data included, so the next scan
// still reads only what changed.
//
// Git's index format (versions 2 and 3; version 4 compresses paths and is
// refused): "DIRC", version, entry count, then each entry — 62 bytes of stat
// data, object id and flags (64 with v3's extended flags), the path and 1 to
// 8 NULs to a multiple of 8 — then optional extensions and the SHA-1 of all
// before it. Extensions (the cache of trees) are dropped: they are caches.
// Entries are ordered by path bytes, as git sorts them.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { ChronoscopeError } from '../../../shared/errors.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';

interface Entry {
  path: Buffer;
  bytes: Buffer;
}

const HEADER = 12;
const TRAILER = 20;

function damaged(file: string, why: string): ChronoscopeError {
  return new ChronoscopeError('internal', `cannot join index ${file}: ${why}`);
}

/** The entries of one index file (checked against its checksum). */
export function indexEntries(data: Buffer, file: string): { version: number; entries: Entry[] } {
  if (data.length < HEADER + TRAILER || data.toString('latin1', 0, 4) !== 'DIRC') throw damaged(file, 'not an index');
  const body = data.subarray(0, data.length - TRAILER);
  if (!createHash('sha1').update(body).digest().equals(data.subarray(data.length - TRAILER))) throw damaged(file, 'checksum mismatch');
  const version = data.readUInt32BE(4);
  if (version !== 2 && version !== 3) throw damaged(file, `version ${version}`);
  const count = data.readUInt32BE(8);
  const entries: Entry[] = [];
  let at = HEADER;
  for (let i = 0; i < count; i++) {
    if (at + 62 > body.length) throw damaged(file, 'truncated entry');
    const flags = data.readUInt16BE(at + 60);
    if (((flags >> 12) & 0x3) !== 0) throw damaged(file, 'entry not at stage 0');
    const nameAt = at + (version === 3 && (flags & 0x4000) !== 0 ? 64 : 62);
    const nameEnd = data.indexOf(0, nameAt);
    if (nameEnd < 0 || nameEnd >= body.length) throw damaged(file, 'unterminated path');
    const size = (nameAt - at + (nameEnd - nameAt) + 8) & ~7;
    entries.push({ path: data.subarray(nameAt, nameEnd), bytes: data.subarray(at, at + size) });
    at += size;
  }
  return { version, entries };
}

/**
 * Writes `out` holding every entry of `parts` (which must not share a path),
 * then gives it the oldest of their modification times: git re-reads a file
 * whose time is not older than its index's, so an entry a part recorded in its
 * last moment stays suspect, as it was.
 */
export async function mergeIndexFiles(parts: readonly string[], out: string): Promise<void> {
  const read = await Promise.all(parts.map(async (file) => ({ file, data: await fs.readFile(file), st: await fs.stat(file) })));
  const parsed = read.map(({ file, data }) => indexEntries(data, file));
  const all = parsed.flatMap((p) => p.entries).sort((a, b) => Buffer.compare(a.path, b.path));
  for (let i = 1; i < all.length; i++) {
    if ((all[i - 1] as Entry).path.equals((all[i] as Entry).path)) throw damaged(out, `path in two parts: ${(all[i] as Entry).path.toString('utf8')}`);
  }
  const header = Buffer.alloc(HEADER);
  header.write('DIRC', 0, 'latin1');
  header.writeUInt32BE(Math.max(2, ...parsed.map((p) => p.version)), 4);
  header.writeUInt32BE(all.length, 8);
  const body = Buffer.concat([header, ...all.map((e) => e.bytes)]);
  await writeFileAtomic(out, Buffer.concat([body, createHash('sha1').update(body).digest()]), { mode: 0o600 });
  // A millisecond earlier still: a time handed to utimes is a float of
  // seconds, and rounding must never make the joined index the newer one.
  const oldestMs = Math.min(...read.map((r) => r.st.mtimeMs));
  const when = (Math.floor(oldestMs) - 1) / 1000;
  await fs.utimes(out, when, when);
}
