// One long-lived `cat-file --batch-command` per store, for the sizes a diff
// lists, a restore's phase-1 existence check and the few packed blobs the
// file viewer shows: each costs a pipe round trip
// instead of a process start (~5-8 ms). It only reads; its answer is git's
// own (a missing object is looked for again before "missing" is said), and
// when it cannot answer the caller runs a one-shot process. The child never
// keeps the process alive (unref'd while idle) and is restarted if it dies.
// Objects written or packed after it started are still found: git looks
// again (loose, then re-reads the pack list) when an object is not where it
// last looked.
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { ChronoscopeError } from '../../../shared/errors.js';
import type { GitContext } from './git-env.js';
import { spawnGit, isObjectId } from './git-runner.js';

export interface CheckedObject {
  type: string;
  size: number;
}

/** One request: `info` answers a header line per object; `contents` one header and, unless missing, the bytes. */
interface Pending {
  kind: 'info' | 'contents';
  count: number;
  lines: string[];
  data: Buffer | null;
  /** Bytes still expected for `contents` (object + its LF), once the header is read. */
  left: number;
  parts: Buffer[];
  resolve: (answer: { lines: string[]; data: Buffer | null }) => void;
  reject: (err: Error) => void;
}

class CatFileServer {
  private child: ChildProcess | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending[] = [];

  constructor(private readonly gitCtx: GitContext) {}

  private start(): ChildProcess {
    // --batch-command (git 2.36+): `info` is --batch-check's answer, `contents` --batch's.
    const child = spawnGit(this.gitCtx, ['cat-file', '--batch-command'], ['pipe', 'pipe', 'ignore']);
    child.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (why: string): void => {
      if (this.child === child) this.child = null;
      const waiting = this.pending;
      this.pending = [];
      this.buffer = Buffer.alloc(0);
      for (const p of waiting) p.reject(new ChronoscopeError('internal', `git cat-file --batch-command ${why}`));
    };
    child.on('error', (e) => fail(`failed: ${e.message}`));
    child.on('close', () => fail('ended'));
    child.stdin?.on('error', () => undefined);
    this.child = child;
    this.setRef(false);
    return child;
  }

  /** Keep the event loop alive only while an answer is awaited. */
  private setRef(on: boolean): void {
    const child = this.child;
    if (!child) return;
    const handles = [child, child.stdin as unknown as Socket | null, child.stdout as unknown as Socket | null];
    for (const h of handles) {
      if (h) on ? h.ref() : h.unref();
    }
  }

  private finish(head: Pending): void {
    this.pending.shift();
    if (this.pending.length === 0) this.setRef(false);
    head.resolve({ lines: head.lines, data: head.data });
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const head = this.pending[0];
      if (!head) {
        this.buffer = Buffer.alloc(0);
        return;
      }
      if (head.left > 0) {
        if (this.buffer.length === 0) return;
        const take = Math.min(head.left, this.buffer.length);
        head.parts.push(this.buffer.subarray(0, take));
        this.buffer = this.buffer.subarray(take);
        head.left -= take;
        if (head.left > 0) return;
        head.data = Buffer.concat(head.parts).subarray(0, -1); // the object is followed by LF
        this.finish(head);
        continue;
      }
      const nl = this.buffer.indexOf(10);
      if (nl < 0) return;
      const line = this.buffer.subarray(0, nl).toString('utf8');
      this.buffer = this.buffer.subarray(nl + 1);
      head.lines.push(line);
      if (head.kind === 'contents') {
        const [, type = 'missing', size = ''] = line.split(' ');
        if (type !== 'missing' && /^\d+$/.test(size)) {
          head.left = Number(size) + 1;
          continue;
        }
      }
      if (head.lines.length === head.count) this.finish(head);
    }
  }

  private ask(kind: Pending['kind'], oids: readonly string[]): Promise<{ lines: string[]; data: Buffer | null }> {
    const child = this.child ?? this.start();
    return new Promise((resolve, reject) => {
      this.pending.push({ kind, count: oids.length, lines: [], data: null, left: 0, parts: [], resolve, reject });
      this.setRef(true);
      child.stdin?.write(oids.map((o) => `${kind} ${o}\n`).join(''));
    });
  }

  get running(): boolean {
    return this.child !== null;
  }

  async check(oids: readonly string[]): Promise<string[]> {
    return (await this.ask('info', oids)).lines;
  }

  async contents(oid: string): Promise<{ header: string; data: Buffer | null }> {
    const answer = await this.ask('contents', [oid]);
    return { header: answer.lines[0] ?? '', data: answer.data };
  }
}

const servers = new Map<string, CatFileServer>();

function serverFor(gitCtx: GitContext): CatFileServer {
  const key = gitCtx.gitDir;
  let server = servers.get(key);
  if (!server) {
    server = new CatFileServer({ gitDir: gitCtx.gitDir, cwd: gitCtx.gitDir });
    servers.set(key, server);
  }
  return server;
}

/** True while the store's shared process is up: asking it is then one pipe round trip. */
export function sharedRunning(gitCtx: GitContext): boolean {
  return servers.get(gitCtx.gitDir)?.running === true;
}

/** Type and size of each object through the store's shared checker; missing objects are absent. */
export async function sharedCheck(gitCtx: GitContext, oids: readonly string[]): Promise<Map<string, CheckedObject>> {
  const result = new Map<string, CheckedObject>();
  const wanted = oids.filter(isObjectId);
  if (wanted.length === 0) return result;
  for (const line of await serverFor(gitCtx).check(wanted)) {
    const [oid, type, size] = line.split(' ');
    if (oid && type && size && type !== 'missing') result.set(oid, { type, size: Number(size) });
  }
  return result;
}

/**
 * Raw `info` answers (one line each: "<oid> <type> <size>" or "<spec> missing")
 * for object specs such as `<tree>:<path>`; callers check the specs hold no
 * line break, which would split a command.
 */
export async function sharedInfo(gitCtx: GitContext, specs: readonly string[]): Promise<string[]> {
  if (specs.length === 0) return [];
  if (specs.some((s) => /[\r\n]/.test(s))) throw new ChronoscopeError('bad_input', 'an object name holds a line break');
  return serverFor(gitCtx).check(specs);
}

/**
 * Size and content of one object (content null above maxBytes: only its size
 * is asked), through the same shared process; null when missing.
 */
export async function sharedRead(gitCtx: GitContext, oid: string, maxBytes: number): Promise<{ size: number; data: Buffer | null } | null> {
  if (!isObjectId(oid)) return null;
  const server = serverFor(gitCtx);
  const info = (await sharedCheck(gitCtx, [oid])).get(oid);
  if (!info) return null;
  if (info.size > maxBytes) return { size: info.size, data: null };
  const { header, data } = await server.contents(oid);
  const [, type = 'missing', size = ''] = header.split(' ');
  if (type === 'missing' || data === null || Number(size) !== data.length) return null;
  return { size: data.length, data };
}
