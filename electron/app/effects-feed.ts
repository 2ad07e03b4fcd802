// Irreversible effects of one workspace, live: pushes found in the workspace's
// reflog (by any agent or by hand) and ledger lines appended by other
// processes (the hook). Both are noticed by a cheap signal (file sizes and
// mtimes) polled every second; only a changed signal reads anything.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EffectRecord } from '../../shared/model.js';

export interface LedgerLike {
  list(options?: { sinceMs?: number }): Promise<EffectRecord[]>;
}

/** What the app needs from electron/effects, behind one seam (see effects-backend.ts). */
export interface EffectsBackend {
  openLedger(storeHome: string, workspaceId: string): LedgerLike;
  /** The ledger's file, for the cheap change signal; null: poll list() every tick. */
  ledgerFile(storeHome: string, workspaceId: string): string | null;
  /** Folder of the workspace repository's reflogs that a push updates; null: no repository. */
  pushReflogDir(workspaceRoot: string): string | null;
  /** Records new pushes in the ledger and returns only the new records. */
  scanPushes(workspaceRoot: string, ledger: LedgerLike, statePath: string): Promise<EffectRecord[]>;
  /** Where the push monitor keeps what it has already seen for this workspace. */
  pushStatePath(storeHome: string, workspaceId: string): string;
}

export interface EffectsFeedOptions {
  backend: EffectsBackend;
  storeHome: string;
  workspaceId: string;
  root: string;
  onNew: (effect: EffectRecord) => void;
  onError?: (err: unknown) => void;
  pollMs?: number;
}

export class EffectsFeed {
  readonly ledger: LedgerLike;
  private known = new Set<string>();
  private newestMs = 0;
  private ledgerSignal = '';
  private reflogSignal = '';
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking: Promise<void> | null = null;
  private disposed = false;

  constructor(private readonly options: EffectsFeedOptions) {
    this.ledger = options.backend.openLedger(options.storeHome, options.workspaceId);
  }

  async start(): Promise<void> {
    // What is in the ledger already is history, not news.
    for (const record of await this.safe(() => this.ledger.list(), [])) this.remember(record);
    this.ledgerSignal = await this.ledgerFingerprint();
    // Pushes made while the app was closed are news: they were never announced.
    await this.scanReflog(true);
    this.timer = setInterval(() => void this.tick(), this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  /** Everything in the ledger, oldest first as stored. */
  list(): Promise<EffectRecord[]> {
    return this.ledger.list();
  }

  /** Check both signals now (also called by the poll). */
  tick(): Promise<void> {
    if (this.ticking || this.disposed) return this.ticking ?? Promise.resolve();
    this.ticking = (async () => {
      await this.scanReflog(false);
      await this.tailLedger();
    })().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.ticking) await this.ticking.catch(() => undefined);
  }

  private async scanReflog(force: boolean): Promise<void> {
    const { backend, root, storeHome, workspaceId } = this.options;
    const dir = backend.pushReflogDir(root);
    if (dir === null) return;
    const signal = await treeFingerprint(dir);
    if (!force && signal === this.reflogSignal) return;
    this.reflogSignal = signal;
    const fresh = await this.safe(() => backend.scanPushes(root, this.ledger, backend.pushStatePath(storeHome, workspaceId)), []);
    for (const record of fresh) this.announce(record);
  }

  private async tailLedger(): Promise<void> {
    const signal = await this.ledgerFingerprint();
    if (signal !== '' && signal === this.ledgerSignal) return;
    this.ledgerSignal = signal;
    // A minute of overlap: another process's clock or a slow append may land a little in the past.
    const sinceMs = Math.max(0, this.newestMs - 60_000);
    const records = await this.safe(() => this.ledger.list({ sinceMs }), []);
    for (const record of records) this.announce(record);
  }

  private async ledgerFingerprint(): Promise<string> {
    const file = this.options.backend.ledgerFile(this.options.storeHome, this.options.workspaceId);
    if (file === null) return '';
    try {
      const s = await stat(file);
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return '-';
    }
  }

  private announce(record: EffectRecord): void {
    if (this.known.has(record.id)) {
      this.remember(record);
      return;
    }
    this.remember(record);
    if (!this.disposed) this.options.onNew(record);
  }

  private remember(record: EffectRecord): void {
    this.known.add(record.id);
    this.newestMs = Math.max(this.newestMs, record.time_ms);
  }

  private async safe<T>(fn: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      this.options.onError?.(err);
      return fallback;
    }
  }
}

/** Sizes and mtimes of every file under `dir` (a reflog folder holds a handful). */
async function treeFingerprint(dir: string): Promise<string> {
  const parts: string[] = [];
  const walk = async (d: string, depth: number): Promise<void> => {
    if (depth > 8) return;
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p, depth + 1);
      else {
        try {
          const s = await stat(p);
          parts.push(`${p}:${s.size}:${s.mtimeMs}`);
        } catch {
          // vanished between readdir and stat
        }
      }
    }
  };
  await walk(dir, 0);
  return parts.sort().join('|');
}
