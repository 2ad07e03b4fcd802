// The two-step restore controls, preview and result banner. The first click
// only arms and shows the preview; only a second click inside the window runs
// the restore. Used for the whole tree and, with paths, for one file; the
// result banner's undo asks and confirms in the banner itself.
import { useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import type { RestorePreviewWithEffects } from '../../../shared/ipc.js';
import { useRestore, type ArmedRestore, type RestoreOrigin, type RestoreScope } from '../state/restore.js';
import { useTimeline } from '../state/timeline.js';
import { useDiff } from '../state/diff.js';
import { useToasts } from '../state/toasts.js';
import { namedIn, restoreDoneText } from '../lib/checkpoint-title.js';
import { effectKindLabel } from '../lib/effects.js';
import { restoreLeftAlone, type LeftAloneGroup } from '../lib/left-out.js';
import { CopyButton, InlineError, Skeleton } from './bits.js';
import { Icon } from './Icon.js';
import { PathDisclosure } from './PathDisclosure.js';

/** A guard against a double-click landing on the confirm button the instant it appears. */
const CONFIRM_GUARD_MS = 400;

interface TestIds {
  button: string;
  confirm: string;
  preview: string;
}

export const TREE_IDS: TestIds = { button: 'restore-button', confirm: 'restore-confirm', preview: 'restore-preview' };
export const FILE_IDS: TestIds = { button: 'restore-file-button', confirm: 'restore-file-confirm', preview: 'restore-file-preview' };
export const PROMPT_IDS: TestIds = { button: 'restore-prompt-button', confirm: 'restore-prompt-confirm', preview: 'restore-prompt-preview' };
export const UNDO_IDS: TestIds = { button: 'restore-undo', confirm: 'restore-undo-confirm', preview: 'restore-undo-preview' };

function matches(armed: ArmedRestore | null, workspace: string, id: string, scope: RestoreScope, paths?: string[], origin?: RestoreOrigin): armed is ArmedRestore {
  return (
    !!armed &&
    armed.workspace === workspace &&
    armed.id === id &&
    armed.scope === scope &&
    armed.origin === origin &&
    (armed.paths ?? []).join('\n') === (paths ?? []).join('\n')
  );
}

/**
 * Which armed restore's warnings (deletions, effects that stay true outside) were
 * on screen: Confirm waits for them, so a short window cannot confirm unseen deletions.
 */
const useWarningsSeen = create<{ key: string | null; saw(key: string): void }>()((set) => ({
  key: null,
  saw: (key) => set({ key }),
}));

function armedKey(armed: ArmedRestore): string {
  return [armed.workspace, armed.id, armed.scope, armed.origin ?? '', ...(armed.paths ?? [])].join('\n');
}

function useNow(active: boolean, everyMs = 200): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}

