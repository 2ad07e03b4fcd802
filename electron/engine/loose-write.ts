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
// an fsync of its folder, so the entry itself is on disk. Git's own writes
// (blobs, trees, packs) are fsynced by git (core.fsync, git-env.ts), and the
// fan-out folders they landed in by syncObjectDirsSince. Any writer of the
// store (snapshots, and whatever writes trees from Node later) goes through
// writeLooseObject/createLooseRef/syncObjectDirsSince: one place for it.
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

/**
 * fsyncs the object fan-out folders changed since `sinceMs` (where git wrote
 * this snapshot's blobs and trees; git fsyncs the files, not their folders).
 */
export async function syncObjectDirsSince(gitDir: string, sinceMs: number): Promise<void> {
  if (!fsyncEnabled()) return;
  const objects = path.join(gitDir, 'objects');
  const names = await fs.readdir(objects).catch(() => [] as string[]);
  // Folder times have a coarse grain on some file systems: look a little earlier.
  const since = sinceMs - 2000;
  await Promise.all(
    names.map(async (name) => {
      if (!/^[0-9a-f]{2}$/.test(name) && name !== 'pack') return;
      const dir = path.join(objects, name);
      const st = await fs.stat(dir).catch(() => null);
      if (st && st.mtimeMs >= since) await syncDir(dir);
    }),
  );
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

/** Writes one loose object durably (reusing it only if it reads back whole); returns its id. */
export async function writeLooseObject(gitDir: string, type: 'commit' | 'tree' | 'blob', body: Buffer): Promise<string> {
  const oid = objectId(type, body);
  const dir = path.join(gitDir, 'objects', oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  const existing = await fs.lstat(file).catch(() => null);
  if (existing && existing.size > 0 && (await readsBack(file, oid, type, body))) return oid;
  const created = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
  try {
    // Level 1 is git's default core.looseCompression.
    await writeDurableFile(tmp, deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]), { level: 1 }), OBJECT_MODE);
    // Over a damaged copy, if there was one.
    await fs.rename(tmp, file);
    await syncDir(dir);
    if (created !== undefined) await syncDir(path.dirname(dir));
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw new ChronoscopeError('internal', `cannot write object ${oid}: ${(err as Error).message}`);
  }
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
