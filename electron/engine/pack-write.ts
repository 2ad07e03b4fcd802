// Writes many new objects as one pack instead of a loose file each. A first
// snapshot of a large workspace has a tree per folder (10,000 folders at
// 100,000 files): `git write-tree` creates and fsyncs one file per tree
// (~7 s there), where one pack is one file and one fsync.
//
// The pack is git's stable format, built in Node and handed to
// `git index-pack --stdin`, which checks every object, writes the pack and its
// index under objects/pack and fsyncs both (core.fsync, git-env.ts); the
// caller fsyncs the pack folder with its batch (objectDirsChangedSince).
// Format: "PACK", version 2, the object count (big-endian), then per object a
// type-and-size header (type in bits 4-6 of the first byte, size in 4 bits
// then 7 bits per byte, low bits first, the top bit saying more follow) and
// the zlib-deflated body; last, the SHA-1 of everything before it.
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { GitContext } from './git-env.js';
import { gitStdin } from './git-runner.js';
import { objectId } from './loose-write.js';

export type PackType = 'commit' | 'tree' | 'blob';

const TYPE_CODE: Record<PackType, number> = { commit: 1, tree: 2, blob: 3 };

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

/** Collects objects (each once) and writes them as one pack. */
export class PackWriter {
  private readonly parts: Buffer[] = [];
  private readonly ids = new Set<string>();

  /** Adds one object; returns its id. */
  put(type: PackType, body: Buffer): string {
    const oid = objectId(type, body);
    if (!this.ids.has(oid)) {
      this.ids.add(oid);
      // Stored, not compressed: a tree is mostly 20-byte ids, which do not
      // compress, and zlib's per-stream setup made level 1 cost ~5x as much
      // (10,000 trees: ~0.5 s against ~0.1 s). Still far smaller than the
      // loose files it replaces (a 4 KB disk block each).
      // Copied out: zlib's result keeps its whole 16 KB output buffer alive
      // (10,000 trees held ~160 MB).
      this.parts.push(objectHeader(type, body.length), Buffer.from(deflateSync(body, { level: 0, memLevel: 1, windowBits: 9 })));
    }
    return oid;
  }

  get size(): number {
    return this.ids.size;
  }

  /** The whole pack file. */
  bytes(): Buffer {
    const header = Buffer.alloc(12);
    header.write('PACK', 0, 'latin1');
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(this.ids.size, 8);
    const body = Buffer.concat([header, ...this.parts]);
    return Buffer.concat([body, createHash('sha1').update(body).digest()]);
  }

  /** Writes the pack into the store (nothing when empty). */
  async write(gitCtx: GitContext): Promise<void> {
    if (this.ids.size === 0) return;
    await gitStdin(gitCtx, ['index-pack', '--stdin'], { input: this.bytes() });
  }
}
