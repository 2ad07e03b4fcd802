// Debounce of file changes into checkpoints, kept pure (an injected clock, no
// file system) so its timing rules are unit-tested deterministically:
// - flush once changes settle for `quietMs`;
// - but never wait more than `maxWaitMs` after the first change of a batch;
// - one timer per batch, not one per event: an event only moves a timestamp,
//   and the timer, when it fires, re-arms itself for what is left;
// - while a flush runs, new changes form the next batch, flushed after it.

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // A pending auto-checkpoint alone must not keep a process alive (tests, CLI).
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Batch {
  /** Workspace-relative changed paths, sorted and deduped; null: too many, scan everything. */
  paths: string[] | null;
  /** How many paths changed (approximate past the limit; 0 when a full scan was asked for without paths). */
  count: number;
}

export interface DebounceTiming {
  quietMs: number;
  maxWaitMs: number;
}

export interface ChangeDebouncerOptions {
  timing: () => DebounceTiming;
  flush: (batch: Batch) => Promise<void>;
  clock?: Clock;
  /** Above this many distinct paths the batch becomes a full scan. */
  maxPaths?: number;
}

export class ChangeDebouncer {
  private readonly clock: Clock;
  private readonly maxPaths: number;
  private paths = new Set<string>();
  private overflow = false;
  private overflowCount = 0;
  private firstAt: number | null = null;
  private lastAt = 0;
  private timer: unknown = null;
  private flushing: Promise<void> | null = null;
  /** The batch the running flush is checkpointing (its paths are not in a checkpoint yet). */
  private flushingBatch: Batch | null = null;
  private disposed = false;

  constructor(private readonly options: ChangeDebouncerOptions) {
    this.clock = options.clock ?? realClock;
    this.maxPaths = options.maxPaths ?? 500;
  }

  /** Changes are pending (not yet flushed). */
  get pending(): boolean {
    return this.firstAt !== null;
  }

  get busy(): boolean {
    return this.flushing !== null;
  }

  /**
   * Paths changed and not yet in a finished checkpoint: the pending ones and the running flush's.
   * null: a full scan is due (too many paths, or "scan everything" was asked for).
   */
  unsettled(): string[] | null {
    if (this.overflow || (this.flushingBatch !== null && this.flushingBatch.paths === null)) return null;
    return [...new Set([...this.paths, ...(this.flushingBatch?.paths ?? [])])];
  }

  /** Record changed paths; `null` means "something changed, scan everything". */
  add(paths: readonly string[] | null): void {
    if (this.disposed) return;
    const now = this.clock.now();
    if (paths === null) {
      this.overflow = true;
    } else if (!this.overflow) {
      for (const p of paths) this.paths.add(p);
      if (this.paths.size > this.maxPaths) {
        this.overflow = true;
        this.overflowCount = this.paths.size;
        this.paths.clear();
      }
    } else {
      this.overflowCount += paths.length;
    }
    this.lastAt = now;
    if (this.firstAt === null) this.firstAt = now;
    if (this.timer === null) this.arm();
  }

  /** Flush now whatever is pending (e.g. on resume or before quitting). */
  async flushNow(): Promise<void> {
    this.cancelTimer();
    await this.fire(true);
  }

  /** Forget pending changes without flushing. */
  drop(): void {
    this.cancelTimer();
    this.reset();
  }

  /** Resolves when no flush is running (for orderly shutdown). */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  dispose(): void {
    this.disposed = true;
    this.drop();
  }

  private deadline(): number {
    const { quietMs, maxWaitMs } = this.options.timing();
    const first = this.firstAt ?? this.lastAt;
    return Math.min(this.lastAt + quietMs, first + maxWaitMs);
  }

  private arm(): void {
    const wait = Math.max(0, this.deadline() - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.fire(false);
    }, wait);
  }

  private cancelTimer(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private async fire(force: boolean): Promise<void> {
    if (this.disposed || this.firstAt === null) return;
    if (!force && this.clock.now() < this.deadline()) {
      this.arm(); // more changes came in since the timer was set: wait the rest
      return;
    }
    // A flush is running: this batch waits for it and is re-armed when it ends,
    // so at most one more flush follows the running one.
    if (this.flushing) return;
    const batch: Batch = this.overflow
      ? { paths: null, count: this.overflowCount }
      : { paths: [...this.paths].sort(), count: this.paths.size };
    this.reset();
    const run = (async () => {
      try {
        await this.options.flush(batch);
      } catch {
        // The flush callback reports its own errors; the debouncer keeps going.
      }
    })();
    this.flushing = run;
    this.flushingBatch = batch;
    await run;
    this.flushing = null;
    this.flushingBatch = null;
    if (!this.disposed && this.firstAt !== null && this.timer === null) this.arm();
  }

  private reset(): void {
    this.paths = new Set();
    this.overflow = false;
    this.overflowCount = 0;
    this.firstAt = null;
  }
}
