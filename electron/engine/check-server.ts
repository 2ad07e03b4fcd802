// One long-lived `cat-file --batch-check` per store, for the sizes a diff
// lists and a restore's phase-1 existence check: each costs a pipe round trip
// instead of a process start (~5-8 ms). It only reads; its answer is git's
// own (a missing object is looked for again before "missing" is said), and
// when it cannot answer the caller runs a one-shot process. The child never
// keeps the process alive (unref'd while idle) and is restarted if it dies.
// Objects written or packed after it started are still found: git looks
// again (loose, then re-reads the pack list) when an object is not where it
// last looked.
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { ChronoscopeError } from '../../shared/errors.js';
import type { GitContext } from './git-env.js';
import { spawnGit } from './git-runner.js';

export interface CheckedObject {
  type: string;
  size: number;
}

interface Pending {
  count: number;
  lines: string[];
  resolve: (lines: string[]) => void;
  reject: (err: Error) => void;
}

class CheckServer {
  private child: ChildProcess | null = null;
  private buffer = '';
  private pending: Pending[] = [];

  constructor(private readonly gitCtx: GitContext) {}

  private start(): ChildProcess {
    const child = spawnGit(this.gitCtx, ['cat-file', '--batch-check'], ['pipe', 'pipe', 'ignore']);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => this.onData(chunk));
    const fail = (why: string): void => {
      if (this.child === child) this.child = null;
      const waiting = this.pending;
      this.pending = [];
      this.buffer = '';
      for (const p of waiting) p.reject(new ChronoscopeError('internal', `git cat-file --batch-check ${why}`));
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

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      const head = this.pending[0];
      if (!head) continue;
      head.lines.push(line);
      if (head.lines.length === head.count) {
        this.pending.shift();
        if (this.pending.length === 0) this.setRef(false);
        head.resolve(head.lines);
      }
    }
  }

  check(oids: readonly string[]): Promise<string[]> {
    const child = this.child ?? this.start();
    return new Promise((resolve, reject) => {
      this.pending.push({ count: oids.length, lines: [], resolve, reject });
      this.setRef(true);
      child.stdin?.write(oids.map((o) => `${o}\n`).join(''));
    });
  }
}

const servers = new Map<string, CheckServer>();

/** Type and size of each object through the store's shared checker; missing objects are absent. */
export async function sharedCheck(gitCtx: GitContext, oids: readonly string[]): Promise<Map<string, CheckedObject>> {
  const result = new Map<string, CheckedObject>();
  const wanted = oids.filter((o) => /^[0-9a-f]{40}$/.test(o));
  if (wanted.length === 0) return result;
  const key = gitCtx.gitDir;
  let server = servers.get(key);
  if (!server) {
    server = new CheckServer({ gitDir: gitCtx.gitDir, cwd: gitCtx.gitDir });
    servers.set(key, server);
  }
  for (const line of await server.check(wanted)) {
    const [oid, type, size] = line.split(' ');
    if (oid && type && size && type !== 'missing') result.set(oid, { type, size: Number(size) });
  }
  return result;
}
