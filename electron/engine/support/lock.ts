// One writer per workspace across processes (the app, CLI and hook
// invocations, a second app instance), using proper-lockfile: an atomic mkdir
// of `<target>.lock`, whose mtime the holder refreshes.
//
// A holder that died must not block the next writer for long, whatever moment
// it died at: an agent's hook has a 5 s budget. A bare folder cannot say who
// made it, so every writer announces itself BEFORE it creates the folder, and
// withdraws only AFTER it removed it:
//
//   claim    `<target>.claim-<pid>-<start>-<n>-<host>`, an empty file whose
//            name says who (pid, process start time, host); created before
//            the mkdir, removed after the rmdir (or after a failed mkdir).
//   takeover `<target>.takeover-<pid>-<start>-<n>-<host>`, raised by a waiter
//            for the short time it judges and removes a lock folder.
//
// An acquirer: claim → list the folder; a live takeover marker → back off →
// mkdir. A waiter taking over: raise its marker → list the claims → if no
// claim is alive, remove the lock folder (then it competes like anyone).
// Why it never removes a live holder's folder: a holder's claim exists from
// before its mkdir to after its rmdir. If that claim was there when the waiter
// listed, the waiter saw it alive and left the folder alone; if it came later,
// the holder listed after the waiter's marker was raised, saw it and did not
// mkdir. The same holds for two waiters at once (each has its own marker), so
// no marker is exclusive, and a waiter killed with its marker raised costs
// nothing: a dead process's marker is ignored. A folder with no claim at all
// (an older Chronoscope, a plain proper-lockfile user) and claims whose owner
// cannot be judged (another host; no start time on this OS, so a reused pid
// cannot be told) fall back to mtime staleness (STALE_MS). proper-lockfile's
// own staleness is off: every removal of another's folder goes through here.
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { ChronoscopeError } from '../../../shared/errors.js';

const STALE_MS = 10_000;
const UPDATE_MS = 2_000;
/** proper-lockfile never judges the folder stale itself (nor our own lock compromised by a slow refresh). */
const NEVER_STALE = 2 ** 31 - 1;
/** A takeover marker whose owner cannot be judged (another host) is ignored after this long. */
const MARKER_STALE_MS = 5_000;

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
}

type Kind = 'claim' | 'takeover';
interface Entry extends Holder {
  kind: Kind;
  name: string;
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
    let attempt: Attempt;
    try {
      attempt = await tryOnce(target);
    } catch (err) {
      throw new ChronoscopeError('internal', `cannot lock ${options.what ?? target}: ${(err as Error).message}`);
    }
    if (typeof attempt === 'function') return attempt;
    if (attempt === 'locked' && (await takeOverDeadHolder(target))) continue;
    if (Date.now() - started > waitMs) {
      throw new ChronoscopeError('locked', `${options.what ?? 'the workspace'} is busy: another Chronoscope writer held its lock for over ${Math.round(waitMs / 1000)} s`);
    }
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, 250);
  }
}

/** The release function; 'locked': another writer's folder is there; 'wait': a waiter is taking a dead holder's lock over. */
type Attempt = (() => Promise<void>) | 'locked' | 'wait';

async function tryOnce(target: string): Promise<Attempt> {
  const claim = await raise(target, 'claim');
  let held: (() => Promise<void>) | null = null;
  try {
    const entries = await listEntries(target);
    if (await takeoverUnderWay(target, entries)) return 'wait';
    try {
      held = await lockfile.lock(target, {
        stale: NEVER_STALE,
        update: UPDATE_MS,
        realpath: false,
        retries: 0,
        onCompromised: () => {
          /* the folder vanished under us; the work continues */
        },
      });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return 'locked';
      throw err;
    }
    // Holding the folder, no dead process's claim or marker speaks for anything any more.
    await removeEntries(target, entries.filter((e) => judge(e) === 'dead'));
    const release = held;
    return async () => {
      // The folder goes first: while it exists, its claim must say who holds it.
      try {
        await release();
      } finally {
        await fs.rm(claim, { force: true }).catch(() => undefined);
      }
    };
  } finally {
    if (!held) await fs.rm(claim, { force: true }).catch(() => undefined);
  }
}

