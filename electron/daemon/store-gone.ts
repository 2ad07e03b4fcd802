// The daemon's watch on its own store: a store folder deleted (`rm -rf`, as
// the README tells people to delete their data), moved or replaced by another
// is no longer the one this process serves. It then leaves at once, as if
// killed: no normal exit, because a normal exit releases by path (the lock
// library removes `agent.lock` on exit, closing the server unlinks
// `agent.sock`) and in a replaced store those paths may belong to a newer
// service; and no write of any kind, so nothing re-creates the folder. The
// engine is SIGKILL-safe by design (a checkpoint's ref moves last), and a hook
// whose request breaks off works alone within its budget.
import { statSync, watch, type FSWatcher } from 'node:fs';

/** How often the folder's identity is looked at besides the watcher's events (a watcher can miss a move). */
export const STORE_POLL_MS = 1000;

interface Identity {
  dev: number;
  ino: number;
}

function identity(path: string): Identity | null {
  try {
    const st = statSync(path);
    return { dev: st.dev, ino: st.ino };
  } catch {
    return null;
  }
}

const same = (a: Identity | null, b: Identity | null): boolean => a !== null && b !== null && a.dev === b.dev && a.ino === b.ino;

export interface StoreWatch {
  dispose(): void;
}

/**
 * Calls `onGone` once when `home` (or the socket file this process listens on) is no longer what it
 * was when the watch began. `onGone` must not write or release anything: see the note above.
 */
export function watchStoreIdentity(home: string, socket: string, onGone: () => void): StoreWatch {
  const homeAtStart = identity(home);
  const socketAtStart = identity(socket);
  let done = false;
  const look = (): void => {
    if (done) return;
    const homeNow = identity(home);
    // The socket is looked at only on platforms where it is a file (a Windows pipe has no inode).
    const socketGone = socketAtStart !== null && !same(socketAtStart, identity(socket));
    if (same(homeAtStart, homeNow) && !socketGone) return;
    done = true;
    stop();
    onGone();
  };
  const timer = setInterval(look, STORE_POLL_MS);
  timer.unref();
  // The watcher reacts within milliseconds to the folder's own deletion or move and to its direct
  // children changing (the socket, the lock); the poll covers what it misses.
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(home, { persistent: false }, look);
    watcher.on('error', look);
  } catch {
    watcher = null;
  }
  const stop = (): void => {
    clearInterval(timer);
    watcher?.close();
  };
  look();
  return {
    dispose: () => {
      done = true;
      stop();
    },
  };
}

/** Leaves now without running exit handlers or closing handles: nothing released by path, nothing written. */
export function leaveAsIfKilled(): never {
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is delivered before kill() returns to a process signalling itself; this line is never reached.
  throw new Error('unreachable');
}
