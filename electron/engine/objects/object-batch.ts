// Writes the objects of one snapshot (or one repair) durably, fsyncs batched.
// Objects are collected as they are put and written when the batch is asked
// for them (written(), seal()): three or more go into one pack
// (pack-write.ts: two files and one folder fsync, however many objects), fewer
// as loose files (loose-write.ts formats), each fsynced with the others.
// Durability ("reported as taken" survives a power loss): every object is
// fsynced before the ref that names it, and each rename is followed by an
// fsync of its folder, so the entry itself is on disk. Git's own writes
// (blobs, trees) are fsynced by git (core.fsync, git-env.ts), and the fan-out
// folders they landed in (found by stampObjectDirs/objectDirsChangedSince)
// are fsynced with the snapshot's batch. Any writer of the store's objects
// from Node goes through ObjectBatch: one place for it.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { ChronoscopeError } from '../../../shared/errors.js';
import { fsyncEnabled } from '../git/git-env.js';
import { objectId, OBJECT_MODE, syncDir } from './loose-write.js';
import { rememberObject } from './recent-objects.js';
import { deflateBlob, PackWriter, type PackType } from './pack-write.js';

/** From this many objects at once, one pack instead of a loose file each. */
const PACK_MIN = 3;
/** Blobs from this size start compressing when put, on the threadpool (below, zlib's setup is most of the cost). */
const DEFLATE_EARLY_BYTES = 16 * 1024;

/** True if the loose object file reads back as exactly this object. */
async function readsBack(file: string, oid: string, type: string, body: Buffer): Promise<boolean> {
  try {
    const inflated = inflateSync(await fs.readFile(file));
    const header = Buffer.from(`${type} ${body.length}\0`);
    return inflated.length === header.length + body.length && objectId(type, body) === oid && inflated.subarray(header.length).equals(body);
  } catch {
    return false;
  }
}

/**
 * Objects this process wrote durably (or read back whole), by file: the file's
 * inode and size then. A file still there with both unchanged is that same
 * file, so it is reused without inflating it again; anything else (replaced,
 * pruned and written anew by someone else) is read back as usual.
 */
const known = new Map<string, string>();
const KNOWN_MAX = 50_000;

function remember(file: string, ino: number, size: number): void {
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(file, `${ino}:${size}`);
}

/** Object files written at once by a batch (each is a few small fs calls and one fsync). */
const BATCH_IN_FLIGHT = 32;

/**
 * Writes objects durably, fsyncs batched. A pack is fsynced before it is
 * renamed into place. A loose object file is written to a temporary name,
 * renamed, and fsynced by `seal` with the others (side by side: a file system
 * journal commits concurrent fsyncs together); `seal` then fsyncs each folder
 * that received a name once. Until `seal` resolves nothing may refer to the
 * batch's objects from a ref. A loose object already on disk is reused only
 * if it reads back whole (a 0-byte or damaged file left by a crash is
 * replaced, never built upon); if this process did not write it, its folder
 * is fsynced too (its name may not be on disk yet). A pack is always written
 * anew: a second copy of an object is harmless, and checking for each one
 * would cost what the pack saves.
 */
