// The store looks after itself while the app (desktop, `serve`) or the daemon
// runs: when nothing has been recorded for a while, it compresses the store
// if due (engine/upkeep.ts: git at the lowest priority, safe to kill at any
// instant) and checks each watched workspace's checkpoints at most once a day
// (engine/check.ts: never holds the writer lock, pauses while a snapshot
// does). Neither delays a snapshot; both stop when the service is disposed.
import type { PruneResult } from '../../shared/model.js';
import type { Store, Workspace } from '../engine/api.js';
import { checkIfDue, type CheckResult } from '../engine/check.js';
import { upkeepIfDue, type UpkeepLimits } from '../engine/upkeep.js';

export interface MaintenanceOptions {
  store: () => Store;
  /** The workspaces to check (the ones the service watches). */
  workspaces: () => Promise<Workspace[]>;
  /** The settings' `upkeep` switch, read at each look (a change applies without a restart). */
  enabled: () => boolean;
  /** When the service last recorded anything (a snapshot, a hook's call). */
  lastActivityMs: () => number;
  /**
   * Quiet needed before work starts (default 30 s), and how often to look (default 30 s: a look
   * costs a folder listing and 1 KB of each pack index, and the store should be small soon after
   * a burst of snapshots ends).
   */
  idleMs?: number;
  everyMs?: number;
  /** The first look, after start (default 1 min): a store left untidy by a long session is seen soon. */
  firstMs?: number;
  /** When upkeep is due (default: git's own thresholds, engine/upkeep.ts). */
  upkeepLimits?: Partial<UpkeepLimits>;
  /**
   * Checkpoints retention must keep in this workspace besides pinned ones and the newest: those
   * named by an effect or a pending approval, and the one a person has selected in the app.
   */
  protectedCheckpoints?: (workspace: Workspace) => Promise<string[]>;
  /** What the last retention pass dropped (the app shows it in Settings). */
  onPruned?: (workspace: Workspace, result: PruneResult) => void;
  onChecked?: (workspace: Workspace, result: CheckResult) => void;
  onError?: (err: unknown) => void;
}

export class Maintenance {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(private readonly options: MaintenanceOptions) {}

  start(): void {
    this.schedule(this.options.firstMs ?? 60_000);
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
        this.schedule(this.options.everyMs ?? 30_000);
      });
    }, ms);
    // Never what keeps a process alive: the service's own handles decide that.
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.options.enabled()) return;
    const quiet = Date.now() - this.options.lastActivityMs();
    if (quiet < (this.options.idleMs ?? 30_000)) return;
    const signal = this.abort.signal;
    try {
      await upkeepIfDue(this.options.store().home, { ...this.options.upkeepLimits, signal });
    } catch (err) {
      if (!signal.aborted) this.options.onError?.(err);
    }
    for (const ws of await this.options.workspaces().catch(() => [])) {
      if (signal.aborted || Date.now() - this.options.lastActivityMs() < (this.options.idleMs ?? 30_000)) return;
      try {
        // Retention as Settings says (count and age; the size cap needs `prune --compact`): a short
        // hold of this workspace's lock to delete refs; the objects go at the next compaction.
        // Only with a caller that says what to protect (not wired in app-service yet: the selected checkpoint is not reported).
        if (this.options.protectedCheckpoints) {
          const protect = await this.options.protectedCheckpoints(ws);
          const pruned = await ws.prune({ protect, compact: 'never' });
          if (pruned.removed.length > 0) this.options.onPruned?.(ws, pruned);
        }
      } catch (err) {
        if (!signal.aborted) this.options.onError?.(err);
      }
      try {
        const outcome = await checkIfDue(this.options.store(), ws, { signal });
        if (outcome.ran) this.options.onChecked?.(ws, outcome.result);
      } catch (err) {
        if (!signal.aborted) this.options.onError?.(err);
      }
    }
  }
}
