// The ledger of irreversible effects: what already left the machine, and the
// command that would compensate each one.
import { useEffects } from '../state/effects.js';
import { useClock } from '../state/clock.js';
import { useConnection } from '../state/connection.js';
import { absoluteTime, relativeTime } from '../lib/time.js';
import { effectKindLabel, effectStatusLabel } from '../lib/effects.js';
import { CopyButton } from './bits.js';
import { Icon } from './Icon.js';

export function EffectsPanel() {
  const list = useEffects((s) => s.list);
  const status = useEffects((s) => s.status);
  const error = useEffects((s) => s.error);
  const workspace = useEffects((s) => s.workspace);
  const notifications = useEffects((s) => s.notifications);
  const requestNotifications = useEffects((s) => s.requestNotifications);
  const host = useConnection((s) => s.info?.host);
  const now = useClock((s) => s.now);

  return (
    <section className="sidebar-section effects-panel" data-testid="effects-panel" aria-labelledby="effects-heading">
      <div className="section-head">
        <h2 id="effects-heading" className="section-title">
          <span className="section-title-text">Irreversible effects</span>
          {list.length > 0 && <span className="count" data-testid="effects-count">{list.length}</span>}
        </h2>
        {workspace && host !== 'electron' && notifications === 'default' && (
          <button
            type="button"
            className="icon-button"
            onClick={() => void requestNotifications()}
            title="Enable notifications: a system notification for every new effect"
            aria-label="Enable notifications for new effects"
            data-testid="enable-notifications"
          >
            <Icon name="bell" size={13} />
          </button>
        )}
      </div>
      {!workspace && <div className="sidebar-note">Open a workspace to see its effects.</div>}
      {workspace && status === 'loading' && <div className="sidebar-note">Loading…</div>}
      {status === 'error' && <div className="sidebar-note error-text">{error}</div>}
      {workspace && status === 'ready' && list.length === 0 && (
        <div className="sidebar-note">
          Nothing has left this machine yet. Pushes, publishes and deploys made here appear with the command that undoes them.
        </div>
      )}
      <ul className="effect-list">
        {list.slice(0, 50).map((effect) => (
          <li key={effect.id} className={`effect effect-${effect.status}`} data-effect-id={effect.id}>
            <div className="effect-head">
              <Icon name="zap" size={12} className="effect-icon" />
              <span className="effect-kind">{effectKindLabel(effect.kind)}</span>
              <time className="effect-time" dateTime={effect.time} title={absoluteTime(effect.time_ms, now)}>
                {relativeTime(effect.time_ms, now)}
              </time>
            </div>
            <div className="effect-line">
              <span className="effect-target mono" title={effect.summary || effect.command}>
                {effect.target}
              </span>
              <span className={`pill pill-${effect.status}`}>{effectStatusLabel(effect.status)}</span>
            </div>
            {effect.status === 'nothing_sent' ? (
              <div className="effect-compensation none">Nothing left this machine: nothing to undo</div>
            ) : effect.compensation ? (
              <div className="effect-compensation">
                <code className="mono" title={effect.compensation}>
                  {effect.compensation}
                </code>
                <CopyButton text={effect.compensation} label="Copy the compensation command" />
              </div>
            ) : (
              <div className="effect-compensation none">No known compensation</div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
