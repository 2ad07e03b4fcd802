// Reads whole objects out of the store's packs in Node: the packs snapshots
// write (pack-write.ts) hold every object undeltified, so an object is an
// index lookup, one read and one inflate — what a loose object costs, with
// no git process. A delta (a pack git's gc wrote), an offset past the 31-bit
// table, or anything that does not read back as expected returns null and
// the caller asks git, as for any object Node cannot read.
//
// The list of packs is read once and again only when an id is not found in
// any of them (a pack added since), as git itself does; a pack that vanished
// (merged, gc, upkeep) is dropped from the list. A pack replaced under the same
// name (git's pack-objects renames a pack of the same objects over the old
// one, laid out anew) is told by its inode: its cached offsets would point
// into the wrong bytes, so it counts as vanished and its index is read again.
//
// The reads are synchronous: an object of a snapshot is a few KB in the page
// cache (microseconds), and a snapshot reads dozens side by side, each of
// which queued on libuv's 4-thread pool behind the others waited ~0.3 ms.
// A record over SYNC_MAX bytes is read asynchronously.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { findId, offsetAt, packIndexNames, parsePackIdx, type PackIdx } from './pack-index.js';
import { parseEntryHeader } from './pack-entry.js';

const TYPE_NAMES: Record<number, string> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };

interface PackIndex {
  pack: string;
  /** The index, read whole (ids and offsets are read from it in place). */
  idx: PackIdx;
  /** Every record's offset in pack order (made on the first read that needs it). */
  sorted: Uint32Array | null;
  packSize: number;
  /** The pack file's inode when its index was read (0: unknown, not checked). */
  ino: number;
  /** Seen replaced: never reused for a later list. */
  stale: boolean;
}

interface PackList {
  packs: PackIndex[];
  /** The pack folder's listing the list was built from. */
  names: string;
}

const lists = new Map<string, PackList>();

function loadIndex(file: string): PackIndex | null {
  try {
    const pack = file.replace(/\.idx$/, '.pack');
    const idx = parsePackIdx(readFileSync(file));
    if (!idx) return null;
    // The index names its pack by the pack's trailing SHA-1: checked against the file opened here, whose inode then stands for it.
    const fd = openSync(pack, 'r');
    try {
      const st = fstatSync(fd);
      const trailer = Buffer.alloc(20);
      if (st.size < 32 || readSync(fd, trailer, 0, 20, st.size - 20) !== 20) return null;
      if (!trailer.equals(idx.bytes.subarray(idx.bytes.length - 40, idx.bytes.length - 20))) return null;
      return { pack, idx, sorted: null, packSize: st.size, ino: st.ino, stale: false };
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The packs of the store, listed again when `refresh` (an id was not found, or a pack vanished). */
function packList(gitDir: string, refresh: boolean): PackList {
  const known = lists.get(gitDir);
  if (known && !refresh) return known;
  const dir = path.join(gitDir, 'objects', 'pack');
  const names = packIndexNames(dir);
  const key = names.join('\n');
  if (known && known.names === key && !known.packs.some((p) => p.stale)) return known;
  const byFile = new Map((known?.packs ?? []).map((p) => [p.pack, p]));
  const packs: PackIndex[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const cached = byFile.get(file.replace(/\.idx$/, '.pack'));
    const index = cached && !cached.stale ? cached : loadIndex(file);
    if (index) packs.push(index);
  }
  const list = { packs, names: key };
  lists.set(gitDir, list);
  return list;
}

/** Where the record at `offset` ends: the next offset in pack order, or the trailer. */
function endOf(index: PackIndex, offset: number): number {
  // All offsets, sorted once per pack (native sort: ~5 ms for 100,000), then a binary search.
  let sorted = index.sorted;
  if (!sorted) {
    sorted = new Uint32Array(index.idx.count);
    for (let i = 0; i < index.idx.count; i++) sorted[i] = offsetAt(index.idx, i);
    sorted.sort();
    index.sorted = sorted;
  }
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= offset) lo = mid + 1;
    else hi = mid;
  }
  if (lo === sorted.length) return index.packSize - 20;
  // An entry of the 64-bit table (a pack past 2 GiB): its end is not known here.
  return sorted[lo]! & 0x80000000 ? -1 : sorted[lo]!;
}

export interface PackedObject {
  type: string;
  size: number;
  /** Null when larger than the limit asked for (not inflated). */
  data: Buffer | null;
}

/** Records up to this size are read with synchronous calls. */
const SYNC_MAX = 256 * 1024;

/** The same file the index was read beside, or a pack of the same name written since (then: 'gone'). */
function replaced(index: PackIndex, ino: number): boolean {
  if (index.ino === 0 || ino === index.ino) return false;
  index.stale = true;
  return true;
}

async function readRecord(index: PackIndex, offset: number, length: number): Promise<Buffer | 'gone' | null> {
  const file = index.pack;
  const record = Buffer.allocUnsafe(length);
  if (length <= SYNC_MAX) {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : null;
    }
    try {
      if (replaced(index, fstatSync(fd).ino)) return 'gone';
      return readSync(fd, record, 0, length, offset) === length ? record : null;
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : null;
  }
  try {
    if (replaced(index, (await handle.stat()).ino)) return 'gone';
    return (await handle.read(record, 0, length, offset)).bytesRead === length ? record : null;
  } catch {
    return null;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readAt(index: PackIndex, i: number, maxBytes: number): Promise<PackedObject | null | 'gone'> {
  const offset = offsetAt(index.idx, i);
  if (offset & 0x80000000) return null; // in the 64-bit table: leave it to git
  const end = endOf(index, offset);
  if (!(end > offset)) return null;
  // Only the header when the object may be over the limit: its size is there.
  const whole = end - offset <= 65536 || maxBytes === Infinity;
  const head = await readRecord(index, offset, whole ? end - offset : Math.min(32, end - offset));
  if (head === null || head === 'gone') return head;
  const header = parseEntryHeader(head);
  if (header === null) return null;
  const { size, at } = header;
  const type = TYPE_NAMES[header.code];
  if (type === undefined) return null; // a delta (6, 7): git resolves it
  if (size > maxBytes) return { type, size, data: null };
  const record = whole ? head : await readRecord(index, offset, end - offset);
  if (record === null || record === 'gone') return record;
  try {
    const data = inflateSync(record.subarray(at));
    return data.length === size ? { type, size, data } : null;
  } catch {
    return null;
  }
}

/** An object of the store's packs read in Node; null when not in a pack or not readable here (ask git). */
export async function packedObject(gitDir: string, oid: string, maxBytes = Infinity): Promise<PackedObject | null> {
  const id = Buffer.from(oid, 'hex');
  if (id.length !== 20) return null;
  for (const refresh of [false, true]) {
    const list = packList(gitDir, refresh);
    let found = false;
    for (const index of list.packs) {
      const i = findId(index.idx, id);
      if (i < 0) continue;
      found = true;
      const read = await readAt(index, i, maxBytes);
      if (read === 'gone') {
        found = false; // a pack merged away or gc'd since the list was read: list again
        break;
      }
      // A copy that does not read back (a delta, a damaged pack) may have a good twin in another pack.
      if (read !== null) return read;
    }
    if (found) return null;
  }
  return null;
}
