// The gear button and the settings dialog it opens: a modal (the app behind it
// is inert, Tab cycles inside, Escape or Cancel closes) whose Save sends only
// the changed keys. Settings are the store's, so they apply to every workspace.
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { Settings } from '../../../shared/settings.js';
import { useSettings } from '../state/settings.js';
import { useToasts } from '../state/toasts.js';
import {
  changedPatch,
  EXCLUDES_LIMITS,
  fromForm,
  NUMBER_FIELDS,
  rangeLabel,
  readable,
  toForm,
  type FormErrors,
  type NumberFieldKey,
  type SettingsForm,
} from '../lib/settings-form.js';
import { InlineError, Skeleton } from './bits.js';
import { Icon } from './Icon.js';
import { StoreUsage } from './StoreUsage.js';
import { RecentlyRemoved } from './RecentlyRemoved.js';
import { ShareSetting } from './ShareSetting.js';

export function SettingsButton() {
  const show = useSettings((s) => s.show);
  return (
    <button
      type="button"
      className="icon-button settings-button"
      aria-label="Settings"
      title="Settings"
      aria-haspopup="dialog"
      data-testid="settings-button"
      onClick={show}
    >
      <Icon name="gear" size={15} />
    </button>
  );
}

export function SettingsDialog() {
  const open = useSettings((s) => s.open);
  return open ? createPortal(<Modal />, document.body) : null;
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

function Modal() {
  const hide = useSettings((s) => s.hide);
  const status = useSettings((s) => s.status);
  const settings = useSettings((s) => s.settings);
  const loadError = useSettings((s) => s.loadError);
  const load = useSettings((s) => s.load);
  const panelRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descId = useId();

  // Modal for real: the app behind is inert (no clicks, no focus, hidden from
  // assistive tech) and focus goes back where it came from on close.
  useEffect(() => {
    const root = document.getElementById('root');
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    root?.setAttribute('inert', '');
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        hide();
      } else if (e.key === 'Tab') {
        trapTab(e, panelRef.current);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      root?.removeAttribute('inert');
      opener?.focus();
    };
  }, [hide]);

  // Until the form is there, the panel holds focus so Escape and Tab work at once.
  useEffect(() => {
    if (!panelRef.current?.contains(document.activeElement)) panelRef.current?.focus();
  }, []);

  return (
    <div className="modal-backdrop">
      <div
        ref={panelRef}
        className="modal settings-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={descId}
        tabIndex={-1}
        data-testid="settings-dialog"
      >
        <div className="modal-head">
          <div>
            <h2 id={titleId}>Settings</h2>
            <p id={descId} className="muted small-text">
              Kept in the store's <code>config.json</code>; they apply to every workspace.
            </p>
          </div>
          <button type="button" className="icon-button" aria-label="Close settings" title="Close" onClick={hide}>
            <Icon name="x" size={14} />
          </button>
        </div>
        {status === 'ready' && settings ? (
          <SettingsFormView settings={settings} />
        ) : status === 'error' ? (
          <div className="modal-body">
            <InlineError message={loadError ?? 'Could not read the settings'} onRetry={() => void load()} />
          </div>
        ) : (
          <div className="modal-body">
            <Skeleton lines={6} />
          </div>
        )}
      </div>
    </div>
  );
}

