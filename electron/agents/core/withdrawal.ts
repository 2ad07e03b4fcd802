// A snapshot request the CLI may withdraw (Ctrl-C) until its checkpoint is
// written: whichever comes first, the withdrawal or the commit, wins, and the
// other is refused. Both run on the service's one JS thread, so there is no
// moment where both succeed.
import type { SnapshotControl, SnapshotStage } from '../../engine/api.js';
import { testPause } from '../../fs/test-pause.js';

export class Withdrawal implements SnapshotControl {
  private state: 'open' | 'withdrawn' | 'committed' = 'open';

  stage(name: SnapshotStage): Promise<void> {
    return testPause(`snapshot:${name}`);
  }

  /** True: nothing will be recorded. False: the checkpoint is (being) written; its answer follows. */
  withdraw(): boolean {
    if (this.state === 'committed') return false;
    this.state = 'withdrawn';
    return true;
  }

  withdrawn(): boolean {
    return this.state === 'withdrawn';
  }

  commit(): boolean {
    if (this.state === 'withdrawn') return false;
    this.state = 'committed';
    return true;
  }
}