export function RestoreControls({
  workspace,
  id,
  scope,
  paths,
  label,
  ids,
  origin,
  prompt,
  beforeArm,
}: {
  workspace: string;
  id: string;
  scope: RestoreScope;
  paths?: string[];
  label: string;
  ids: TestIds;
  origin?: RestoreOrigin;
  /** "Restore to before this prompt": the prompt's id, which names the restore. */
  prompt?: string;
  /** Runs before arming (the undo first shows the safety checkpoint it restores). */
  beforeArm?: () => Promise<void>;
}) {
  const armed = useRestore((s) => s.armed);
  const running = useRestore((s) => s.running);
  const arm = useRestore((s) => s.arm);
  const disarm = useRestore((s) => s.disarm);
  const confirm = useRestore((s) => s.confirm);
  const isArmed = matches(armed, workspace, id, scope, paths, origin);
  const now = useNow(isArmed);
  const seenKey = useWarningsSeen((s) => s.key);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const [readyAt, setReadyAt] = useState<number | null>(null);
  const previewReady = isArmed && armed.preview.status === 'ready';

  useEffect(() => {
    if (previewReady) {
      setReadyAt(Date.now());
      const timer = setTimeout(() => setReadyAt((t) => t), CONFIRM_GUARD_MS + 20);
      return () => clearTimeout(timer);
    }
    setReadyAt(null);
    return undefined;
  }, [previewReady]);

  // Escape disarms from anywhere while armed.
  useEffect(() => {
    if (!isArmed) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') disarm();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isArmed, disarm]);

  // Keyboard focus follows the button that replaced the one just pressed.
  useEffect(() => {
    if (isArmed) confirmRef.current?.focus();
  }, [isArmed]);

  if (!isArmed) {
    return (
      <button
        type="button"
        className={origin === 'undo' ? 'button button-subtle small' : 'button button-restore'}
        data-testid={ids.button}
        disabled={running}
        onClick={() =>
          void (async () => {
            await beforeArm?.();
            await arm(workspace, id, scope, paths, origin, prompt);
          })()
        }
        title="Shows what would change first; nothing is written until you confirm"
      >
        {origin !== 'undo' && <Icon name="restore" size={14} />} {label}
      </button>
    );
  }

  const guarded = readyAt === null || now - readyAt < CONFIRM_GUARD_MS;
  const unseen = seenKey !== armedKey(armed);
  const disabled = running || armed.preview.status !== 'ready' || guarded || unseen;
  const onConfirm = async () => {
    const undoing = armed.origin === 'undo';
    const outcome = await confirm();
    if (outcome) {
      useDiff.getState().invalidateWorkspace();
      const refreshed = useTimeline.getState().refresh();
      // After an undo, the state it brought back is what shows (not the safety checkpoint it restored, whose own change is empty).
      const broughtBack = outcome.result.checkpoint;
      if (undoing && broughtBack !== null) void refreshed.then(() => useTimeline.getState().select(broughtBack));
      const leftAlone = restoreLeftAlone(outcome.result);
      useToasts.getState().push({
        // Not the 'warning' tone: that one marks irreversible effects. The banner carries the warning.
        tone: leftAlone.length > 0 ? 'info' : 'success',
        title: restoreDoneText(useTimeline.getState().checkpoints, outcome.result.restored, outcome.scope === 'file' ? (outcome.paths?.[0] ?? 'the file') : 'the workspace'),
        body:
          `${outcome.result.files_changed} file${outcome.result.files_changed === 1 ? '' : 's'} changed` +
          (leftAlone.length > 0 ? ` · ${leftAloneCount(leftAlone)} left as they were, see the banner` : ' · undo from the banner'),
      });
    }
  };

  // Why Confirm cannot be pressed yet, written beside it (not only in a tooltip).
  const reason = running
    ? null
    : armed.preview.status === 'loading'
      ? 'Waiting for the preview of what changes'
      : armed.preview.status === 'error'
        ? 'The preview failed: nothing can be confirmed'
        : unseen
          ? 'Scroll the preview to what the restore deletes first'
          : null;
  return (
    <span className="restore-armed">
      <button
        ref={confirmRef}
        type="button"
        className="button button-danger"
        data-testid={ids.confirm}
        disabled={disabled}
        aria-describedby={reason ? `${ids.confirm}-reason ${ids.preview}-region` : `${ids.preview}-region`}
        data-waits-for={unseen && armed.preview.status === 'ready' ? 'preview' : undefined}
        title={reason ?? undefined}
        onClick={() => void onConfirm()}
      >
        <Icon name="restore" size={14} />
        {running ? 'Restoring…' : armed.preview.status === 'loading' ? 'Preparing preview…' : `Confirm restore`}
      </button>
      <button type="button" className="button button-subtle" onClick={disarm} disabled={running} title="Cancel (Esc)" data-testid={`${ids.confirm}-cancel`}>
        Cancel
      </button>
      {reason && (
        <span className="confirm-reason muted small-text" id={`${ids.confirm}-reason`} data-testid={`${ids.confirm}-reason`}>
          {reason}
        </span>
      )}
    </span>
  );
}

export function RestorePreviewPanel({ scope, ids, origin }: { scope: RestoreScope; ids: TestIds; origin?: RestoreOrigin }) {
  const armed = useRestore((s) => s.armed);
  const checkpoints = useTimeline((s) => s.checkpoints);
  const [expanded, setExpanded] = useState(false);
  if (!armed || armed.scope !== scope || armed.origin !== origin) return null;
  const what = scope === 'file' ? (armed.paths?.[0] ?? 'this file') : 'the workspace';
  return (
    <section className="restore-preview" id={`${ids.preview}-region`} data-testid={ids.preview} aria-label="Restore preview" aria-live="polite">
      <div className="restore-preview-head">
        <Icon name="alert" size={14} />
        <strong>
          {origin === 'undo'
            ? `Undo the restore: put ${what} back as it was before it?`
            : origin === 'prompt'
              ? `Restore ${what} to before this prompt, ${namedIn(checkpoints, armed.id)}?`
              : `Restore ${what} to ${namedIn(checkpoints, armed.id)}?`}
        </strong>
        <span className="muted">A safety checkpoint is taken first, so this can be undone. Esc cancels.</span>
      </div>
      {armed.preview.status === 'loading' && <Skeleton lines={3} />}
      {armed.preview.status === 'error' && <InlineError message={armed.preview.error} />}
      {armed.preview.status === 'ready' && (
        <PreviewBody preview={armed.preview.value} expanded={expanded} onExpand={() => setExpanded(true)} seenKey={armedKey(armed)} />
      )}
    </section>
  );
}

const SHOWN = 6;

/** Marks where the warnings end: once it has been on screen, Confirm is enabled. */
function SeenMark({ seenKey }: { seenKey: string }) {
  const mark = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = mark.current;
    if (!el) return;
    const saw = () => useWarningsSeen.getState().saw(seenKey);
    if (typeof IntersectionObserver === 'undefined') {
      saw();
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        saw();
        observer.disconnect();
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [seenKey]);
  return <div ref={mark} className="preview-seen-mark" data-testid="restore-warnings-end" aria-hidden="true" />;
}

function PreviewBody({ preview, expanded, onExpand, seenKey }: { preview: RestorePreviewWithEffects; expanded: boolean; onExpand: () => void; seenKey: string }) {
  // What is lost first (deletions, then what stays true outside), what is overwritten after:
  // in a short window the warnings are what shows.
  const groups: { key: string; title: string; files: string[]; tone: string }[] = [
    { key: 'deleted', title: 'Deleted', files: preview.deleted, tone: 'D' },
    { key: 'untracked', title: preview.keep_untracked ? 'New files (kept)' : 'New since the latest checkpoint (removed)', files: preview.untracked_removed, tone: 'U' },
    { key: 'modified', title: 'Modified (overwritten)', files: preview.modified, tone: 'M' },
    { key: 'added', title: 'Added back', files: preview.added, tone: 'A' },
  ];
  const total = preview.modified.length + preview.added.length + preview.deleted.length + (preview.keep_untracked ? 0 : preview.untracked_removed.length);
  const lost = new Set(['deleted', 'untracked']);
  const groupList = (keys: (key: string) => boolean) => {
    const shown = groups.filter((g) => keys(g.key) && g.files.length > 0);
    if (shown.length === 0) return null;
    return (
      <div className="preview-groups">
        {shown.map((g) => (
          <div key={g.key} className="preview-group" data-group={g.key}>
            <div className="preview-group-title">
              {g.title} <span className="count">{g.files.length}</span>
            </div>
            <ul>
              {(expanded ? g.files : g.files.slice(0, SHOWN)).map((f) => (
                <li key={f} className="mono" title={f}>
                  <span className={`status-letter status-${g.tone}`}>{g.tone}</span> {f}
                </li>
              ))}
            </ul>
            {!expanded && g.files.length > SHOWN && (
              <button type="button" className="link-button small" onClick={onExpand}>
                +{g.files.length - SHOWN} more
              </button>
            )}
          </div>
        ))}
      </div>
    );
  };
  const counts = groups.filter((g) => g.files.length > 0 && !(g.key === 'untracked' && preview.keep_untracked));
  return (
    <>
      {total === 0 ? (
        <p className="preview-nothing">The files already match this checkpoint — nothing on disk would change.</p>
      ) : (
        <p className="preview-summary" data-testid="restore-summary">
          {counts.map((g) => `${g.title.replace(/ \(.*\)$/, '')} ${g.files.length}`).join(' · ')}
          {preview.effects_since.length > 0 && ` · ${preview.effects_since.length} effect${preview.effects_since.length === 1 ? '' : 's'} stay${preview.effects_since.length === 1 ? 's' : ''} true outside`}
        </p>
      )}
      {preview.effects_since.length > 0 && (
        <div className="preview-effects" data-testid="restore-effects-since">
          <div className="preview-effects-title">
            <Icon name="zap" size={14} /> Files will be restored; these stay true outside:
          </div>
          <ul>
            {preview.effects_since.map((e) => (
              <li key={e.id}>
                <span className="effect-kind">{effectKindLabel(e.kind)}</span> <span className="mono">{e.target}</span>
                {e.compensation ? (
                  <span className="effect-compensation">
                    <code className="mono">{e.compensation}</code>
                    <CopyButton text={e.compensation} />
                  </span>
                ) : (
                  <span className="muted"> — no known compensation</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {groupList((k) => lost.has(k))}
      {preview.changed_since_restore && preview.changed_since_restore.length > 0 && (
        <div className="preview-effects" data-testid="restore-changed-since">
          <div className="preview-effects-title">
            <Icon name="alert" size={14} /> Changed since that restore — undoing it reverts these too:
          </div>
          <ul>
            {preview.changed_since_restore.map((f) => (
              <li key={f} className="mono">
                {f}
              </li>
            ))}
          </ul>
        </div>
      )}
      <SeenMark seenKey={seenKey} />
      {groupList((k) => !lost.has(k))}
    </>
  );
}

/** After a restore: what happened, and the way back (through the same two steps). */
export function RestoreOutcomeBanner() {
  const outcome = useRestore((s) => s.outcome);
  const error = useRestore((s) => s.error);
  const dismiss = useRestore((s) => s.dismissOutcome);
  const clearError = useRestore((s) => s.clearError);
  const checkpoints = useTimeline((s) => s.checkpoints);

  if (error) {
    return (
      <div className="banner banner-error" role="alert">
        <Icon name="alert" size={14} />
        <span>Restore failed: {error}. Nothing was changed.</span>
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={clearError}>
          <Icon name="x" size={12} />
        </button>
      </div>
    );
  }
  if (!outcome) return null;
  const { result } = outcome;
  // The undo shows the safety checkpoint it restores, then asks here, in the banner.
  const showSafety = async () => {
    const timeline = useTimeline.getState();
    if (!timeline.checkpoints.some((c) => c.id === result.safety)) await timeline.refresh();
    useTimeline.getState().select(result.safety);
  };
  // A path-limited restore is undone for its paths only, from the safety checkpoint
  // (whatever that checkpoint's own diff lists): other files may have changed since.
  const undoPaths = result.paths ?? outcome.paths;
  const undoScope: RestoreScope = undoPaths ? outcome.scope : 'tree';
  const leftAlone = restoreLeftAlone(result);
  const warn = leftAlone.length > 0;
  return (
    <>
      <div
        className={`banner banner-stacked ${warn ? 'banner-warning' : 'banner-success'}`}
        role="status"
        data-testid="restore-result"
        data-tone={warn ? 'warning' : 'success'}
      >
        <Icon name={warn ? 'alert' : 'check'} size={14} />
        <span>
          <span>
            <span data-testid="restore-result-words">{restoreDoneText(checkpoints, result.restored, outcome.scope === 'file' ? (outcome.paths?.[0] ?? 'the file') : 'the workspace')}</span> —{' '}
            {result.files_changed} file{result.files_changed === 1 ? '' : 's'} changed
            {warn ? `, ${leftAloneCount(leftAlone)} left as they were (below)` : ''}. The state before is kept in a{' '}
            <span data-testid="restore-safety-id" data-id={result.safety}>safety checkpoint</span>.
          </span>
          {leftAlone.map((g) => (
            <PathDisclosure
              key={g.key}
              testId={`restore-${g.key}`}
              summary={g.title}
              hint={g.hint}
              entries={g.paths.map((path) => ({ path }))}
            />
          ))}
        </span>
        <RestoreControls
          workspace={outcome.workspace}
          id={result.safety}
          scope={undoScope}
          {...(undoPaths ? { paths: undoPaths } : {})}
          label="Undo restore…"
          ids={UNDO_IDS}
          origin="undo"
          beforeArm={showSafety}
        />
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={dismiss}>
          <Icon name="x" size={12} />
        </button>
      </div>
      <RestorePreviewPanel scope={undoScope} ids={UNDO_IDS} origin="undo" />
    </>
  );
}

function leftAloneCount(groups: LeftAloneGroup[]): string {
  const n = groups.reduce((sum, g) => sum + g.paths.length, 0);
  return `${n} path${n === 1 ? '' : 's'}`;
}
