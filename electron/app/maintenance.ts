// The store looks after itself while the app (desktop, `serve`) or the daemon
// runs: when nothing has been recorded for a while, it compresses the store
// if due (engine/upkeep.ts: git at the lowest priority, safe to kill at any
// instant) and checks each watched workspace's checkpoints at most once a day
// (engine/check.ts: never holds the writer lock, pauses while a snapshot
// does). Neither delays a snapshot; both stop when the service is disposed.
import type { Store, Workspace } from '../engine/api.js';
import { checkIfDue, type CheckResult } from '../engine/check.js';
import { upkeepIfDue, type UpkeepLimits } from '../engine/upkeep.js';
import type { PruneResult } from '../../shared/model.js';

export interface MaintenanceOptions {
  store: () => Store;
  /** The workspaces to check (the ones the service watches). */
  workspaces: () => Promise<Workspace[]>;
  /** The settings' `upkeep` switch, read at each look (a change applies without a restart). */
  enabled: () => boolean;
  /** When the service last recorded anything (a snapshot, a hook's call). */
  lastActivityMs: () => number;
  /** Quiet needed before work starts (default 15 s), and how often to look (default 10 s: a look costs a folder listing). */
  idleMs?: number;
  everyMs?: number;
  /** The first look, after start (default 10 s): a store left untidy by a long session is seen soon. */
  firstMs?: number;
  /** When upkeep is due (default: git's own thresholds, engine/upkeep.ts). */
  upkeepLimits?: Partial<UpkeepLimits>;
  onChecked?: (workspace: Workspace, result: CheckResult) => void;
  /**
   * Retention applied by itself (Settings' limits), at most every
   * RETENTION_EVERY_MS per workspace when quiet. `keep`: the checkpoints it
   * must not drop this time — one the person is looking at, one an effect or
   * a pending approval names (pinned ones and the newest never go anyway).
   */
  retention?: { keep: (workspace: Workspace) => Promise<ReadonlySet<string>>; onPruned?: (workspace: Workspace, result: PruneResult) => void };
  onError?: (err: unknown) => void;
}

/**
 * A store is compressed soon after work pauses: 15 s of quiet, looked at
 * every 10 s, so within ~30 s of the last checkpoint the store is at most
 * ~1.1× its compressed size (upkeep.ts's byte rule). Upkeep never holds a
 * workspace lock and runs at the lowest priority, so a checkpoint taken
 * meanwhile does not wait for it.
 */
const IDLE_MS = 15_000;
const EVERY_MS = 10_000;
const FIRST_MS = 10_000;
/** Retention needs a listing of every checkpoint: once in a while is enough to keep Settings' promise. */
const RETENTION_EVERY_MS = 30 * 60_000;

export class Maintenance {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  /** When retention last ran, per workspace root. */
  private readonly pruned = new Map<string, number>();

  constructor(private readonly options: MaintenanceOptions) {}

  start(): void {
    this.schedule(this.options.firstMs ?? FIRST_MS);
  }

  async dispose(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.running?.catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
        this.schedule(this.options.everyMs ?? EVERY_MS);
      });
    }, ms);
    // Never what keeps a process alive: the service's own handles decide that.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.options.enabled()) return;
    if (!this.quiet()) return;
    const signal = this.abort.signal;
    await this.applyRetention(signal);
    try {
      // quiet: tick runs only after the idle time, so the quiet rule (a full run once rolls and new bytes pile up) applies.
      await upkeepIfDue(this.options.store().home, { ...this.options.upkeepLimits, signal, quiet: true });
    } catch (err) {
      if (!signal.aborted) this.options.onError?.(err);
    }
    for (const ws of await this.options.workspaces().catch(() => [])) {
      if (signal.aborted || !this.quiet()) return;
      try {
        const outcome = await checkIfDue(this.options.store(), ws, { signal });
        if (outcome.ran) this.options.onChecked?.(ws, outcome.result);
      } catch (err) {
        if (!signal.aborted) this.options.onError?.(err);
      }
    }
  }

  /** Whether nothing was recorded for the idle time: the condition every step of a tick starts under. */
  private quiet(): boolean {
    return Date.now() - this.options.lastActivityMs() >= (this.options.idleMs ?? IDLE_MS);
  }

  private async applyRetention(signal: AbortSignal): Promise<void> {
    const retention = this.options.retention;
    if (!retention) return;
    for (const ws of await this.options.workspaces().catch(() => [])) {
      if (signal.aborted || !this.quiet()) return;
      const last = this.pruned.get(ws.root);
      if (last !== undefined && Date.now() - last < RETENTION_EVERY_MS) continue;
      this.pruned.set(ws.root, Date.now());
      try {
        const result = await ws.prune({ keep: await retention.keep(ws), automatic: true });
        if (result.removed.length > 0) retention.onPruned?.(ws, result);
      } catch (err) {
        if (!signal.aborted) this.options.onError?.(err);
      }
    }
  }
}
