// Settings' "Share this workspace's history": sharing over the workspace's own
// git remote (share:get / share:set, as `chronoscope share enable|disable`).
// It applies at once, like Undo beside it, not with the form's Save: it
// installs or removes a git hook, not a setting.
import { useEffect, useId, useState } from 'react';
import type { ShareSwitch } from '../../../shared/ipc.js';
import { errorLine } from '../client/client-error.js';
import { client } from '../state/client.js';
import { useWorkspaces } from '../state/workspaces.js';

export function ShareSetting() {
  const workspace = useWorkspaces((s) => s.current);
  const [state, setState] = useState<ShareSwitch | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    if (!workspace) return;
    let live = true;
    client()
      .invoke('share:get', { workspace })
      .then((s) => live && setState(s), (err: unknown) => live && setMessage(errorLine(err)));
    return () => {
      live = false;
    };
  }, [workspace]);

  if (!workspace || state === null) return message ? <p className="settings-hint">{message}</p> : null;

  const toggle = async (enabled: boolean): Promise<void> => {
    setBusy(true);
    setMessage(null);
    try {
      setState(await client().invoke('share:set', { workspace, enabled }));
    } catch (err) {
      setMessage(errorLine(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="settings-field settings-wide" data-testid="share-setting">
      <label className="settings-switch" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={state.enabled}
          disabled={busy || !state.available}
          aria-describedby={`${id}-note`}
          data-testid="share-switch"
          onChange={(e) => void toggle(e.target.checked)}
        />
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="settings-label">Share this workspace's history</span>
      </label>
      <p id={`${id}-note`} className="settings-hint" data-testid="share-note">
        {state.available
          ? `With every git push, this workspace's checkpoints (and the prompts behind them, redacted) go to ${state.remote ?? 'its remote'}${state.url ? ` (${state.url})` : ''} under ${state.namespace ?? 'your own refs'}. Nothing else of the store leaves; the remote's branches are never touched.`
          : `Not available: ${state.reason ?? 'no git remote'}`}
      </p>
      {message && <p className="settings-hint" role="alert">{message}</p>}
    </div>
  );
}
