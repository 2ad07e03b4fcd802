import { useToasts } from '../state/toasts.js';
import { CopyButton } from './bits.js';
import { Icon } from './Icon.js';
import { useEffects } from '../state/effects.js';

export function Toasts() {
  const toasts = useToasts((s) => s.toasts);
  const dismiss = useToasts((s) => s.dismiss);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`} data-testid="toast">
          <Icon name={t.tone === 'warning' ? 'zap' : t.tone === 'success' ? 'check' : 'bell'} size={14} className="toast-icon" />
          <div className="toast-body">
            <div className="toast-title">{t.title}</div>
            {t.body && <div className="toast-text">{t.body}</div>}
            {t.command && (
              <div className="toast-command">
                <span className="muted">Undo with</span>
                <code className="mono">{t.command}</code>
                <CopyButton text={t.command} />
              </div>
            )}
            {t.showsEffects && (
              <button type="button" className="link-button small" data-testid="toast-show-effects" onClick={() => useEffects.getState().setPanelOpen(true)}>
                Show all effects
              </button>
            )}
          </div>
          {t.action && (
            <button
              type="button"
              className="button small"
              data-testid="toast-action"
              onClick={() => {
                dismiss(t.id);
                void t.action?.run();
              }}
            >
              {t.action.label}
            </button>
          )}
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            <Icon name="x" size={12} />
          </button>
        </div>
      ))}
    </div>
  );
}