/** If the lock folder's holder is known dead, removes the folder; true if the caller should try again at once. */
async function takeOverDeadHolder(target: string): Promise<boolean> {
  // A first look without a marker: most waits are for a live holder.
  const first = await lockState(target);
  if (first.gone) return true;
  if (!first.removable) return false;
  const marker = await raise(target, 'takeover');
  try {
    const again = await lockState(target);
    if (again.gone) return true;
    if (!again.removable) return false;
    await fs.rmdir(lockDir(target)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await removeEntries(target, again.dead);
    return true;
  } catch {
    return false;
  } finally {
    await fs.rm(marker, { force: true }).catch(() => undefined);
  }
}

/** What the lock folder and the claims say: gone, or whether it may be removed (and the dead claims). */
async function lockState(target: string): Promise<{ gone: boolean; removable: boolean; dead: Entry[] }> {
  const entries = await listEntries(target);
  const st = await fs.stat(lockDir(target)).catch(() => null);
  if (!st) return { gone: true, removable: false, dead: [] };
  const claims = entries.filter((e) => e.kind === 'claim');
  const verdicts = claims.map(judge);
  const dead = claims.filter((_, i) => verdicts[i] === 'dead');
  const stale = Date.now() - st.mtimeMs > STALE_MS;
  if (verdicts.includes('live')) return { gone: false, removable: false, dead };
  if (verdicts.includes('unknown') && !stale) return { gone: false, removable: false, dead };
  // Claims all dead: the folder is a dead writer's. No claim at all: not ours to judge but by its age.
  return { gone: false, removable: dead.length > 0 || stale, dead };
}

/** True if a waiter (alive, or not to be judged and recent) is removing a dead holder's folder: do not mkdir now. */
async function takeoverUnderWay(target: string, entries: Entry[]): Promise<boolean> {
  for (const e of entries) {
    if (e.kind !== 'takeover') continue;
    const verdict = judge(e);
    if (verdict === 'live') return true;
    if (verdict === 'unknown') {
      const st = await fs.stat(path.join(path.dirname(target), e.name)).catch(() => null);
      if (st && Date.now() - st.mtimeMs < MARKER_STALE_MS) return true;
    }
  }
  return false;
}

const lockDir = (target: string): string => `${target}.lock`;

let ownStart: string | null | undefined;
let sequence = 0;
const HOST = encodeURIComponent(os.hostname());

/** Creates this process's claim or takeover marker for `target` (a new name each time) and returns its path. */
async function raise(target: string, kind: Kind): Promise<string> {
  if (ownStart === undefined) ownStart = processStart(process.pid);
  const file = `${target}.${kind}-${process.pid}-${ownStart ?? 'x'}-${++sequence}-${HOST}`;
  await fs.writeFile(file, '', { flag: 'wx', mode: 0o600 });
  return file;
}

const ENTRY = /^(claim|takeover)-(\d+)-(\d+|x)-\d+-(.+)$/;

/** The claims and markers beside `target`, read from their names. */
async function listEntries(target: string): Promise<Entry[]> {
  const prefix = `${path.basename(target)}.`;
  const names = await fs.readdir(path.dirname(target));
  const out: Entry[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = ENTRY.exec(name.slice(prefix.length));
    if (!m) continue;
    let host: string;
    try {
      host = decodeURIComponent(m[4] as string);
    } catch {
      continue;
    }
    out.push({ kind: m[1] as Kind, pid: Number(m[2]), start: m[3] === 'x' ? null : (m[3] as string), host, name });
  }
  return out;
}

async function removeEntries(target: string, entries: Entry[]): Promise<void> {
  await Promise.all(entries.map((e) => fs.rm(path.join(path.dirname(target), e.name), { force: true }).catch(() => undefined)));
}

/** live: this host, running, and its start time matches; dead: known gone; unknown: cannot be told here. */
function judge(e: Holder): 'live' | 'dead' | 'unknown' {
  if (e.host !== os.hostname()) return 'unknown';
  if (holderIsDead(e)) return 'dead';
  return e.start === null ? 'unknown' : 'live';
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
export function holderIsDead(holder: Holder): boolean {
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
