// Writes many new objects as one pack (and its index) instead of a loose
// file each. A loose object costs an existence check, a fan-out folder, a
// file, a rename, an fsync and an fsync of its folder; a 10-file snapshot
// writes ~40 objects (blobs, the trees on their paths, the commit), ~20 ms of
// file-system calls on a 2-core machine. A pack is two files and one folder
// fsync (~3 ms). A first snapshot has a tree per folder (10,000 at 100,000
// files), where `git write-tree` created and fsynced a file for each (~7 s).
//
// Both files are git's stable formats, built in Node:
// - the pack: "PACK", version 2, the object count (big-endian), then per
//   object a type-and-size header (type in bits 4-6 of the first byte, size in
//   4 bits then 7 bits per byte, low bits first, the top bit saying more
//   follow) and the zlib-deflated body; last, the SHA-1 of everything before.
//   Its name is pack-<that SHA-1>.pack. No deltas: every object stands alone
//   (pack-read.ts reads them back without git; a later gc may delta them).
// - the index (version 2): magic ff 74 4f 63, version 2, a 256-entry fan-out
//   (how many ids start with a byte ≤ i), the sorted ids, the CRC-32 of each
//   object's bytes in the pack, each one's 31-bit offset, the pack's SHA-1,
//   the SHA-1 of the index itself.
// Durability: both are written under git's temporary names (tmp_pack_*,
// tmp_idx_*, which store-sweep.ts and git's own gc clean up after a crash),
// fsynced, then renamed into objects/pack, the pack first and its index last
// (git finds a pack by its index); the caller fsyncs the folder before any
// ref names an object in it.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflate, deflateSync } from 'node:zlib';
import { ChronoscopeError } from '../../../shared/errors.js';
import { objectId, OBJECT_MODE, writeDurableFile } from './loose-write.js';
import { IDS_AT, IDX_MAGIC } from './pack-index.js';

export type PackType = 'commit' | 'tree' | 'blob';

const TYPE_CODE: Record<PackType, number> = { commit: 1, tree: 2, blob: 3 };

/** Above this offset the index would need its 64-bit table: such a pack is written as two. */
const MAX_OFFSET = 0x7fffffff;

