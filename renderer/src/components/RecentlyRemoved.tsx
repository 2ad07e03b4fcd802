// Settings' "Recently removed": what retention moved into the current
// workspace's trash (each prune: when, how many, why), each with Undo. The
// trash keeps them 14 days.
import { useCallback, useEffect, useState } from 'react';
import type { TrashEntry } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from '../state/client.js';
import { useWorkspaces } from '../state/workspaces.js';
import { checkpointsWord, removalReasons } from '../lib/trash-words.js';

const when = (ms: number): string => new Date(ms).toLocaleString();

export function RecentlyRemoved() {
  const workspace = useWorkspaces((s) => s.current);
  const [entries, setEntries] = useState<TrashEntry[] | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!workspace) return;
    try {
      setEntries(await client().invoke('retention:trash', { workspace }));
    } catch (err) {
      setMessage(`Cannot read the trash: ${errorLine(err)}`);
    }
  }, [workspace]);

  useEffect(() => {
    void load();
  }, [load]);

  const undo = async (entry: TrashEntry): Promise<void> => {
    if (!workspace) return;
    setBusy(entry.id);
    setMessage(null);
    try {
      const result = await client().invoke('retention:undo', { workspace, entry: entry.id });
      setMessage(`Brought back ${checkpointsWord(result.restored.length)}.`);
      await load();
    } catch (err) {
      setMessage(`Could not undo: ${errorLine(err)}`);
    } finally {
      setBusy(null);
    }
  };

  if (!workspace) return null;
  return (
    <div className="recently-removed" data-testid="recently-removed">
      <h4>Recently removed</h4>
      {entries === null ? (
        <p className="settings-note">…</p>
      ) : entries.length === 0 ? (
        <p className="settings-note" data-testid="recently-removed-empty">
          Nothing removed from this workspace in the last 14 days.
        </p>
      ) : (
        <ul>
          {entries.map((e) => (
            <li key={e.id} data-testid="recently-removed-entry">
              <span>
                {when(e.time_ms)}: {checkpointsWord(e.count)} {e.automatic ? 'removed on its own' : 'pruned by hand'}
                {removalReasons(e.by_rule) ? ` — ${removalReasons(e.by_rule)}` : ''}. In the trash until {new Date(e.expires_ms).toLocaleDateString()}.
              </span>
              <button type="button" className="button small" disabled={busy !== null} onClick={() => void undo(e)} data-testid="recently-removed-undo">
                {busy === e.id ? 'Bringing back…' : 'Undo'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {message && (
        <p className="settings-note" role="status" data-testid="recently-removed-message">
          {message}
        </p>
      )}
    </div>
  );
}
