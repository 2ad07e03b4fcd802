// One writer per workspace across processes (the app, CLI and hook
// invocations, a second app instance), using proper-lockfile: an atomic mkdir
// lock whose mtime the holder refreshes.
//
// A holder that died must not block the next writer for long: an agent's hook
// has a 5 s budget. So the holder also writes `<target>.holder` (its host, pid,
// process start time and the lock folder's inode); a waiter on the same host
// that finds that process gone (or its pid reused by a younger process) takes
// the lock over at once. Where that cannot be told (another host, no holder
// file yet, a platform without start times), proper-lockfile's mtime staleness
// (STALE_MS) remains the fallback. Takeovers are serialised by a small
// `<target>.takeover` folder so two waiters never remove each other's fresh lock.
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import lockfile from 'proper-lockfile';
import { ChronoscopeError } from '../../shared/errors.js';
import { writeFileAtomic } from '../fs/atomic-file.js';

const STALE_MS = 10_000;
const UPDATE_MS = 2_000;
/** A takeover folder older than this was left by a waiter that died mid-takeover. */
const TAKEOVER_STALE_MS = 5_000;

export interface LockOptions {
  /** How long to wait for another writer before giving up (ms). */
  waitMs?: number;
  what?: string;
}

interface Holder {
  host: string;
  pid: number;
  /** Process start time as the OS counts it (Linux: clock ticks since boot); null where unknown. */
  start: string | null;
  /** Inode of the lock folder this holder created: a holder file never speaks for a later lock. */
  ino: string;
}

export async function withLock<T>(target: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquire(target, options);
  try {
    return await fn();
  } finally {
    await release().catch(() => {
      /* already released or compromised: nothing else to do */
    });
  }
}

export async function acquire(target: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const waitMs = options.waitMs ?? 60_000;
  // proper-lockfile needs the target to exist (it resolves it with realpath).
  await fs.writeFile(target, '', { flag: 'a', mode: 0o600 });
  const started = Date.now();
  let delay = 10;
  for (;;) {
    try {
      const release = await lockfile.lock(target, {
        stale: STALE_MS,
        update: UPDATE_MS,
        realpath: false,
        retries: 0,
        onCompromised: () => {
          /* our mtime updates failed for longer than STALE_MS; the work continues and the next writer takes over */
        },
      });
      await writeHolder(target);
      return async () => {
        // The holder file goes first: a holder file without its lock is harmless, the reverse only waits for staleness.
        await fs.rm(holderFile(target), { force: true }).catch(() => undefined);
        await release();
      };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') throw new ChronoscopeError('internal', `cannot lock ${options.what ?? target}: ${(err as Error).message}`);
      if (await takeOverDeadHolder(target)) continue;
      if (Date.now() - started > waitMs) {
        throw new ChronoscopeError('locked', `${options.what ?? 'the workspace'} is busy: another Chronoscope writer held its lock for over ${Math.round(waitMs / 1000)} s`);
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 250);
    }
  }
}

const holderFile = (target: string): string => `${target}.holder`;
const lockDir = (target: string): string => `${target}.lock`;

async function writeHolder(target: string): Promise<void> {
  try {
    const st = await fs.stat(lockDir(target), { bigint: true });
    const holder: Holder = { host: os.hostname(), pid: process.pid, start: processStart(process.pid), ino: String(st.ino) };
    await writeFileAtomic(holderFile(target), `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  } catch {
    /* without a holder file, waiters fall back to mtime staleness */
  }
}

/** State and start time of a process (Linux: fields 3 and 22 of /proc/<pid>/stat); null where the OS does not say. */
function procStat(pid: number): { state: string; start: string } | null {
  if (process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [state, start] = [fields[0], fields[19]];
    return state !== undefined && start !== undefined ? { state, start } : null;
  } catch {
    return null;
  }
}

export function processStart(pid: number): string | null {
  return procStat(pid)?.start ?? null;
}

/** True if the process `holder` names is known to be gone (or its pid now belongs to another process). */
export function holderIsDead(holder: Pick<Holder, 'host' | 'pid' | 'start'>): boolean {
  if (holder.host !== os.hostname() || !Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  // Alive (or not ours to signal): dead if it is a zombie not yet reaped, or
  // if the pid was reused by a process that started later.
  const now = procStat(holder.pid);
  if (now === null) return false;
  return now.state === 'Z' || now.state === 'X' || (holder.start !== null && now.start !== holder.start);
}

async function readHolder(target: string): Promise<Holder | null> {
  try {
    const raw = JSON.parse(await fs.readFile(holderFile(target), 'utf8')) as Partial<Holder>;
    if (typeof raw.host !== 'string' || typeof raw.pid !== 'number' || typeof raw.ino !== 'string') return null;
    return { host: raw.host, pid: raw.pid, start: typeof raw.start === 'string' ? raw.start : null, ino: raw.ino };
  } catch {
    return null;
  }
}

/** If the lock's holder is known dead, removes its lock; true if the caller should try again at once. */
async function takeOverDeadHolder(target: string): Promise<boolean> {
  const first = await readHolder(target);
  if (!first || !holderIsDead(first)) return false;
  const takeover = `${target}.takeover`;
  try {
    await fs.mkdir(takeover);
  } catch {
    // Another waiter is taking over (or died doing it: its folder goes after a while).
    const st = await fs.stat(takeover).catch(() => null);
    if (st && Date.now() - st.mtimeMs > TAKEOVER_STALE_MS) await fs.rmdir(takeover).catch(() => undefined);
    return false;
  }
  try {
    // Again, now that no other waiter can act: the lock must still be the dead holder's.
    const holder = await readHolder(target);
    const st = await fs.stat(lockDir(target), { bigint: true }).catch(() => null);
    if (!holder || !st || String(st.ino) !== holder.ino || !holderIsDead(holder)) return st === null;
    await fs.rm(holderFile(target), { force: true });
    await fs.rmdir(lockDir(target)).catch(() => undefined);
    return true;
  } finally {
    await fs.rmdir(takeover).catch(() => undefined);
  }
}
