// Shared by the app, router and watcher tests: temporary store homes and
// workspaces (cleaned up), and polling with a generous deadline — the tests
// assert what happens, never how fast.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TempDirs {
  home: string;
  workspace: string;
  cleanup(): Promise<void>;
}

export async function tempDirs(prefix = 'chronoscope-app-'): Promise<TempDirs> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  const home = path.join(base, 'home');
  const workspace = path.join(base, 'ws');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(home, { recursive: true });
  await mkdir(workspace, { recursive: true });
  return { home, workspace, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** Polls `probe` until it returns a value other than undefined/false; throws with `what` after the deadline. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, deadlineMs = 30_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Whether a process with this pid is alive (signal 0). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
