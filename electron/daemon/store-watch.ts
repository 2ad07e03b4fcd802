// The background service lives for its store: when the store folder is
// deleted (as the README says to delete one's data), moved away or replaced by
// another folder, the service must leave at once — not serve on for its idle
// half hour, and never write into (or re-create) a store that is no longer
// its own. A stat of the folder each second notices; a watcher on the folder
// would miss its own deletion on some platforms and hold a handle open.
import { statSync, type BigIntStats } from 'node:fs';

/** How often the store folder is looked at (a stat: a few microseconds). */
export const STORE_WATCH_MS = 1000;

export interface StoreWatch {
  dispose(): void;
}

function identity(dir: string): string | null {
  let st: BigIntStats | undefined;
  try {
    st = statSync(dir, { bigint: true, throwIfNoEntry: false });
  } catch {
    return null;
  }
  return st?.isDirectory() ? `${st.dev}:${st.ino}` : null;
}

/** Calls `onGone` once when `dir` is gone or no longer the folder it is now. */
export function watchStore(dir: string, onGone: () => void, everyMs = STORE_WATCH_MS): StoreWatch {
  const first = identity(dir);
  const timer = setInterval(() => {
    const now = identity(dir);
    if (now === first && first !== null) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  // The service's own handles decide whether the process lives; this only ends it early.
  timer.unref();
  return { dispose: () => clearInterval(timer) };
}
