// A banner while the workspace has damaged checkpoints (found by `chronoscope
// check`, by the app's own daily check, or a commit or root tree that cannot
// be read): says how many, and names the command that says what each one lost.
import { useTimeline } from '../state/timeline.js';
import { Icon } from './Icon.js';

export function DamageBanner() {
  // A count, not the list: the banner re-renders only when the number changes.
  const damaged = useTimeline((s) => s.checkpoints.reduce((n, c) => (c.damaged ? n + 1 : n), 0));
  if (damaged === 0) return null;
  return (
    <div className="banner banner-warning" role="status" data-testid="damage-banner">
      <Icon name="alert" size={14} />
      <span>
        {damaged === 1 ? '1 checkpoint is' : `${damaged} checkpoints are`} damaged: some of {damaged === 1 ? 'its' : 'their'} files cannot be read back from the store
        (marked on the timeline). Run <code>chronoscope check</code> to see which files each one lost; the other checkpoints are intact.
      </span>
    </div>
  );
}
