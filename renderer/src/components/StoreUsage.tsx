// Settings' view of the store itself: how big it is, when it was last
// compressed and last pruned, and "Compact now" (a compression at once —
// it never holds a workspace lock, so checkpoints go on meanwhile).
import { useEffect, useState } from 'react';
import type { StoreInfo } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from '../state/client.js';

const mb = (bytes: number): string =>
  bytes >= 1 << 30 ? `${(bytes / (1 << 30)).toFixed(2)} GB` : bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
const when = (ms: number): string => new Date(ms).toLocaleString();

export function StoreUsage() {
  const [info, setInfo] = useState<StoreInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    client()
      .invoke('store:info', {})
      .then((got) => live && setInfo(got))
      .catch((err: unknown) => live && setMessage(`Cannot read the store: ${errorLine(err)}`));
    return () => {
      live = false;
    };
  }, []);

  const compact = async (): Promise<void> => {
    setBusy(true);
    setMessage(null);
    const before = info?.bytes ?? null;
    try {
      const after = await client().invoke('store:compact', {});
      setInfo(after);
      setMessage(before === null ? `Compacted: ${mb(after.bytes)}.` : `Compacted: ${mb(before)} → ${mb(after.bytes)}.`);
    } catch (err) {
      setMessage(`Could not compact: ${errorLine(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="store-usage" data-testid="store-usage">
      <dl>
        <dt>Size</dt>
        <dd data-testid="store-size">{info ? mb(info.bytes) : '…'}</dd>
        <dt>Last compressed</dt>
        <dd data-testid="store-last-upkeep">{info ? (info.last_upkeep ? when(info.last_upkeep.time_ms) : 'not yet') : '…'}</dd>
        <dt>Last pruned</dt>
        <dd data-testid="store-last-prune">
          {info
            ? info.last_prune
              ? `${when(info.last_prune.time_ms)}: ${info.last_prune.removed} checkpoint${info.last_prune.removed === 1 ? '' : 's'} removed, ${info.last_prune.kept} kept`
              : 'not yet'
            : '…'}
        </dd>
      </dl>
      <button type="button" className="button" disabled={busy || info === null} onClick={() => void compact()} data-testid="store-compact">
        {busy ? 'Compacting…' : 'Compact now'}
      </button>
      {message && (
        <p className="settings-note" role="status" data-testid="store-usage-message">
          {message}
        </p>
      )}
    </div>
  );
}
