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
// Crash safety stays as before: the object exists before the ref names it.
// The store is initialised by us as a SHA-1 repository with the files ref
// backend (git 2.39 has no other default), which these formats assume.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { ChronoscopeError } from '../../shared/errors.js';
import { isObjectId } from './git-runner.js';

export function objectId(type: string, body: Buffer): string {
  const header = Buffer.from(`${type} ${body.length}\0`);
  return createHash('sha1').update(header).update(body).digest('hex');
}

/** Writes one loose object (no-op if it exists); returns its id. */
export async function writeLooseObject(gitDir: string, type: 'commit' | 'tree' | 'blob', body: Buffer): Promise<string> {
  const oid = objectId(type, body);
  const dir = path.join(gitDir, 'objects', oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  try {
    await fs.access(file);
    return oid;
  } catch {
    /* not there yet */
  }
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`);
  try {
    // Level 1 is git's default core.looseCompression.
    await fs.writeFile(tmp, deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]), { level: 1 }), { mode: 0o444, flag: 'wx' });
    await fs.rename(tmp, file);
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

/** Creates refname → oid; fails (ChronoscopeError) if the ref or its lock already exists. */
export async function createLooseRef(gitDir: string, refname: string, oid: string): Promise<void> {
  if (!/^refs\/[A-Za-z0-9._/-]+$/.test(refname) || refname.includes('..') || !isObjectId(oid)) {
    throw new ChronoscopeError('internal', `refusing to write ref ${refname}`);
  }
  const file = path.join(gitDir, ...refname.split('/'));
  const lock = `${file}.lock`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  try {
    await fs.writeFile(lock, `${oid}\n`, { flag: 'wx' });
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
    throw new ChronoscopeError('internal', `cannot create ref ${refname}: ${(err as Error).message}`);
  } finally {
    await fs.rm(lock, { force: true }).catch(() => undefined);
  }
}
