// Reading a pack's version-2 index (pack-write.ts writes it): magic ff 74 4f
// 63, version 2, a 256-entry fan-out (how many ids start with a byte ≤ i),
// the sorted ids, a CRC-32 per object, a 31-bit offset per object (its top bit
// set: an entry of the 64-bit table that follows, for packs past 2 GiB), the
// pack's SHA-1 and the index's own. One place for the layout, for the reader
// (pack-read.ts) and the join (pack-merge.ts).
import { readdirSync } from 'node:fs';

export const IDX_MAGIC = 0xff744f63;
/** Where the ids start: after the magic, the version and the fan-out. */
export const IDS_AT = 8 + 256 * 4;
/** A pack index file's name (its pack has the same name with `.pack`). */
export const PACK_IDX_NAME = /^pack-[0-9a-f]{40}\.idx$/;

/** The pack index files in a pack folder, sorted; none when the folder is missing or unreadable. */
export function packIndexNames(packDir: string): string[] {
  try {
    return readdirSync(packDir).filter((n) => PACK_IDX_NAME.test(n)).sort();
  } catch {
    return [];
  }
}

export interface PackIdx {
  bytes: Buffer;
  count: number;
  /** Some offsets are in the 64-bit table (a pack past 2 GiB). */
  largeOffsets: boolean;
}

/** The index, or null when it is not a whole version-2 index. */
export function parsePackIdx(bytes: Buffer): PackIdx | null {
  if (bytes.length < IDS_AT + 40 || bytes.readUInt32BE(0) !== IDX_MAGIC || bytes.readUInt32BE(4) !== 2) return null;
  const count = bytes.readUInt32BE(IDS_AT - 4);
  const base = IDS_AT + count * 28 + 40;
  if (bytes.length < base) return null;
  return { bytes, count, largeOffsets: bytes.length > base };
}

/** The id at position i (a view into the index). */
export function idAt(idx: PackIdx, i: number): Buffer {
  return idx.bytes.subarray(IDS_AT + i * 20, IDS_AT + i * 20 + 20);
}

export function crcAt(idx: PackIdx, i: number): number {
  return idx.bytes.readUInt32BE(IDS_AT + idx.count * 20 + i * 4);
}

/** The 31-bit offset at position i; its top bit set means "in the 64-bit table". */
export function offsetAt(idx: PackIdx, i: number): number {
  return idx.bytes.readUInt32BE(IDS_AT + idx.count * 24 + i * 4);
}

/** Position of `id` in the index, or -1 (a binary search within its fan-out bucket). */
export function findId(idx: PackIdx, id: Buffer): number {
  const first = id[0]!;
  let lo = first === 0 ? 0 : idx.bytes.readUInt32BE(8 + (first - 1) * 4);
  let hi = idx.bytes.readUInt32BE(8 + first * 4);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // The entry at mid against the id sought.
    const c = idx.bytes.compare(id, 0, 20, IDS_AT + mid * 20, IDS_AT + mid * 20 + 20);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}
