// Watches one workspace with a native recursive watcher and turns settled
// changes into 'auto' checkpoints of just the changed paths. It survives the
// folder being deleted and recreated (reports 'missing', polls, resubscribes),
// reports snapshot errors without stopping, and can be paused.
import { stat } from 'node:fs/promises';
import parcelWatcher from '@parcel/watcher';
import type { Checkpoint, SnapshotOptions, SnapshotResult } from '../../shared/model.js';
import type { WorkspaceState } from '../../shared/model.js';
import { ChangeDebouncer, realClock, type Batch, type Clock, type DebounceTiming } from './debounce.js';
import { DEFAULT_WATCH_RULES, isIgnoredRelative, toRelative, watcherIgnoreList, type WatchIgnoreRules } from './ignore.js';

export interface WorkspaceWatcherOptions {
  root: string;
  snapshot: (options: SnapshotOptions) => Promise<SnapshotResult>;
  timing: () => DebounceTiming;
  onCheckpoint?: (checkpoint: Checkpoint) => void;
  onState?: (state: WorkspaceState, message?: string) => void;
  onError?: (error: unknown) => void;
  paused?: boolean;
  /** Absolute paths never watched (e.g. the store, when it lives inside the workspace). */
  ignorePaths?: string[];
  /** What is never watched; default: the store's default excludes. */
  ignoreRules?: WatchIgnoreRules;
  clock?: Clock;
  /** How often the folder's existence is checked (and, when missing, polled for). */
  livenessMs?: number;
  /** Above this many changed paths a checkpoint scans the whole workspace. */
  maxPaths?: number;
  /** Scan everything once at start: changes made while nothing was watching are caught up. */
  catchUp?: boolean;
}

type Identity = { dev: number; ino: number } | null;

export class WorkspaceWatcher {
  private readonly debouncer: ChangeDebouncer;
  private subscription: parcelWatcher.AsyncSubscription | null = null;
  private identity: Identity = null;
  private liveness: ReturnType<typeof setInterval> | null = null;
  private checking: Promise<void> | null = null;
  private paused: boolean;
  private changedWhilePaused = false;
  private disposed = false;
  private currentState: WorkspaceState = 'idle';
  private started = false;

  constructor(private readonly options: WorkspaceWatcherOptions) {
    this.paused = options.paused ?? false;
    this.debouncer = new ChangeDebouncer({
      timing: options.timing,
      flush: (batch) => this.checkpoint(batch),
      clock: options.clock ?? realClock,
      ...(options.maxPaths !== undefined ? { maxPaths: options.maxPaths } : {}),
    });
  }

  private get rules(): WatchIgnoreRules {
    return this.options.ignoreRules ?? DEFAULT_WATCH_RULES;
  }

  get state(): WorkspaceState {
    return this.currentState;
  }

  async start(): Promise<void> {
    await this.checkLiveness();
    if (this.disposed) return; // disposed while starting: start nothing
    const every = this.options.livenessMs ?? 2000;
    this.liveness = setInterval(() => void this.checkLiveness(), every);
    this.liveness.unref();
  }

  /**
   * Workspace-relative paths changed since the last finished checkpoint, as far as this watcher can
   * vouch for them (agent hooks delegated to the app limit their checkpoint to these). null when it
   * cannot: not watching (paused, missing, not started) or a full scan is due.
   */
  changedPaths(): string[] | null {
    if (this.disposed || !this.started || this.subscription === null || this.currentState !== 'watching' || this.changedWhilePaused) return null;
    return this.debouncer.unsettled();
  }

  /**
   * Checks the folder now, as the liveness timer does: a checkpoint limited to changedPaths() must
   * never trust a watcher of a folder that was deleted or replaced since its last tick.
   */
  verify(): Promise<void> {
    return this.checkLiveness();
  }

