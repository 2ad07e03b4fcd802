// A restore's row stands for its safety checkpoint too (lib/restore-rows.ts):
// the state before the restore stays one click away from the restore itself.
import type { Checkpoint } from '../../../shared/model.js';
import { indexOfId, useTimeline } from '../state/timeline.js';
import { absoluteTime } from '../lib/time.js';
import { safetyBefore } from '../lib/restore-rows.js';
import { Icon } from './Icon.js';

export function BeforeRestoreNote({ checkpoint }: { checkpoint: Checkpoint }) {
  const safety = useTimeline((s) => safetyBefore(s.checkpoints, indexOfId(s.checkpoints, checkpoint.id)));
  const select = useTimeline((s) => s.select);
  if (safety === null) return null;
  return (
    <div className="banner banner-info" data-testid="before-restore-note">
      <Icon name="restore" size={14} />
      <span>The state before this restore is kept ({absoluteTime(safety.time_ms)}): restoring it undoes the restore.</span>
      <button type="button" className="link-button small" data-testid="before-restore" onClick={() => select(safety.id)}>
        Show the state before the restore
      </button>
    </div>
  );
}
