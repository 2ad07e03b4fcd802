// The app's pull: teammates' checkpoints fetched when a workspace opens and
// then every `share_pull_minutes` (default 10; 0 turns it off), in the main
// process, never awaited by anything the window waits on. Only workspaces
// that use sharing are pulled on their own — sharing enabled (share.json) or
// pulled by hand before (share-pull.json) — so a person who never asked for
// it gets no network traffic and no credential prompt from us.
import { UsageError } from '../../shared/errors.js';
import { readShareSettings } from './share-file.js';
import { readPullState } from './pull-state.js';
import { sharePull, type PullResult, type PullTarget } from './pull.js';

export interface SharePullerOptions {
  target: PullTarget;
  /** Minutes between pulls, read before each one (settings change while the app runs); 0: off. */
  minutes: () => number;
  /** After a pull that fetched something. */
  onPulled: (result: PullResult) => void;
  /** A pull that failed (the network, the remote): said once per distinct message. */
  onError: (message: string) => void;
}

/** Sharing is in use for this workspace: enabled, or pulled by hand before. */
export async function pullsOnItsOwn(workspaceDir: string): Promise<boolean> {
  const [share, pulled] = await Promise.all([readShareSettings(workspaceDir).catch(() => null), readPullState(workspaceDir)]);
  return share?.enabled === true || pulled !== undefined;
}

export class SharePuller {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;
  private running: Promise<void> | null = null;
  private said = new Set<string>();

  constructor(private readonly options: SharePullerOptions) {}

  /** The first pull at once (not awaited), then one every interval, never two at a time. */
  start(): void {
    this.running = this.pullNow();
  }

  private schedule(): void {
    if (this.disposed) return;
    const minutes = this.options.minutes();
    if (!(minutes > 0)) return;
    this.timer = setTimeout(() => {
      this.running = this.pullNow();
    }, minutes * 60_000);
    this.timer.unref();
  }

  private async pullNow(): Promise<void> {
    try {
      if (this.options.minutes() > 0 && (await pullsOnItsOwn(this.options.target.workspaceDir))) {
        // The remote pulled from before, else the one sharing was enabled with, else pull's own choice.
        const dir = this.options.target.workspaceDir;
        const remote = (await readPullState(dir))?.remote ?? (await readShareSettings(dir).catch(() => null))?.remote;
        const result = await sharePull(this.options.target, remote === undefined ? {} : { remote });
        if (!this.disposed && (result.updated > 0 || result.removed > 0)) this.options.onPulled(result);
      }
    } catch (err) {
      // A workspace that cannot say which remote (no remote, several) is not news on every timer tick.
      const message = err instanceof Error ? err.message.split('\n')[0]! : String(err);
      if (!this.disposed && !(err instanceof UsageError) && !this.said.has(message)) {
        this.said.add(message);
        this.options.onError(`pulling teammates' checkpoints failed: ${message}`);
      }
    } finally {
      this.running = null;
      this.schedule();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
