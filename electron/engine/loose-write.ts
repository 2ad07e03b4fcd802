// Writes a commit object and creates its ref from Node, saving the two git
// processes (commit-tree, update-ref) every recorded checkpoint used to spawn.
// Both formats are git's stable on-disk formats:
// - a loose object is zlib("<type> <size>\0<body>") stored at
//   objects/<first 2 hex>/<other 38 hex> of its SHA-1; written to a tmp_obj_
//   file first (the prefix git itself uses, which gc cleans up if a crash
//   leaves one) and renamed into place, so readers never see half an object;
// - a loose ref is the file refs/... holding "<oid>\n". It is created through
//   "<ref>.lock" opened exclusively (git's own lock protocol, so a concurrent
//   git process writing the same ref fails one side) and then hard-linked to
//   the ref name, which fails if the ref already exists: create-only, like
//   `update-ref <ref> <oid> <zero-oid>`.
// Durability ("reported as taken" survives a power loss): every object is
// fsynced before the ref that names it, and each rename or link is followed by
// an fsync of its folder, so the entry itself is on disk. The fsyncs of one
// snapshot are batched (ObjectBatch): all object files side by side, then each
// folder that received one once, then the ref — not an fsync round trip per
// object and folder. Git's own writes (blobs, trees, packs) are fsynced by git
// (core.fsync, git-env.ts), and the fan-out folders they landed in (found by
// stampObjectDirs/objectDirsChangedSince) with the snapshot's batch. Any writer
// of the store goes through ObjectBatch/createLooseRef: one place for it.
// An object already on disk is reused only if it reads back whole: a 0-byte
// or damaged file left by a crash is replaced, never built upon.
// The store is initialised by us as a SHA-1 repository with the files ref
// backend (git 2.39 has no other default), which these formats assume.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { ChronoscopeError } from '../../shared/errors.js';
import { fsyncEnabled } from './git-env.js';
import { isObjectId } from './git-runner.js';

export function objectId(type: string, body: Buffer): string {
  const header = Buffer.from(`${type} ${body.length}\0`);
  return createHash('sha1').update(header).update(body).digest('hex');
}

/** Store files are owner-only and never rewritten in place. */
export const OBJECT_MODE = 0o400;

