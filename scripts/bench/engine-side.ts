// The engine's side of the benchmark: the same operations through the real
// engine (in this process; it runs git as child processes of its own).
import type { Store, Workspace } from '../../electron/engine/api.js';
import { openStore } from '../../electron/engine/index.js';

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
      settings: { retention: { max_checkpoints: 100_000, max_age_days: 36_500, max_store_mb: 10_000_000 } },
    });
    return new EngineSide(store, await store.workspace(root));
  }

  async snapshot(reason: string, paths?: string[]): Promise<string | null> {
    const result = await this.workspace.snapshot({ reason, trigger: 'manual', ...(paths ? { paths } : {}) });
    return result.id;
  }

  async list(limit: number): Promise<number> {
    return (await this.workspace.list({ limit })).length;
  }

  /** What showing one checkpoint takes: its changed files, then both sides of each. */
  async diff(from: string, to: string): Promise<void> {
    const diff = await this.workspace.diff(from, to);
    for (const file of diff.files) await this.workspace.fileDiff(from, to, file.path);
  }

  async restore(id: string, paths?: string[]): Promise<void> {
    await this.workspace.restore(id, paths ? { paths } : {});
  }

  async count(): Promise<number> {
    return (await this.workspace.list()).length;
  }
}
