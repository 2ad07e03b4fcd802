// Connection-lost and error banners across the top of the main area.
import { useConnection } from '../state/connection.js';
import { useBanners } from '../state/banners.js';
import { Icon } from './Icon.js';

export function ConnectionBanner() {
  const status = useConnection((s) => s.status);
  if (status.state === 'open') return null;
  if (status.state === 'expired') {
    return (
      <div className="banner banner-error" role="alert" data-testid="connection-banner" data-state="expired">
        <Icon name="alert" size={14} />
        <span>
          This Chronoscope server was restarted and no longer accepts this page. Open the new address that{' '}
          <code>chronoscope serve</code> printed (it ends in <code>?token=…</code>); reloading this one will not work.
        </span>
      </div>
    );
  }
  if (status.state === 'connecting') {
    return (
      <div className="banner banner-info" role="status">
        <span className="spinner" aria-hidden="true" /> Connecting to Chronoscope…
      </div>
    );
  }
  return (
    <div className="banner banner-error" role="alert" data-testid="connection-banner">
      <span className="spinner" aria-hidden="true" />
      <span>
        {status.everConnected ? 'Disconnected — reconnecting' : 'Cannot reach the Chronoscope host — retrying'} (attempt {status.attempt}).{' '}
        {!status.everConnected && (
          <span className="muted">
            Is <code>chronoscope serve</code> still running? Open the URL it printed, with its token.
          </span>
        )}
      </span>
    </div>
  );
}

export function ErrorBanners() {
  const banners = useBanners((s) => s.banners);
  const dismiss = useBanners((s) => s.dismiss);
  return (
    <>
      {banners.map((b) => (
        <div key={b.id} className="banner banner-error" role="alert" data-testid="error-banner">
          <Icon name="alert" size={14} />
          <span>
            {b.context && <strong>{b.context}: </strong>}
            {b.message} <span className="code-chip">{b.code}</span>
          </span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(b.id)}>
            <Icon name="x" size={12} />
          </button>
        </div>
      ))}
    </>
  );
}
