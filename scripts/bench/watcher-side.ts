// The watcher's side of the benchmark: the app's own WorkspaceWatcher on the
// engine's workspace, as the app runs it (auto-checkpoints of just the paths
// it saw change). What is timed is the snapshot the watcher asks for, not the
// quiet period it waits for before asking.
import type { SnapshotOptions, SnapshotResult } from '../../shared/model.js';
import type { Workspace } from '../../electron/engine/api.js';
import { WorkspaceWatcher } from '../../electron/watcher/workspace-watcher.js';

const QUIET_MS = 200;

export interface AutoCheckpoint {
  ms: number;
  /** How many paths the watcher handed to the snapshot (null: a full scan). */
  paths: number | null;
}

/** Starts a watcher, runs `edit`, and waits for the auto-checkpoint it makes of it. */
export async function autoCheckpoint(workspace: Workspace, root: string, edit: () => void, timeoutMs = 120_000): Promise<AutoCheckpoint> {
  let done: ((value: AutoCheckpoint) => void) | null = null;
  let failed: ((err: unknown) => void) | null = null;
  const result = new Promise<AutoCheckpoint>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  let last: AutoCheckpoint | null = null;
  const watcher = new WorkspaceWatcher({
    root,
    timing: () => ({ quietMs: QUIET_MS, maxWaitMs: 10_000 }),
    snapshot: async (options: SnapshotOptions): Promise<SnapshotResult> => {
      const start = performance.now();
      const r = await workspace.snapshot(options);
      last = { ms: performance.now() - start, paths: options.paths?.length ?? null };
      return r;
    },
    onCheckpoint: () => {
      if (last) done?.(last);
    },
    onError: (err) => failed?.(err),
    catchUp: false,
  });
  result.catch(() => undefined); // awaited below; a failure while the watcher starts is not unhandled
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Subscribing crawls the whole tree (seconds at 100,000 files): the clock starts after it.
    await watcher.start();
    timer = setTimeout(() => failed?.(new Error(`the watcher took no checkpoint within ${timeoutMs / 1000} s of the edits`)), timeoutMs);
    edit();
    return await result;
  } finally {
    clearTimeout(timer);
    await watcher.dispose();
  }
}
