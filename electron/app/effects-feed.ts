// Irreversible effects of one workspace, live: pushes found in the workspace's
// reflog (by any agent or by hand) and ledger lines appended by other
// processes (the hook). Both are noticed by a cheap signal (file sizes and
// mtimes) polled every second; only a changed signal reads anything.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { EffectRecord } from '../../shared/model.js';

/** One workspace's effects as the app needs them, behind one seam (see effects-backend.ts). */
export interface WorkspaceEffects {
  /** Every record, oldest first; `sinceMs` keeps those at or after that time. */
  list(options?: { sinceMs?: number }): Promise<EffectRecord[]>;
  /** The ledger's file, for the cheap change signal; null: read the ledger at every tick. */
  readonly ledgerFile: string | null;
  /** Folder of the workspace repository's reflogs that a push updates; null: no repository. */
  reflogDir(): string | null;
  /** Records pushes not seen before in the ledger; returns only the new records. */
  scanPushes(options: { checkpoint: string | null; workspace: string; sinceMs: number }): Promise<EffectRecord[]>;
}

export interface EffectsBackend {
  open(storeHome: string, workspaceId: string, workspaceRoot: string): WorkspaceEffects;
}

export interface EffectsFeedOptions {
  effects: WorkspaceEffects;
  /** The workspace field of new records. */
  workspace: string;
  /** First scan of a workspace's reflog: pushes at or after this time are news. */
  sinceMs: number;
  /** The latest checkpoint, attached to a new push record. */
  latestCheckpoint: () => Promise<string | null>;
  onNew: (effect: EffectRecord) => void;
  onError?: (err: unknown) => void;
  pollMs?: number;
}

export class EffectsFeed {
  /** Status of every record seen: a later status line (intended → happened) is news too. */
  private known = new Map<string, string>();
  private ledgerSignal = '';
  private reflogSignal = '';
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking: Promise<void> | null = null;
  private disposed = false;

  constructor(private readonly options: EffectsFeedOptions) {}

  async start(): Promise<void> {
    // What is in the ledger already is history, not news.
    for (const record of await this.safe(() => this.options.effects.list(), [])) this.remember(record);
    this.ledgerSignal = await this.ledgerFingerprint();
    // Pushes made while the app was closed are news: they were never announced.
    await this.scanReflog(true);
    if (this.disposed) return; // disposed while starting: start nothing
    this.timer = setInterval(() => void this.tick(), this.options.pollMs ?? 1000);
    this.timer.unref();
  }

  /** The ledger, oldest first; `sinceMs` keeps records at or after that time. */
  list(options?: { sinceMs?: number }): Promise<EffectRecord[]> {
    return this.options.effects.list(options);
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
    const { effects, workspace, sinceMs } = this.options;
    const dir = effects.reflogDir();
    if (dir === null) return;
    const signal = await treeFingerprint(dir);
    if (!force && signal === this.reflogSignal) return;
    this.reflogSignal = signal;
    const fresh = await this.safe(async () => {
      const checkpoint = await this.options.latestCheckpoint().catch(() => null);
      return effects.scanPushes({ checkpoint, workspace, sinceMs });
    }, []);
    for (const record of fresh) this.announce(record);
  }

  private async tailLedger(): Promise<void> {
    const signal = await this.ledgerFingerprint();
    if (signal !== '' && signal === this.ledgerSignal) return;
    this.ledgerSignal = signal;
    // Whole ledger: status lines can update old records, and a ledger is small.
    const records = await this.safe(() => this.options.effects.list(), []);
    for (const record of records) this.announce(record);
  }

  private async ledgerFingerprint(): Promise<string> {
    const file = this.options.effects.ledgerFile;
    if (file === null) return '';
    try {
      const s = await stat(file);
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return '-';
    }
  }

  private announce(record: EffectRecord): void {
    if (this.known.get(record.id) === record.status) return;
    this.remember(record);
    if (!this.disposed) this.options.onNew(record);
  }

  private remember(record: EffectRecord): void {
    this.known.set(record.id, record.status);
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