/** Keeps Tab and Shift+Tab inside the panel, wrapping at both ends. */
function trapTab(e: KeyboardEvent, panel: HTMLElement | null): void {
  if (!panel) return;
  const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) {
    e.preventDefault();
    panel.focus();
    return;
  }
  const active = document.activeElement;
  const inside = active instanceof Node && panel.contains(active);
  if (e.shiftKey && (active === first || active === panel || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (active === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}

function SettingsFormView({ settings }: { settings: Settings }) {
  const hide = useSettings((s) => s.hide);
  const save = useSettings((s) => s.save);
  const saving = useSettings((s) => s.saving);
  const saveError = useSettings((s) => s.saveError);
  const [form, setForm] = useState<SettingsForm>(() => toForm(settings));
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // Errors appear once Save was pressed, then follow the typing.
  const result = fromForm(form, settings);
  const errors: FormErrors = submitted && !result.ok ? result.errors : {};

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, textarea')?.focus();
  }, []);

  const update = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!result.ok) {
      // Focus the first field in error so its message is read out.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const patch = changedPatch(settings, result.settings);
    const changed = Object.keys(patch).length > 0;
    if (await save(patch)) {
      hide();
      if (changed) useToasts.getState().push({ tone: 'success', title: 'Settings saved' });
    }
  };

  const number = (key: NumberFieldKey, label: string, hint: string) => (
    <NumberField key={key} field={key} label={label} hint={hint} value={form[key]} error={errors[key]} onChange={(v) => update(key, v)} />
  );

  return (
    <form ref={formRef} className="settings-form" noValidate onSubmit={(e) => void submit(e)}>
      <div className="modal-body">
        <Group title="Automatic checkpoints" note="While a workspace is watched, a checkpoint is taken once its files stop changing.">
          {number('quiet_s', 'Quiet period', 'How long files must stay unchanged before the checkpoint is taken.')}
          {number('max_wait_s', 'Maximum wait', 'During continuous changes, a checkpoint is taken at least this often.')}
        </Group>

        <Group title="Store" note="What goes into checkpoints, for checkpoints taken from now on.">
          {number('max_file_mb', 'Maximum file size', 'Larger files are left out; the checkpoint names them.')}
          <CredentialsToggle checked={form.include_credentials} onChange={(v) => update('include_credentials', v)} />
          <ExcludesField value={form.extra_excludes} error={errors.extra_excludes} onChange={(v) => update('extra_excludes', v)} />
        </Group>

        <Group
          title="Retention"
          note="Nothing younger than 30 days is removed on its own. Older checkpoints are thinned to one per hour per lane (one per day after 90 days); whole ones go only when the store outgrows its budget. Pinned checkpoints, the newest, the first and last of each agent session and any an effect or a pending approval names are always kept. Whatever goes stays in the trash for 14 days: Undo below brings it back."
        >
          <StoreUsage />
          {number('max_checkpoints', 'Checkpoints per workspace', 'Your own limit: beyond this count the oldest go, at any age. Blank: no limit.')}
          {number('max_age_days', 'Maximum age', 'Your own limit: checkpoints older than this go. Blank or 0: no limit.')}
          {number('max_store_mb', 'Store budget', 'Past this, the oldest trash and then the oldest thinned checkpoints go. Blank: the smaller of 10 GB and 10 % of the free disk.')}
          <RecentlyRemoved />
        </Group>

        <Group title="Team" note="Checkpoints shared over the workspace's own git remote, read by teammates with chronoscope share pull.">
          <ShareSetting />
          {number('share_pull_min', "Bring teammates' checkpoints", "How often the open app fetches teammates' shared checkpoints from the remote (their file contents come only when you open one). 0: only with chronoscope share pull.")}
        </Group>

        <Group title="Verify and bisect">
          {number('verify_timeout_s', 'Verifier time limit', 'A verifier run is stopped after this long and counts as failed.')}
        </Group>

        <Group title="Agent hooks">
          {number('hook_budget_s', 'Time budget', 'How long a hook may take its checkpoint before it lets the agent go on without one.')}
          <DaemonToggle checked={form.daemon} onChange={(v) => update('daemon', v)} />
          {number('daemon_idle_min', 'Background service idle exit', 'The background service leaves after this long with no hook call.')}
        </Group>
      </div>

      <div className="modal-foot">
        {saveError && (
          <div className="modal-error" role="alert" data-testid="settings-error">
            <Icon name="alert" size={14} />
            <span>{saveError}</span>
          </div>
        )}
        <span className="spacer" />
        <button type="button" className="button" onClick={hide} data-testid="settings-cancel">
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={saving} data-testid="settings-save">
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

function Group({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  return (
    <fieldset className="settings-group">
      <legend className="section-title">{title}</legend>
      {note && <p className="settings-note muted">{note}</p>}
      <div className="settings-fields">{children}</div>
    </fieldset>
  );
}

function NumberField(props: {
  field: NumberFieldKey;
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
  onChange(value: string): void;
}) {
  const { field, label, hint, value, error, onChange } = props;
  const id = useId();
  const spec = NUMBER_FIELDS[field];
  const unit = spec.unit ? ` ${spec.unit}` : '';
  return (
    <div className="settings-field">
      <label className="settings-label" htmlFor={id}>
        {label}
      </label>
      <div className="settings-control">
        <input
          id={id}
          className="input settings-number"
          inputMode={spec.integer && spec.scale === 1 ? 'numeric' : 'decimal'}
          autoComplete="off"
          spellCheck={false}
          value={value}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          data-testid={`settings-${field}`}
          onChange={(e) => onChange(e.target.value)}
        />
        {spec.unit && <span className="settings-unit">{spec.unit}</span>}
      </div>
      <p id={`${id}-hint`} className="settings-hint">
        {hint} <span className="settings-range">{rangeLabel(spec)} · default {spec.fallback === null ? 'off (leave blank)' : `${readable(spec.fallback / spec.scale)}${unit}`}</span>
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error settings-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** An on/off setting: the switch, its label, and a note that may change with it (read out with the switch). */
function SwitchField(props: { testId: string; label: string; checked: boolean; onChange(value: boolean): void; note: (noteId: string) => ReactNode }) {
  const { testId, label, checked, onChange, note } = props;
  const id = useId();
  return (
    <div className="settings-field settings-wide">
      <label className="settings-switch" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={checked}
          aria-describedby={`${id}-note`}
          data-testid={testId}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="settings-label">{label}</span>
      </label>
      {note(`${id}-note`)}
    </div>
  );
}

function CredentialsToggle({ checked, onChange }: { checked: boolean; onChange(value: boolean): void }) {
  return (
    <SwitchField
      testId="settings-include_credentials"
      label="Keep credential files in checkpoints"
      checked={checked}
      onChange={onChange}
      note={(noteId) =>
        checked ? (
          <div id={noteId} className="settings-warning" data-testid="settings-credentials-warning">
            <Icon name="alert" size={14} />
            <span>
              <strong>Secrets will be copied into the store.</strong> <code>.env</code> files, private keys, <code>.npmrc</code>,{' '}
              <code>.netrc</code>, cloud credentials… are kept unencrypted in every checkpoint until it is pruned.
            </span>
          </div>
        ) : (
          <p id={noteId} className="settings-hint">
            Off: <code>.env</code> files, private keys, <code>.npmrc</code> and similar stay out of the store.
          </p>
        )
      }
    />
  );
}

function DaemonToggle({ checked, onChange }: { checked: boolean; onChange(value: boolean): void }) {
  return (
    <SwitchField
      testId="settings-daemon"
      label="Start the background service from hooks"
      checked={checked}
      onChange={onChange}
      note={(noteId) => (
        <p id={noteId} className="settings-hint">
          {checked
            ? 'When no window is open, the first hook call starts chronoscope daemon, so later calls take cheap checkpoints. It leaves when idle.'
            : 'Off: no background process. Without an open window, every hook call scans the whole workspace itself.'}
        </p>
      )}
    />
  );
}

function ExcludesField({ value, error, onChange }: { value: string; error: string | undefined; onChange(value: string): void }) {
  const id = useId();
  return (
    <div className="settings-field settings-wide">
      <label className="settings-label" htmlFor={id}>
        Extra exclude patterns
      </label>
      <textarea
        id={id}
        className="input textarea mono"
        rows={4}
        spellCheck={false}
        placeholder={'dist/\n*.log'}
        value={value}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        data-testid="settings-extra_excludes"
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-hint`} className="settings-hint">
        One per line, <code>.gitignore</code> syntax; blank lines are ignored. Up to {EXCLUDES_LIMITS.maxPatterns} patterns.
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error settings-error">
          {error}
        </p>
      )}
    </div>
  );
}
