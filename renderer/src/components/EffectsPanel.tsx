// The ledger of irreversible effects: what already left the machine, and the
// command that would compensate each one. A panel over the right of the
// window, opened by the header's badge (which carries the count) or from the
// notice of a new effect; the permanent column it had took the diff's room.
import { useEffect, useRef } from 'react';
import { useEffects } from '../state/effects.js';
import { useClock } from '../state/clock.js';
import { useConnection } from '../state/connection.js';
import { useTimeline } from '../state/timeline.js';
import { absoluteTime, relativeTime, shortId } from '../lib/time.js';
import { effectKindLabel, effectStatusLabel } from '../lib/effects.js';
import { CopyButton } from './bits.js';
import { Icon } from './Icon.js';
import type { EffectRecord } from '../../../shared/model.js';

/** The header's badge: the count of effects, and the way to the panel. */
export function EffectsBadge() {
  const count = useEffects((s) => s.list.length);
  const open = useEffects((s) => s.panelOpen);
  const setOpen = useEffects((s) => s.setPanelOpen);
  const label = `Irreversible effects: ${count}`;
  return (
    <button
      type="button"
      className={count > 0 ? 'effects-badge has-effects' : 'effects-badge'}
      aria-expanded={open}
      aria-controls="effects-drawer"
      aria-label={label}
      title={count > 0 ? `${label} — what already left this machine, and how to undo it` : 'Irreversible effects: none yet'}
      data-testid="effects-badge"
      onClick={() => setOpen(!open)}
    >
      <Icon name="zap" size={13} />
      <span className="effects-badge-count">{count}</span>
    </button>
  );
}

/** The panel itself while open; Escape or its close button closes it, and focus goes back to the badge. */
export function EffectsDrawer() {
  const open = useEffects((s) => s.panelOpen);
  const setOpen = useEffects((s) => s.setPanelOpen);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      document.querySelector<HTMLElement>('[data-testid="effects-badge"]')?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, setOpen]);
  if (!open) return null;
  return (
    <div className="effects-drawer" id="effects-drawer" ref={ref} tabIndex={-1} data-testid="effects-drawer">
      <EffectsPanel onClose={() => setOpen(false)} />
    </div>
  );
}

export function EffectsPanel({ onClose }: { onClose: () => void }) {
  const list = useEffects((s) => s.list);
  const status = useEffects((s) => s.status);
  const error = useEffects((s) => s.error);
  const workspace = useEffects((s) => s.workspace);
  const notifications = useEffects((s) => s.notifications);
  const requestNotifications = useEffects((s) => s.requestNotifications);
  const host = useConnection((s) => s.info?.host);
  const now = useClock((s) => s.now);
  const select = useTimeline((s) => s.select);
  const known = useTimeline((s) => s.checkpoints);

  return (
    <section className="effects-panel" data-testid="effects-panel" aria-labelledby="effects-heading">
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
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close the effects panel (Esc)" title="Close (Esc)" data-testid="effects-close">
          <Icon name="x" size={13} />
        </button>
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
            <EffectCause effect={effect} />
            {effect.status === 'nothing_sent' ? (
              <div className="effect-compensation none">Nothing left this machine: nothing to undo</div>
            ) : effect.compensation ? (
              <div className="effect-compensation" data-testid="effect-compensation">
                <code className="mono">{effect.compensation}</code>
                <CopyButton text={effect.compensation} label="Copy the compensation command" />
              </div>
            ) : (
              <div className="effect-compensation none">No known compensation</div>
            )}
            {effect.checkpoint && known.some((c) => c.id === effect.checkpoint) && (
              <button
                type="button"
                className="link-button small"
                data-testid="effect-show"
                title="Select the checkpoint that was latest when this happened"
                onClick={() => select(effect.checkpoint!)}
              >
                Show in timeline
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Who caused it: the agent's session and, for a push, the commits it sent. */
function EffectCause({ effect }: { effect: EffectRecord }) {
  const parts: { key: string; text: string; title: string }[] = [];
  if (effect.agent || effect.session) {
    const who = effect.agent ?? 'agent';
    parts.push({ key: 'session', text: effect.session ? `${who} · session ${effect.session.slice(0, 8)}` : who, title: effect.session ? `Session ${effect.session}` : who });
  }
  if (effect.new_commit) {
    const range = effect.old_commit ? `${shortId(effect.old_commit)}→${shortId(effect.new_commit)}` : shortId(effect.new_commit);
    parts.push({ key: 'commit', text: `commit ${range}`, title: `${effect.old_commit ?? '(new)'} → ${effect.new_commit}` });
  }
  if (parts.length === 0) return null;
  return (
    <div className="effect-cause" data-testid="effect-cause">
      {parts.map((p) => (
        <span key={p.key} className="mono" title={p.title} data-cause={p.key}>
          {p.text}
        </span>
      ))}
    </div>
  );
}
