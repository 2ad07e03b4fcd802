// One writer per workspace across processes (the app, CLI and hook
// invocations, a second app instance), using proper-lockfile: an atomic mkdir
// lock whose mtime the holder refreshes, so a holder that died is detected as
// stale after STALE_MS and the lock taken over.
import fs from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import { ChronoscopeError } from '../../shared/errors.js';

const STALE_MS = 10_000;
const UPDATE_MS = 2_000;

export interface LockOptions {
  /** How long to wait for another writer before giving up (ms). */
  waitMs?: number;
  what?: string;
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
  await fs.writeFile(target, '', { flag: 'a' });
  const started = Date.now();
  let delay = 25;
  for (;;) {
    try {
      return await lockfile.lock(target, {
        stale: STALE_MS,
        update: UPDATE_MS,
        realpath: false,
        retries: 0,
        onCompromised: () => {
          /* our mtime updates failed for longer than STALE_MS; the work continues and the next writer takes over */
        },
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ELOCKED') throw new ChronoscopeError('internal', `cannot lock ${options.what ?? target}: ${(err as Error).message}`);
      if (Date.now() - started > waitMs) {
        throw new ChronoscopeError('locked', `${options.what ?? 'the workspace'} is busy: another Chronoscope writer held its lock for over ${Math.round(waitMs / 1000)} s`);
      }
      await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
      delay = Math.min(delay * 2, 500);
    }
  }
}
