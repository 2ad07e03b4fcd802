// The engine's side of the benchmark: the same operations through the real
// engine (in this process; it runs git as child processes of its own).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store, Workspace } from '../../electron/engine/api.js';
import { openStore } from '../../electron/engine/index.js';
// Only for seeding list1000 (see seedCheckpoints): the engine's own encoders.
import { gitStdin } from '../../electron/engine/git/git-runner.js';
import { listRecords, nextRefName } from '../../electron/engine/list.js';
import { encodeMessage } from '../../electron/engine/layout/message.js';
import { WorkspaceImpl } from '../../electron/engine/workspace.js';

export class EngineSide {
  private constructor(
    readonly store: Store,
    readonly workspace: Workspace,
  ) {}

  /** Opens a fresh store and registers the workspace (part of the "first" case). */
  static async open(home: string, root: string): Promise<EngineSide> {
    // Retention off for the run: list1000 needs 1,000 checkpoints kept.
    const store = await openStore({
      home,
      settings: { retention: { version: 2, max_checkpoints: 100_000, max_age_days: 36_500, max_store_mb: 10_000_000 } },
    });
    return new EngineSide(store, await store.workspace(root));
  }

  async snapshot(reason: string, paths?: string[]): Promise<string | null> {
    const result = await this.workspace.snapshot({ reason, trigger: 'manual', ...(paths ? { paths } : {}) });
    return result.id;
  }

  /** Waits for the engine's background work (the private index catching up after a path-limited snapshot). */
  async settled(): Promise<void> {
    if (this.workspace instanceof WorkspaceImpl) await this.workspace.settled();
  }

  async list(limit: number): Promise<number> {
    return (await this.workspace.list({ limit })).length;
  }

  /** What showing one checkpoint takes: its changed files, then both sides of the first one. */
  async diff(from: string, to: string): Promise<void> {
    const diff = await this.workspace.diff(from, to);
    const first = diff.files[0];
    if (first) await this.workspace.fileDiff(from, to, first.path);
  }

  async restore(id: string, paths?: string[]): Promise<void> {
    await this.workspace.restore(id, paths ? { paths } : {});
  }

  /**
   * Adds `count` checkpoints quickly, for the listing case only: a real
   * snapshot costs several git processes, and 1,000 of them would dominate
   * the run. So the commits are written the way the engine writes them (its
   * message encoder, its ref naming, its git environment) with two plumbing
   * processes: hash-object for all commits, update-ref --stdin for all refs.
   * Each repeats the latest checkpoint's tree; listing never reads trees.
   */
  async seedCheckpoints(count: number, tmp: string): Promise<void> {
    if (!(this.workspace instanceof WorkspaceImpl)) throw new Error('seeding needs the engine workspace implementation');
    const ctx = this.workspace.ctx;
    const latest = (await listRecords(ctx, 1))[0];
    if (!latest) throw new Error('seeding needs one checkpoint first');
    const dir = mkdtempSync(join(tmp, 'seed-'));
    try {
      const now = Date.now();
      const files: string[] = [];
      const refs: string[] = [];
      let ref = latest.refname;
      for (let i = 0; i < count; i++) {
        const timeMs = now + i;
        ref = nextRefName(ctx, ref, timeMs);
        const message = encodeMessage(`seed ${i}`, {
          v: 1,
          trigger: 'auto',
          time_ms: timeMs,
          stats: { files: 1, insertions: 1, deletions: 0 },
          skipped: [],
          prev: null,
        });
        const sec = Math.floor(timeMs / 1000);
        const who = `Chronoscope <chronoscope@localhost> ${sec} +0000`;
        const file = join(dir, `c${i}`);
        writeFileSync(file, `tree ${latest.tree}\nauthor ${who}\ncommitter ${who}\n\n${message}`);
        files.push(file);
        refs.push(ref);
      }
      const hashed = await gitStdin(ctx.git, ['hash-object', '-t', 'commit', '-w', '--stdin-paths'], { input: `${files.join('\n')}\n` });
      const ids = hashed.stdout.toString('utf8').trim().split('\n');
      if (ids.length !== count) throw new Error(`seeding wrote ${ids.length} of ${count} commits`);
      const updates = ids.map((id, i) => `create ${refs[i] ?? ''} ${id}\n`).join('');
      await gitStdin(ctx.git, ['update-ref', '--stdin'], { input: updates });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  async count(): Promise<number> {
    return (await this.workspace.list()).length;
  }
}