/** Writes `data` to a new file (fails if it exists) and fsyncs it before closing. */
export async function writeDurableFile(file: string, data: Buffer | string, mode: number): Promise<void> {
  const handle = await fs.open(file, 'wx', mode);
  try {
    await handle.writeFile(data);
    if (fsyncEnabled()) await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync of a folder: the names created, renamed or linked in it are on disk. */
export async function syncDir(dir: string): Promise<void> {
  if (!fsyncEnabled()) return;
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (err) {
    // Windows cannot open or fsync a folder; there NTFS journals the rename itself.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EACCES') throw err;
  } finally {
    await handle?.close();
  }
}

/** Modification times of the object fan-out folders (and `pack`), taken before git writes into them. */
export type ObjectDirStamp = Map<string, number>;

function isObjectDirName(name: string): boolean {
  return /^[0-9a-f]{2}$/.test(name) || name === 'pack';
}

/** One readdir and a stat per folder: what objectDirsChangedSince compares against. */
export async function stampObjectDirs(gitDir: string): Promise<ObjectDirStamp> {
  const objects = path.join(gitDir, 'objects');
  const names = (await fs.readdir(objects).catch(() => [] as string[])).filter(isObjectDirName);
  const stamp: ObjectDirStamp = new Map();
  await Promise.all(
    names.map(async (name) => {
      const st = await fs.stat(path.join(objects, name)).catch(() => null);
      if (st) stamp.set(name, st.mtimeMs);
    }),
  );
  return stamp;
}

/**
 * The object folders git wrote in since `stamp` (git fsyncs the files it
 * writes, not their folders): a folder that is new or whose time moved. A
 * file system with whole-second folder times (FAT, HFS+) may not move the time
 * of a folder written twice within one second: there a folder whose time is a
 * whole second no older than the stamp's own counts as written too.
 */
export async function objectDirsChangedSince(gitDir: string, stamp: ObjectDirStamp, stampedAtMs: number): Promise<string[]> {
  const objects = path.join(gitDir, 'objects');
  const names = (await fs.readdir(objects).catch(() => [] as string[])).filter(isObjectDirName);
  const changed: string[] = [];
  let created = false;
  await Promise.all(
    names.map(async (name) => {
      const st = await fs.stat(path.join(objects, name)).catch(() => null);
      if (!st) return;
      const before = stamp.get(name);
      if (before === undefined) created = true;
      const coarse = st.mtimeMs % 1000 === 0 && st.mtimeMs >= stampedAtMs - 2000;
      if (before === undefined || before !== st.mtimeMs || coarse) changed.push(path.join(objects, name));
    }),
  );
  if (created) changed.push(objects);
  return changed;
}

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
 * Writes loose objects durably, fsyncs batched: every object file is written
 * to a temporary name, fsynced and renamed (all side by side: a file system
 * journal commits concurrent fsyncs together), and `seal` then fsyncs each
 * folder that received a name once. Until `seal` resolves nothing may refer
 * to the batch's objects from a ref. An object already on disk is reused only
 * if it reads back whole (a 0-byte or damaged file left by a crash is
 * replaced, never built upon); if this process did not write it, its folder
 * is fsynced too (its name may not be on disk yet).
 */
export class ObjectBatch {
  private readonly tasks = new Map<string, Promise<void>>();
  private readonly dirs = new Set<string>();
  /** Object files written and renamed into place, still open: fsynced by seal(). */
  private readonly unsynced: fs.FileHandle[] = [];
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly gitDir: string) {}

  /** Starts writing one object; returns its id at once. */
  put(type: 'commit' | 'tree' | 'blob', body: Buffer): string {
    const oid = objectId(type, body);
    if (!this.tasks.has(oid)) {
      const task = this.slot(() => this.write(oid, type, body));
      task.catch(() => undefined); // reported by seal()
      this.tasks.set(oid, task);
    }
    return oid;
  }

  /** Folders to fsync with the batch's own (where git wrote objects this snapshot uses). */
  addDirs(dirs: Iterable<string>): void {
    for (const dir of dirs) this.dirs.add(dir);
  }

  /** Closes what seal() did not (a snapshot that failed or recorded nothing): those objects stay unreferenced. */
  async close(): Promise<void> {
    await Promise.allSettled(this.tasks.values());
    await Promise.all(this.unsynced.splice(0).map((h) => h.close().catch(() => undefined)));
  }

  /** Every object so far is in place under its name (readable; not yet sealed). */
  async written(): Promise<void> {
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

/** "+hhmm"/"-hhmm" offset of local time, as commit-tree writes it. */
function tzOffset(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** A parentless commit of `tree` with `message`, as `git commit-tree <tree> -m <message>` writes it. */
export function commitBody(tree: string, message: string, ident: { name: string; email: string }, timeMs: number): Buffer {
  const date = new Date(timeMs);
  const who = `${ident.name} <${ident.email}> ${Math.floor(timeMs / 1000)} ${tzOffset(date)}`;
  return Buffer.from(`tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${message}`, 'utf8');
}

/**
 * Creates refname → oid durably; fails (ChronoscopeError) if the ref already
 * exists. The caller holds the workspace's lock, the only writer of its refs:
 * a `<ref>.lock` already there was left by a killed writer and is removed.
 */
export async function createLooseRef(gitDir: string, refname: string, oid: string): Promise<void> {
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(refname) || refname.includes('..') || !isObjectId(oid)) {
    throw new ChronoscopeError('internal', `refusing to write ref ${refname}`);
  }
  const file = path.join(gitDir, ...refname.split('/'));
  const dir = path.dirname(file);
  const lock = `${file}.lock`;
  const created = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await writeDurableFile(lock, `${oid}\n`, 0o600).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
      await fs.rm(lock, { force: true });
      await writeDurableFile(lock, `${oid}\n`, 0o600);
    });
  } catch (err) {
    throw new ChronoscopeError('internal', `cannot lock ref ${refname}: ${(err as Error).message}`);
  }
  try {
    try {
      await fs.link(lock, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // No hard links on this file system: we hold the lock file, so check and rename.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
      if (await fs.lstat(file).then(() => true, () => false)) throw err;
      await fs.rename(lock, file);
    }
  } catch (err) {
    await fs.rm(lock, { force: true }).catch(() => undefined);
    throw new ChronoscopeError('internal', `cannot create ref ${refname}: ${(err as Error).message}`);
  }
  await fs.rm(lock, { force: true }).catch(() => undefined);
  await syncDir(dir);
  // A new workspace's first ref also created its folders: their entries too.
  if (created !== undefined) {
    for (let d = path.dirname(dir); d.length >= gitDir.length; d = path.dirname(d)) {
      await syncDir(d);
      if (d === path.dirname(created)) break;
    }
  }
}
