// Live checkpoints taken outside this process (the CLI, an agent's hook,
// another app instance). A cheap signal tells when to look — an fs.watch on the
// workspace's ref folder in the store plus a 1 s poll of that folder's listing —
// and only then does it ask the engine for the newest checkpoints. A slow
// unconditional poll is the safety net should the signal miss (packed refs, a
// layout change). New ids go to `onNew`, oldest first.
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { Checkpoint } from '../../shared/model.js';

/**
 * A watch event is looked at this long after the first of its burst: one ref
 * written is several events (temporary file, link, removal), and reacting at
 * once put a listing's file reads in the way of the snapshot still writing
 * its head file in this process (a delegated hook's checkpoint: +10-20 ms).
 */
const SIGNAL_DELAY_MS = 100;

export interface CheckpointFeedOptions {
  /** Folders whose listing changes when a checkpoint is added (loose refs). */
  signalDirs: string[];
  /** Files whose mtime changes when refs are repacked. */
  signalFiles: string[];
  list: (limit: number) => Promise<Checkpoint[]>;
  onNew: (checkpoint: Checkpoint) => void;
  onError?: (err: unknown) => void;
  pollMs?: number;
  safetyPollMs?: number;
  limit?: number;
}

export class CheckpointFeed {
  private known = new Set<string>();
  private fingerprint = '';
  private timers: ReturnType<typeof setInterval>[] = [];
  private watchers = new Map<string, FSWatcher>();
  private running: Promise<void> | null = null;
  private signalTimer: ReturnType<typeof setTimeout> | null = null;
  private again = false;
  private disposed = false;

  constructor(private readonly options: CheckpointFeedOptions) {}

  async start(): Promise<void> {
    // What exists now is history, not news.
    for (const cp of await this.safeList()) this.known.add(cp.id);
    this.fingerprint = await this.computeFingerprint();
    if (this.disposed) return; // disposed while starting: start nothing
    this.watchSignalDirs();
    const poll = setInterval(() => void this.pollSignal(), this.options.pollMs ?? 1000);
    const safety = setInterval(() => void this.refresh(), this.options.safetyPollMs ?? 15_000);
    poll.unref();
    safety.unref();
    this.timers.push(poll, safety);
  }

  /** Mark ids this process announced itself, so they are not announced twice. */
  markKnown(id: string): void {
    this.known.add(id);
  }

  /** Look for new checkpoints now (coalesces concurrent calls into one more run). */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.scan();
      } while (this.again && !this.disposed);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const t of this.timers) clearInterval(t);
    if (this.signalTimer) clearTimeout(this.signalTimer);
    this.signalTimer = null;
    for (const w of this.watchers.values()) w.close();
    this.timers = [];
    this.watchers.clear();
    if (this.running) await this.running.catch(() => undefined);
  }

  private async scan(): Promise<void> {
    const list = await this.safeList();
    const fresh = list.filter((cp) => !this.known.has(cp.id));
    for (const cp of fresh.reverse()) {
      this.known.add(cp.id);
      if (!this.disposed) this.options.onNew(cp);
    }
  }

  private async safeList(): Promise<Checkpoint[]> {
    try {
      return await this.options.list(this.options.limit ?? 20);
    } catch (err) {
      this.options.onError?.(err);
      return [];
    }
  }

  private async pollSignal(): Promise<void> {
    if (this.disposed) return;
    const next = await this.computeFingerprint();
    if (this.watchers.size < this.options.signalDirs.length) this.watchSignalDirs();
    if (next === this.fingerprint) return;
    this.fingerprint = next;
    await this.refresh();
  }

  private async computeFingerprint(): Promise<string> {
    const parts: string[] = [];
    for (const dir of this.options.signalDirs) {
      try {
        parts.push((await readdir(dir)).filter((n) => !n.endsWith('.lock')).sort().join(','));
      } catch {
        parts.push('-');
      }
    }
    for (const file of this.options.signalFiles) {
      try {
        const s = await stat(file);
        parts.push(`${s.mtimeMs}:${s.size}`);
      } catch {
        parts.push('-');
      }
    }
    return parts.join('|');
  }

  private signalSoon(): void {
    if (this.signalTimer || this.disposed) return;
    this.signalTimer = setTimeout(() => {
      this.signalTimer = null;
      void this.pollSignal();
    }, SIGNAL_DELAY_MS);
    this.signalTimer.unref();
  }

  /** Best effort: the folder may not exist before the first checkpoint; the poll retries. */
  private watchSignalDirs(): void {
    for (const dir of this.options.signalDirs) {
      if (this.watchers.has(dir) || this.disposed) continue;
      try {
        const w = watch(dir, { persistent: false }, () => this.signalSoon());
        // The folder went away (pruned, store moved): drop the watch, the poll re-creates it.
        w.on('error', () => {
          w.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, w);
      } catch {
        // not there yet
      }
    }
  }
}
