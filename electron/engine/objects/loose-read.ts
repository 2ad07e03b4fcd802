// Reads loose objects of the store straight from disk (git's own writes, and
// a snapshot's when it has fewer than three new objects; object-read.ts adds
// the packs): reading a few of them in Node saves a git process (~4-8 ms
// each) in diffs and restores. Anything not loose (packed, or unreadable) returns null and
// the caller asks `cat-file` as before, so packed stores work unchanged.
// Like `cat-file --batch-check`, a header read proves the object is there; it
// does not re-hash the content (neither does git when reading).
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { mapLimit } from '../support/fsutil.js';
import { isObjectId } from '../git/git-runner.js';

export interface LooseInfo {
  type: string;
  size: number;
}

/**
 * Compressed bytes read to find the header: zlib may hold back output until
 * more input arrives (incompressible content), so the read grows until the
 * header's NUL appears.
 */
const HEAD_READS = [64, 512, 4096, 32768];

function objectFile(gitDir: string, oid: string): string {
  return path.join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
}

function parseHeader(inflated: Buffer): (LooseInfo & { start: number }) | null {
  const nul = inflated.indexOf(0);
  if (nul < 0) return null;
  const m = /^(blob|tree|commit|tag) (\d+)$/.exec(inflated.subarray(0, nul).toString('latin1'));
  return m ? { type: m[1] ?? '', size: Number(m[2]), start: nul + 1 } : null;
}

/** Type and size of a loose object, or null when it is not loose. */
export async function looseInfo(gitDir: string, oid: string): Promise<LooseInfo | null> {
  if (!isObjectId(oid)) return null;
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(objectFile(gitDir, oid), 'r');
    for (const bytes of HEAD_READS) {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buf, 0, bytes, 0);
      const inflated = zlib.inflateSync(buf.subarray(0, bytesRead), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
      if (inflated.indexOf(0) < 0 && bytesRead === bytes) continue;
      const header = parseHeader(inflated);
      return header ? { type: header.type, size: header.size } : null;
    }
    return null;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

/** Type, size and content of a loose object; content null when over maxBytes (not inflated). Null when not loose. */
export async function looseObject(gitDir: string, oid: string, maxBytes = Infinity): Promise<(LooseInfo & { data: Buffer | null }) | null> {
  const info = await looseInfo(gitDir, oid);
  if (!info) return null;
  if (info.size > maxBytes) return { ...info, data: null };
  try {
    const inflated = zlib.inflateSync(await fs.readFile(objectFile(gitDir, oid)));
    const header = parseHeader(inflated);
    if (!header || header.size !== inflated.length - header.start) return null;
    return { ...info, data: inflated.subarray(header.start) };
  } catch {
    return null;
  }
}

/** looseInfo for many objects; those not loose are left out. */
export async function looseInfos(gitDir: string, oids: readonly string[]): Promise<Map<string, LooseInfo>> {
  const result = new Map<string, LooseInfo>();
  await mapLimit(oids, 32, async (oid) => {
    const info = await looseInfo(gitDir, oid);
    if (info) result.set(oid, info);
  });
  return result;
}

/**
 * Type and content of a loose object in one read (for objects known to be
 * small, such as trees and the blobs of a path-limited snapshot); null when
 * not loose or unreadable.
 */
export async function readLooseWhole(gitDir: string, oid: string): Promise<(LooseInfo & { data: Buffer }) | null> {
  if (!isObjectId(oid)) return null;
  try {
    // Synchronous: a small file from the page cache takes microseconds; queued on libuv's threadpool beside a snapshot's other reads it waited far longer.
    const inflated = zlib.inflateSync(readFileSync(objectFile(gitDir, oid)));
    const header = parseHeader(inflated);
    if (!header || header.size !== inflated.length - header.start) return null;
    return { type: header.type, size: header.size, data: inflated.subarray(header.start) };
  } catch {
    return null;
  }
}
