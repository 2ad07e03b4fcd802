// A banner while the workspace has damaged checkpoints (found by `chronoscope
// check`, by the app's own daily check, or a commit or root tree that cannot
// be read): how many, which files they lost, "Check again" (the check runs
// now and the marks follow it) and "Dismiss" (until a check finds more).
import { useEffect } from 'react';
import { isDismissed, useHealth } from '../state/health.js';
import { useTimeline } from '../state/timeline.js';
import { Icon } from './Icon.js';

const FILES_SHOWN = 5;

export function DamageBanner() {
  // A count, not the list: the banner re-renders only when the number changes.
  const damaged = useTimeline((s) => s.checkpoints.reduce((n, c) => (c.damaged ? n + 1 : n), 0));
  const workspace = useTimeline((s) => s.workspace);
  const health = useHealth((s) => s.health);
  const checking = useHealth((s) => s.checking);
  // Said for the workspace it was checked in only.
  const outcome = useHealth((s) => (s.workspace === workspace ? s.outcome : null));
  const dismissed = useHealth(isDismissed);
  const load = useHealth((s) => s.load);
  const checkAgain = useHealth((s) => s.checkAgain);
  const dismiss = useHealth((s) => s.dismiss);

  useEffect(() => {
    if (workspace && damaged > 0) void load(workspace);
  }, [workspace, damaged, load]);

  if (outcome && damaged === 0) {
    return (
      <div className="banner banner-success" role="status" data-testid="damage-banner" data-state="clean">
        <Icon name="check" size={14} />
        <span>{outcome}</span>
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
          <Icon name="x" size={12} />
        </button>
      </div>
    );
  }
  if (damaged === 0 || (dismissed && !checking)) return null;
  const files = health?.files ?? [];
  return (
    <div className="banner banner-warning banner-stacked" role="status" data-testid="damage-banner">
      <Icon name="alert" size={14} />
      <span>
        {damaged === 1 ? '1 checkpoint is' : `${damaged.toLocaleString()} checkpoints are`} damaged: some of {damaged === 1 ? 'its' : 'their'} files cannot be read back from the
        store (the band on the timeline). The other checkpoints are intact.
        {files.length > 0 && (
          <span className="damage-files" data-testid="damage-files">
            {' '}
            Affected:{' '}
            {files.slice(0, FILES_SHOWN).map((f, i) => (
              <span key={f.path}>
                {i > 0 && ', '}
                <code>{f.path === './' ? 'every file' : f.path}</code>
                {damaged > 1 && <span className="muted"> ({f.checkpoints})</span>}
              </span>
            ))}
            {files.length > FILES_SHOWN && <span className="muted">, and more</span>}.
          </span>
        )}{' '}
        {outcome ? <strong>{outcome}</strong> : <span className="muted">Run <code>chronoscope check</code> for what each one lost.</span>}
      </span>
      <button type="button" className="button" onClick={() => void checkAgain()} disabled={checking} data-testid="damage-check-again">
        {checking ? 'Checking…' : 'Check again'}
      </button>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss} data-testid="damage-dismiss">
        <Icon name="x" size={12} />
      </button>
    </div>
  );
}
