// The store's on-disk formats written from Node, saving the git processes
// (commit-tree, update-ref) every recorded checkpoint used to spawn:
// - a loose object is zlib("<type> <size>\0<body>") stored at
//   objects/<first 2 hex>/<other 38 hex> of its SHA-1; written to a tmp_obj_
//   file first (the prefix git itself uses, which gc cleans up if a crash
//   leaves one) and renamed into place, so readers never see half an object
//   (object-batch.ts writes them, and packs, for a snapshot);
// - a commit's body, as `git commit-tree` writes it;
// - a loose ref is the file refs/... holding "<oid>\n". It is created through
//   "<ref>.lock" opened exclusively (git's own lock protocol, so a concurrent
//   git process writing the same ref fails one side) and then hard-linked to
//   the ref name, which fails if the ref already exists: create-only, like
//   `update-ref <ref> <oid> <zero-oid>`; fsynced, with its folder.
// The store is initialised by us as a SHA-1 repository with the files ref
// backend (git 2.39 has no other default), which these formats assume.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { fsyncEnabled } from '../git/git-env.js';
import { isObjectId } from '../git/git-runner.js';

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
