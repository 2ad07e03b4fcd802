// The open workspace, its watcher state, and "Take checkpoint now".
import { useState, type FormEvent } from 'react';
import { useWorkspaces } from '../state/workspaces.js';
import { useTimeline } from '../state/timeline.js';
import { useToasts } from '../state/toasts.js';
import { useBanners } from '../state/banners.js';
import { useProgress } from '../state/progress.js';
import { baseName } from '../lib/paths.js';
import { leftOutSentence } from '../lib/left-out.js';
import { useSettings } from '../state/settings.js';
import { Icon } from './Icon.js';
import { EffectsBadge } from './EffectsPanel.js';

export function Header() {
  const current = useWorkspaces((s) => s.current);
  const entry = useWorkspaces((s) => s.list.find((w) => w.path === s.current));
  const setPaused = useWorkspaces((s) => s.setPaused);
  const count = useTimeline((s) => s.checkpoints.length);
  // Until the list has arrived there is no count to tell: never "0 checkpoints" while loading.
  const listed = useTimeline((s) => s.status === 'ready');
  const partial = useTimeline((s) => s.partial);

  if (!current) {
    return (
      <header className="header">
        <div className="header-title">
          <h1>No workspace open</h1>
        </div>
      </header>
    );
  }

  const state = entry?.state ?? 'idle';
  return (
    <header className="header">
      <div className="header-title">
        <h1 title={current}>{baseName(current)}</h1>
        <span className="header-path mono" title={current}>
          {current}
        </span>
      </div>
      <div className="header-meta">
        <span className={`state-chip state-${state}`} title={stateTitle(state)}>
          <span className="state-dot" aria-hidden="true" />
          {state}
        </span>
        {(state === 'watching' || state === 'paused') && (
          <button
            type="button"
            className="icon-button"
            aria-label={state === 'paused' ? 'Resume automatic checkpoints' : 'Pause automatic checkpoints'}
            title={state === 'paused' ? 'Resume automatic checkpoints' : 'Pause automatic checkpoints'}
            onClick={() => void setPaused(current, state !== 'paused')}
          >
            <Icon name={state === 'paused' ? 'play' : 'pause'} size={14} />
          </button>
        )}
        <span className="header-count" data-testid="header-count">
          {!listed ? 'Loading checkpoints…' : partial ? `newest ${count} · loading the rest…` : `${count} checkpoint${count === 1 ? '' : 's'}`}
        </span>
      </div>
      <ProgressLine />
      <EffectsBadge />
      <SnapshotForm />
    </header>
  );
}

/** The host's latest progress message, fading out on its own; the live region reads it once. */
function ProgressLine() {
  const seq = useProgress((s) => s.seq);
  const message = useProgress((s) => s.message);
  return (
    <span className="header-progress" role="status" aria-live="polite" data-testid="header-progress">
      {message && (
        <span key={seq} className="header-progress-text" title={message}>
          {message}
        </span>
      )}
    </span>
  );
}

function stateTitle(state: string): string {
  switch (state) {
    case 'watching':
      return 'Changes are checkpointed automatically once they settle';
    case 'paused':
      return 'Automatic checkpoints are paused';
    case 'missing':
      return 'The folder is gone — its history is still in the store';
    default:
      return 'Not watched: checkpoints come from the CLI, hooks or this button';
  }
}

function SnapshotForm() {
  const [reason, setReason] = useState('');
  const snapshotting = useTimeline((s) => s.snapshotting);
  const snapshot = useTimeline((s) => s.snapshot);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const result = await snapshot(reason);
      if (!result) return;
      if (result.id === null) {
        // Nothing was taken: the typed reason stays for the next try.
        useToasts.getState().push({ tone: 'info', title: 'Nothing to record', body: result.skipped });
      } else {
        setReason('');
        const left = result.skipped_files;
        if (left.length > 0 && useSettings.getState().status !== 'ready') await useSettings.getState().load();
        const limitMb = useSettings.getState().settings?.max_file_mb ?? null;
        const changed = `${result.files_changed} file${result.files_changed === 1 ? '' : 's'} changed, +${result.insertions} −${result.deletions}`;
        useToasts.getState().push({
          tone: left.length > 0 ? 'info' : 'success',
          title: left.length > 0 ? `Checkpoint taken; ${left.length} file${left.length === 1 ? '' : 's'} left out` : 'Checkpoint taken',
          body: left.length > 0 ? `${left.slice(0, 3).map((f) => leftOutSentence(f, limitMb)).join('; ')}${left.length > 3 ? '; …' : ''}. ${changed}` : changed,
        });
      }
    } catch (err) {
      useBanners.getState().report(err, 'Take checkpoint');
    }
  };

  return (
    <form className="snapshot-form" onSubmit={(e) => void submit(e)}>
      <input
        className="input"
        aria-label="Reason for the checkpoint (optional)"
        placeholder="Reason (optional)"
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      <button type="submit" className="button button-primary" data-testid="snapshot-button" disabled={snapshotting}>
        <Icon name="camera" size={14} />
        {snapshotting ? 'Taking…' : 'Take checkpoint now'}
      </button>
    </form>
  );
}