function objectHeader(type: PackType, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (TYPE_CODE[type] << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

export interface PackEntry {
  id: Buffer;
  /** Header and deflated body, as they sit in the pack. */
  record: Buffer;
}

/** A finished pack: its name (the SHA-1 of its content) and both files. */
export interface PackFiles {
  name: string;
  pack: Buffer;
  idx: Buffer;
  /** Ids in the order they sit in the pack. */
  ids: string[];
}

/**
 * A zlib stream that stores `body` uncompressed (RFC 1950/1951: header 78 01,
 * blocks of at most 65,535 bytes each with its length and the length's
 * complement, the Adler-32 of the body). For trees and commits: a tree is
 * mostly 20-byte ids, which do not compress, and zlib's per-stream setup cost
 * ~0.1 ms per object (even at level 0), more than the rest of a small
 * snapshot's pack; built here it is a copy.
 */
export function storedZlib(body: Buffer): Buffer {
  const blocks = Math.max(1, Math.ceil(body.length / 65535));
  const out = Buffer.allocUnsafe(2 + blocks * 5 + body.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let b = 0; b < blocks; b++) {
    const start = b * 65535;
    const len = Math.min(65535, body.length - start);
    out[at] = b === blocks - 1 ? 1 : 0;
    out.writeUInt16LE(len, at + 1);
    out.writeUInt16LE(~len & 0xffff, at + 3);
    at += 5;
    at += body.copy(out, at, start, start + len);
  }
  out.writeUInt32BE(adler32(body), at);
  return out;
}

function adler32(data: Buffer): number {
  let a = 1;
  let b = 0;
  // 5,552 bytes is the most that can be summed before the modulo without overflowing 32 bits.
  for (let start = 0; start < data.length; start += 5552) {
    const end = Math.min(data.length, start + 5552);
    for (let i = start; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * File contents get git's default loose level, with a 4 KB window and a
 * smaller hash table: half the setup time for the same size on source files
 * (~0.30 of the original either way).
 */
const BLOB_DEFLATE = { level: 1, memLevel: 4, windowBits: 12 } as const;
const deflateAsync = promisify(deflate);

/**
 * A blob's body compressed on libuv's threadpool: a 10-file snapshot of
 * 100 KB files is ~10 ms of zlib, which then runs beside the snapshot's
 * reading and counting instead of after it.
 */
export function deflateBlob(body: Buffer): Promise<Buffer> {
  return deflateAsync(body, BLOB_DEFLATE);
}

/** Collects objects (each once) and writes them as one pack. */
export class PackWriter {
  private readonly entries: PackEntry[] = [];
  private readonly ids = new Set<string>();

  /**
   * Adds one object; returns its id (`oid` when the caller already has it).
   * `deflated`: its body already compressed (deflateBlob, off the main thread).
   */
  put(type: PackType, body: Buffer, oid = objectId(type, body), deflated?: Buffer): string {
    if (!this.ids.has(oid)) {
      this.ids.add(oid);
      // Trees and commits are stored, not compressed (storedZlib).
      const data = deflated ?? (type === 'blob' ? deflateSync(body, BLOB_DEFLATE) : storedZlib(body));
      this.entries.push({ id: Buffer.from(oid, 'hex'), record: Buffer.concat([objectHeader(type, body.length), data]) });
    }
    return oid;
  }

  get size(): number {
    return this.ids.size;
  }

  /** The pack and its index, as one or more packs when past the index's 31-bit offsets. */
  files(): PackFiles[] {
    const out: PackFiles[] = [];
    let start = 0;
    while (start < this.entries.length) {
      let end = start;
      let offset = 12;
      while (end < this.entries.length && (end === start || offset + (this.entries[end]?.record.length ?? 0) <= MAX_OFFSET)) {
        offset += this.entries[end]?.record.length ?? 0;
        end++;
      }
      out.push(packOf(this.entries.slice(start, end)));
      start = end;
    }
    return out;
  }

  /**
   * Writes the pack(s) into the store, each fsynced before it is renamed into
   * place; returns the folder the caller fsyncs before a ref names any of
   * them (null when there was nothing to write).
   */
  async write(gitDir: string): Promise<string | null> {
    if (this.entries.length === 0) return null;
    const dir = path.join(gitDir, 'objects', 'pack');
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // a stat when it is there (git makes it with the store)
    for (const files of this.files()) await writePackFiles(dir, files);
    return dir;
  }
}

/** A pack of these records (each one object, whole), in this order, and its index. */
export function packOf(entries: readonly PackEntry[]): PackFiles {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  const offsets: number[] = [];
  let offset = 12;
  for (const e of entries) {
    offsets.push(offset);
    offset += e.record.length;
  }
  const body = Buffer.concat([header, ...entries.map((e) => e.record)], offset);
  const sum = createHash('sha1').update(body).digest();
  const pack = Buffer.concat([body, sum]);
  const order = entries.map((_, i) => i).sort((a, b) => Buffer.compare(entries[a]!.id, entries[b]!.id));
  return { name: sum.toString('hex'), pack, idx: indexOf(order.map((i) => ({ id: entries[i]!.id, crc: crc32(entries[i]!.record), offset: offsets[i]! })), sum), ids: entries.map((e) => e.id.toString('hex')) };
}

/** The version-2 index of a pack: `sorted` by id. */
function indexOf(sorted: readonly { id: Buffer; crc: number; offset: number }[], packSum: Buffer): Buffer {
  const n = sorted.length;
  const idx = Buffer.alloc(IDS_AT + n * 28 + 40);
  idx.writeUInt32BE(IDX_MAGIC, 0);
  idx.writeUInt32BE(2, 4);
  const counts = new Uint32Array(256);
  for (const e of sorted) counts[e.id[0]!]! += 1;
  let running = 0;
  for (let i = 0; i < 256; i++) {
    running += counts[i]!;
    idx.writeUInt32BE(running, 8 + i * 4);
  }
  let at = IDS_AT;
  for (const e of sorted) at += e.id.copy(idx, at);
  for (const e of sorted) at = idx.writeUInt32BE(e.crc >>> 0, at);
  for (const e of sorted) {
    if (e.offset > MAX_OFFSET) throw new ChronoscopeError('internal', 'pack offset past 2 GiB');
    at = idx.writeUInt32BE(e.offset, at);
  }
  at += packSum.copy(idx, at);
  createHash('sha1').update(idx.subarray(0, at)).digest().copy(idx, at);
  return idx;
}

/** Both files under temporary names, fsynced, then renamed: the pack first, its index last. */
export async function writePackFiles(dir: string, files: PackFiles): Promise<void> {
  const final = path.join(dir, `pack-${files.name}`);
  // Already there (its name is the hash of its bytes): the same objects. Never
  // renamed over: a reader may have it open, and Windows refuses that.
  if (await fs.access(`${final}.idx`).then(() => true, () => false)) return;
  const tag = randomBytes(6).toString('hex');
  const tmpPack = path.join(dir, `tmp_pack_${tag}`);
  const tmpIdx = path.join(dir, `tmp_idx_${tag}`);
  try {
    await Promise.all([writeDurableFile(tmpPack, files.pack, OBJECT_MODE), writeDurableFile(tmpIdx, files.idx, OBJECT_MODE)]);
    await fs.rename(tmpPack, `${final}.pack`);
    await fs.rename(tmpIdx, `${final}.idx`);
  } catch (err) {
    await Promise.all([fs.rm(tmpPack, { force: true }), fs.rm(tmpIdx, { force: true })]).catch(() => undefined);
    throw new ChronoscopeError('internal', `cannot write a pack of ${files.ids.length} objects: ${(err as Error).message}`);
  }
}
