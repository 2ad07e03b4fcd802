// The person's list of workspaces (<store home>/app-workspaces.json), shared by
// the Electron shell and the browser host. The store keeps every workspace it
// ever saw; this list is only the ones the person chose to show and watch.
import path from 'node:path';
import { z } from 'zod';
import { readJson } from '../fs/atomic-file.js';
import { writeContained } from '../fs/contained-write.js';

const EntrySchema = z.object({
  /** The workspace's real path, as the engine registered it. */
  path: z.string().min(1),
  /** The engine's workspace id (hash of the real path). */
  id: z.string().min(1),
  paused: z.boolean().default(false),
  added: z.string(),
});
const FileSchema = z.object({ version: z.literal(1), workspaces: z.array(EntrySchema) });

export type ListedWorkspace = z.infer<typeof EntrySchema>;

export const WORKSPACE_LIST_FILE = 'app-workspaces.json';

export class WorkspaceListFile {
  readonly file: string;
  private readonly storeHome: string;
  /** Serialises read-modify-write cycles within this process. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(storeHome: string) {
    this.file = path.join(storeHome, WORKSPACE_LIST_FILE);
    this.storeHome = storeHome;
  }

  async read(): Promise<ListedWorkspace[]> {
    let raw: unknown;
    try {
      raw = await readJson(this.file);
    } catch {
      // A corrupt list is not worth refusing to start over: start empty, the store keeps history.
      return [];
    }
    if (raw === undefined) return [];
    const parsed = FileSchema.safeParse(raw);
    return parsed.success ? parsed.data.workspaces : [];
  }

  /** Re-reads the file (another host may have changed it), applies `change`, writes atomically. */
  update<T>(change: (entries: ListedWorkspace[]) => T): Promise<T> {
    const run = this.queue.then(async () => {
      const entries = await this.read();
      const result = change(entries);
      // The store's own setting: through the guarded write, never through a link out of the store.
      await writeContained({ dir: this.storeHome, label: 'the store' }, this.file, `${JSON.stringify({ version: 1, workspaces: entries }, null, 2)}\n`, { mode: 0o600, dirMode: 0o700 });
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