export class ObjectBatch {
  private readonly tasks = new Map<string, Promise<void>>();
  private readonly pending = new Map<string, { type: PackType; body: Buffer; deflated?: Promise<Buffer> }>();
  private readonly dirs = new Set<string>();
  /** Object files written and renamed into place, still open: fsynced by seal(). */
  private readonly unsynced: fs.FileHandle[] = [];
  private running = 0;
  /** True once a pack was written (the store may have packs to join: pack-merge.ts). */
  wrotePack = false;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly gitDir: string) {}

  /** Adds one object (written with the others when they are asked for); returns its id (`oid` when the caller hashed it already). */
  put(type: PackType, body: Buffer, oid = objectId(type, body)): string {
    if (!this.tasks.has(oid) && !this.pending.has(oid)) {
      // A larger blob starts compressing now, off the main thread (most go into a pack).
      const deflated = type === 'blob' && body.length >= DEFLATE_EARLY_BYTES ? deflateBlob(body) : undefined;
      deflated?.catch(() => undefined); // a failure shows where it is awaited
      this.pending.set(oid, deflated ? { type, body, deflated } : { type, body });
    }
    return oid;
  }

  /** Starts writing what was put since the last time: one pack, or a few loose files. */
  private flush(): void {
    if (this.pending.size === 0) return;
    const objects = [...this.pending];
    this.pending.clear();
    if (objects.length >= PACK_MIN) {
      this.wrotePack = true;
      const task = (async () => {
        const pack = new PackWriter();
        for (const [oid, { type, body, deflated }] of objects) pack.put(type, body, oid, deflated ? await deflated : undefined);
        const dir = await pack.write(this.gitDir);
        if (dir !== null) this.dirs.add(dir);
        // The next snapshot reads these trees and the diff these blobs: from memory.
        for (const [oid, { type, body }] of objects) rememberObject(oid, type, body);
      })();
      task.catch(() => undefined); // reported by written() or seal()
      for (const [oid] of objects) this.tasks.set(oid, task);
      return;
    }
    for (const [oid, { type, body }] of objects) {
      const task = this.slot(() => this.write(oid, type, body));
      task.catch(() => undefined);
      this.tasks.set(oid, task);
    }
  }

  /** Folders to fsync with the batch's own (where git wrote objects this snapshot uses). */
  addDirs(dirs: Iterable<string>): void {
    for (const dir of dirs) this.dirs.add(dir);
  }

  /** Closes what seal() did not (a snapshot that failed or recorded nothing): those objects stay unreferenced. */
  async close(): Promise<void> {
    this.pending.clear();
    await Promise.allSettled(this.tasks.values());
    await Promise.all(this.unsynced.splice(0).map((h) => h.close().catch(() => undefined)));
  }

  /** Every object so far is in place under its name (readable; not yet sealed). */
  async written(): Promise<void> {
    this.flush();
    const results = await Promise.allSettled([...this.tasks.values()]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Every object file and every folder that received one fsynced, all side by
   * side: one journal commit on most file systems, not one per object and
   * then one per folder. The files were renamed into place before their
   * fsync: until seal() resolves no ref names them, and a file a crash left
   * short is never reused (it does not read back) but written anew.
   */
  async seal(): Promise<void> {
    try {
      await this.written();
    } finally {
      const handles = this.unsynced.splice(0);
      const syncs = handles.map(async (handle) => {
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      });
      const dirs = [...this.dirs].map((dir) => syncDir(dir));
      this.dirs.clear();
      const settled = await Promise.allSettled([...syncs, ...dirs]);
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw new ChronoscopeError('internal', `cannot make objects durable: ${(failed.reason as Error).message}`);
    }
  }

  private async slot(fn: () => Promise<void>): Promise<void> {
    if (this.running >= BATCH_IN_FLIGHT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private async write(oid: string, type: string, body: Buffer): Promise<void> {
    const dir = path.join(this.gitDir, 'objects', oid.slice(0, 2));
    const file = path.join(dir, oid.slice(2));
    const existing = await fs.lstat(file).catch(() => null);
    if (existing && existing.size > 0) {
      if (known.get(file) === `${existing.ino}:${existing.size}`) return;
      if (await readsBack(file, oid, type, body)) {
        remember(file, existing.ino, existing.size);
        if (fsyncEnabled()) this.dirs.add(dir);
        return;
      }
    }
    const created = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
    let handle: fs.FileHandle | undefined;
    try {
      handle = await fs.open(tmp, 'wx', OBJECT_MODE);
      // Level 1 is git's default core.looseCompression.
      await handle.writeFile(deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]), { level: 1 }));
      // Over a damaged copy, if there was one. Kept open: seal() fsyncs it with the others.
      await fs.rename(tmp, file);
    } catch (err) {
      await handle?.close().catch(() => undefined);
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw new ChronoscopeError('internal', `cannot write object ${oid}: ${(err as Error).message}`);
    }
    if (fsyncEnabled()) this.unsynced.push(handle);
    else await handle.close();
    this.dirs.add(dir);
    if (created !== undefined) this.dirs.add(path.dirname(dir));
    const st = await fs.lstat(file).catch(() => null);
    if (st) remember(file, st.ino, st.size);
  }
}

/** Writes one loose object durably (reusing it only if it reads back whole); returns its id. */
export async function writeLooseObject(gitDir: string, type: 'commit' | 'tree' | 'blob', body: Buffer): Promise<string> {
  const batch = new ObjectBatch(gitDir);
  const oid = batch.put(type, body);
  await batch.seal();
  return oid;
}

