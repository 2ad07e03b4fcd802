// The command that verifies this workspace's checkpoints, as the person sets
// it (settings key `verifier`, per workspace; `auto` picks npm test, pytest,
// cargo test or go test). Shown in the verify panel; saved to config.json by
// the host, the only place a verifier comes from besides the CLI's --verifier.
import { useEffect, useState, type FormEvent } from 'react';
import { useSettings } from '../state/settings.js';
import { InlineError } from './bits.js';

export function VerifierSetting({ workspace }: { workspace: string }) {
  const status = useSettings((s) => s.status);
  const current = useSettings((s) => s.settings?.verifier[workspace]);
  const saving = useSettings((s) => s.saving);
  const saveError = useSettings((s) => s.saveError);
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');

  useEffect(() => {
    if (status === 'idle') void useSettings.getState().load();
  }, [status]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const command = value.trim();
    if (command === '') return;
    if (await useSettings.getState().save({ verifier: { [workspace]: command } })) setEditing(false);
  };

  if (!editing) {
    return (
      <span className="verify-note" data-testid="verifier-setting">
        Verifier: {current ? <code>{current}</code> : <span className="muted">none —</span>}{' '}
        <button
          type="button"
          className="link-button"
          data-testid="verifier-edit"
          onClick={() => {
            setValue(current ?? 'auto');
            setEditing(true);
          }}
        >
          {current ? 'change' : 'set one'}
        </button>
      </span>
    );
  }
  return (
    <form className="verifier-form" onSubmit={(e) => void submit(e)}>
      <label className="verify-note" htmlFor="verifier-input">
        Command run in a scratch copy's root (or <code>auto</code>):
      </label>
      <input id="verifier-input" data-testid="verifier-input" className="input mono" value={value} onChange={(e) => setValue(e.target.value)} spellCheck={false} autoFocus />
      <button type="submit" className="button button-primary small" disabled={saving || value.trim() === ''} data-testid="verifier-save">
        Save
      </button>
      <button type="button" className="button button-subtle small" onClick={() => setEditing(false)}>
        Cancel
      </button>
      {saveError && <InlineError message={saveError} />}
    </form>
  );
}
