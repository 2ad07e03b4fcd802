// Object access: loose objects and those in our packs are read in Node
// (object-read.ts); the rest through `cat-file --batch-check` / `--batch`, one
// process for any number of objects, fed on stdin (none when Node read all).
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { ChronoscopeError } from '../../../shared/errors.js';
import type { GitContext } from '../git/git-env.js';
import { gitStdin, spawnGit } from '../git/git-runner.js';
import { objectInfosInNode, objectInNode } from './object-read.js';
import { recentObject, rememberObject } from './recent-objects.js';
import { mapLimit } from '../support/fsutil.js';
import { sharedCheck, sharedRead, sharedRunning } from '../git/cat-file-server.js';

export interface ObjectInfo {
  oid: string;
  type: string;
  size: number;
}

/**
 * Type and size of each object; missing objects are absent from the map.
 * `shared`: objects that are not loose are asked of the store's long-lived
 * checker (cat-file-server.ts), else of a process of their own.
 */
export async function batchCheck(gitCtx: GitContext, oids: readonly string[], { shared = false }: { shared?: boolean } = {}): Promise<Map<string, ObjectInfo>> {
  const result = new Map<string, ObjectInfo>();
  const all = [...new Set(oids)];
  // The shared process already up answers many objects, loose or packed, in
  // one round trip: cheaper than opening each loose file from Node.
  if (shared && all.length > 4 && sharedRunning(gitCtx)) {
    const found = await sharedCheck(gitCtx, all).catch(() => null);
    if (found) {
      for (const [oid, info] of found) result.set(oid, { oid, ...info });
      return result;
    }
  }
  for (const [oid, info] of await objectInfosInNode(gitCtx.gitDir, all)) result.set(oid, { oid, ...info });
  const unique = all.filter((oid) => !result.has(oid));
  if (unique.length === 0) return result;
  if (shared) {
    const found = await sharedCheck(gitCtx, unique).catch(() => null);
    if (found) {
      for (const [oid, info] of found) result.set(oid, { oid, ...info });
      return result;
    }
  }
  const { stdout } = await gitStdin(gitCtx, ['cat-file', '--batch-check'], { input: unique.map((o) => `${o}\n`).join('') });
  for (const line of stdout.toString('utf8').split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (oid && type && size && type !== 'missing') result.set(oid, { oid, type, size: Number(size) });
  }
  return result;
}

/** `cat-file --batch` fed every id up front; stderr is collected for the error message. */
function startBatch(gitCtx: GitContext, oids: readonly string[]): { child: ChildProcessByStdio<Writable, Readable, Readable>; stderr: () => string } {
  const child = spawnGit(gitCtx, ['cat-file', '--batch']) as ChildProcessByStdio<Writable, Readable, Readable>;
  let text = '';
  child.stderr.on('data', (c: Buffer) => (text += c.toString('utf8')));
  child.stdin.on('error', () => undefined);
  child.stdin.end(oids.map((o) => `${o}\n`).join(''));
  return { child, stderr: () => text };
}

/** Up to this many packed objects are read through the shared process (no start-up) rather than a new one. */
const SHARED_READ_MAX = 64;

/**
 * Streams the contents of blobs, one handler call at a time (the stream is
 * paused while a handler runs, so memory holds one object, not all of them).
 */
export async function batchContents(gitCtx: GitContext, oids: readonly string[], onObject: (oid: string, data: Buffer) => Promise<void>): Promise<void> {
  const unique: string[] = [];
  for (const oid of new Set(oids)) {
    const loose = await objectInNode(gitCtx.gitDir, oid);
    if (loose?.data) await onObject(oid, loose.data);
    else unique.push(oid);
  }
  // A few packed objects (a small restore): the store's long-lived process
  // answers without a process start; whatever it cannot read goes the usual way.
  while (unique.length > 0 && unique.length <= SHARED_READ_MAX) {
    const oid = unique[0] as string;
    const read = await sharedRead(gitCtx, oid, Infinity).catch(() => null);
    if (!read?.data) break;
    unique.shift();
    await onObject(oid, read.data);
  }
  if (unique.length === 0) return;
  const { child, stderr } = startBatch(gitCtx, unique);

  let buffer: Buffer = Buffer.alloc(0);
  let current: { oid: string; size: number } | null = null;
  let failure: Error | null = null;
  const closed = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));

  await new Promise<void>((resolve, reject) => {
    child.on('error', (e) => reject(new ChronoscopeError('internal', `cannot run git: ${e.message}`)));
    const drain = async (): Promise<void> => {
      for (;;) {
        if (!current) {
          const nl = buffer.indexOf(10);
          if (nl < 0) return;
          const header = buffer.subarray(0, nl).toString('utf8');
          buffer = buffer.subarray(nl + 1);
          const [oid = '', type = '', size = ''] = header.split(' ');
          if (type === 'missing' || !size) throw new ChronoscopeError('internal', `object ${oid} is missing from the store`);
          current = { oid, size: Number(size) };
        }
        if (buffer.length < current.size + 1) return;
        const data = Buffer.from(buffer.subarray(0, current.size));
        buffer = buffer.subarray(current.size + 1); // object data is followed by LF
        const oid = current.oid;
        current = null;
        await onObject(oid, data);
      }
    };
    let busy = false;
    let ended = false;
    const pump = (): void => {
      if (busy) return;
      busy = true;
      child.stdout.pause();
      drain()
        .then(() => {
          busy = false;
          if (ended) {
            if (current || buffer.length > 0) reject(new ChronoscopeError('internal', `git cat-file ended early: ${stderr().split('\n')[0] ?? ''}`));
            else resolve();
          } else child.stdout.resume();
        })
        .catch((err: Error) => {
          failure = err;
          child.kill();
          reject(err);
        });
    };
    child.stdout.on('data', (chunk: Buffer) => {
      buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
      pump();
    });
    child.stdout.on('end', () => {
      ended = true;
      pump();
    });
  });
  const code = await closed;
  if (failure) throw failure;
  if (code !== 0) throw new ChronoscopeError('internal', `git cat-file failed: ${stderr().split('\n')[0] ?? code}`);
}