  setPaused(paused: boolean): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (paused) {
      // Pending changes are not lost: they are caught up with one full scan on resume.
      if (this.debouncer.pending) this.changedWhilePaused = true;
      this.debouncer.drop();
    } else if (this.changedWhilePaused) {
      this.changedWhilePaused = false;
      this.debouncer.add(null);
    }
    if (this.currentState !== 'missing') this.setState(paused ? 'paused' : 'watching');
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.liveness) clearInterval(this.liveness);
    this.liveness = null;
    this.debouncer.dispose();
    if (this.checking) await this.checking.catch(() => undefined);
    await this.unsubscribe();
    // Let a running snapshot finish so no git process outlives the service.
    await this.debouncer.idle();
  }

  /** Stat the root: subscribe when it (re)appears, unsubscribe when it goes, resubscribe when replaced. */
  private checkLiveness(): Promise<void> {
    if (this.checking) return this.checking;
    this.checking = this.doCheckLiveness().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async doCheckLiveness(): Promise<void> {
    if (this.disposed) return;
    const now = await identityOf(this.options.root);
    const before = this.identity;
    if (now === null) {
      if (before !== null || this.currentState !== 'missing') {
        this.identity = null;
        this.debouncer.drop();
        await this.unsubscribe();
        this.setState('missing', `${this.options.root} is gone; waiting for it to come back`);
      }
      return;
    }
    if (before !== null && before.dev === now.dev && before.ino === now.ino && this.subscription) return;
    // First start, back after missing, or replaced by another folder of the same name.
    await this.unsubscribe();
    try {
      await this.subscribe();
    } catch (err) {
      this.report(err);
      return; // retried at the next liveness tick
    }
    const firstStart = !this.started;
    const cameBack = before !== null || this.currentState === 'missing' || (firstStart && this.options.catchUp === true);
    this.started = true;
    this.identity = now;
    this.setState(this.paused ? 'paused' : 'watching');
    if (cameBack) {
      // Whatever happened while we were not watching: one full scan.
      if (this.paused) this.changedWhilePaused = true;
      else this.debouncer.add(null);
    }
  }

  private async subscribe(): Promise<void> {
    const { root } = this.options;
    const ignore = [...watcherIgnoreList(this.rules), ...(this.options.ignorePaths ?? [])];
    const subscription = await parcelWatcher.subscribe(root, (err, events) => this.onEvents(err, events), { ignore });
    if (this.disposed) {
      await subscription.unsubscribe().catch(() => undefined);
      return;
    }
    this.subscription = subscription;
  }

  private async unsubscribe(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = null;
    if (subscription) await subscription.unsubscribe().catch(() => undefined);
  }

  private onEvents(err: Error | null, events: parcelWatcher.Event[]): void {
    if (this.disposed) return;
    if (err) {
      // The native side failing usually means the folder went away: check now.
      void this.checkLiveness();
      return;
    }
    const paths: string[] = [];
    let rootTouched = false;
    for (const event of events) {
      const rel = toRelative(this.options.root, event.path);
      if (rel === null) {
        rootTouched = true;
        continue;
      }
      if (isIgnoredRelative(rel, this.rules)) continue;
      paths.push(rel);
    }
    if (rootTouched) void this.checkLiveness();
    if (paths.length === 0) return;
    if (this.paused) {
      this.changedWhilePaused = true;
      return;
    }
    this.debouncer.add(paths);
  }

  private async checkpoint(batch: Batch): Promise<void> {
    if (this.disposed || this.paused || this.currentState === 'missing') return;
    // The engine words the reason: it knows how many files really changed (reason.ts).
    const auto_reason = { paths: batch.paths };
    let result: SnapshotResult;
    try {
      result = await this.options.snapshot({
        trigger: 'auto',
        auto_reason,
        ...(batch.paths ? { paths: batch.paths } : {}),
      });
    } catch (err) {
      if (batch.paths === null || (await identityOf(this.options.root)) === null) {
        this.report(err);
        return;
      }
      // A path the engine would not take (gone again, odd name): fall back to a full scan.
      try {
        result = await this.options.snapshot({ trigger: 'auto', auto_reason });
      } catch (again) {
        this.report(again);
        return;
      }
    }
    if (result.id !== null) this.options.onCheckpoint?.(result.checkpoint);
  }

  private setState(state: WorkspaceState, message?: string): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.options.onState?.(state, message);
  }

  private report(err: unknown): void {
    try {
      this.options.onError?.(err);
    } catch {
      // reporting must never take the watcher down
    }
  }
}

async function identityOf(dir: string): Promise<Identity> {
  try {
    const s = await stat(dir);
    return s.isDirectory() ? { dev: s.dev, ino: s.ino } : null;
  } catch {
    return null;
  }
}