export interface BlobRead {
  size: number;
  /** Null when larger than the limit (its bytes were skipped, never held). */
  data: Buffer | null;
}

/** Sizes and contents (up to maxBytes each) of a few objects in one `cat-file --batch`; missing ones are absent. */
export async function readObjectsLimited(gitCtx: GitContext, oids: readonly string[], maxBytes: number): Promise<Map<string, BlobRead>> {
  const result = new Map<string, BlobRead>();
  for (const oid of oids) {
    const data = recentObject(oid, 'blob');
    if (data) result.set(oid, { size: data.length, data: data.length > maxBytes ? null : data });
  }
  if (result.size === new Set(oids).size) return result;
  const read = await readUncached(gitCtx, oids.filter((oid) => !result.has(oid)), maxBytes);
  for (const [oid, blob] of read) {
    result.set(oid, blob);
    if (blob.data) rememberObject(oid, 'blob', blob.data);
  }
  return result;
}

async function readUncached(gitCtx: GitContext, oids: readonly string[], maxBytes: number): Promise<Map<string, BlobRead>> {
  const result = new Map<string, BlobRead>();
  const unique: string[] = [];
  const wanted = [...new Set(oids)];
  // Those Node can read (loose, or in our packs), side by side (each is an open, a read and an inflate).
  const loose = await mapLimit(wanted, 16, (oid) => objectInNode(gitCtx.gitDir, oid, maxBytes));
  wanted.forEach((oid, i) => {
    const found = loose[i];
    if (found) result.set(oid, { size: found.size, data: found.data });
    else unique.push(oid);
  });
  if (unique.length === 0) return result;
  // Some packed objects (the viewer's two sides, the hidden-change check's pairs): the store's
  // long-lived process, no start-up; a new process only for many.
  if (unique.length <= SHARED_READ_MAX) {
    const read = await Promise.all(unique.map((oid) => sharedRead(gitCtx, oid, maxBytes).catch(() => undefined)));
    if (read.every((r) => r !== undefined)) {
      unique.forEach((oid, i) => {
        const r = read[i];
        if (r) result.set(oid, r);
      });
      return result;
    }
  }
  const { child, stderr } = startBatch(gitCtx, unique);
  let pending: Buffer = Buffer.alloc(0);
  // The object being read: bytes still expected (data + the LF after it) and where they go.
  let current: { oid: string; size: number; left: number; parts: Buffer[] | null } | null = null;
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', (e) => reject(new ChronoscopeError('internal', `cannot run git: ${e.message}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (!current) {
          const nl = pending.indexOf(10);
          if (nl < 0) break;
          const [oid = '', type = '', size = ''] = pending.subarray(0, nl).toString('utf8').split(' ');
          pending = pending.subarray(nl + 1);
          if (type === 'missing' || !size) continue;
          const n = Number(size);
          current = { oid, size: n, left: n + 1, parts: n > maxBytes ? null : [] };
        }
        if (pending.length === 0) break;
        const take = Math.min(current.left, pending.length);
        current.parts?.push(pending.subarray(0, take));
        pending = pending.subarray(take);
        current.left -= take;
        if (current.left > 0) break;
        const data = current.parts ? Buffer.concat(current.parts).subarray(0, current.size) : null;
        result.set(current.oid, { size: current.size, data });
        current = null;
      }
    });
    child.on('close', (c) => resolve(c ?? -1));
  });
  if (code !== 0) throw new ChronoscopeError('internal', `git cat-file failed: ${stderr().split('\n')[0] ?? code}`);
  return result;
}
