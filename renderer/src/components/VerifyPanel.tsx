// The selected checkpoint's verification (run it, see the outcome and its
// output), a fork button, and "find where it broke": a background bisect
// between the newest older checkpoint that passed and this failing one, with
// progress, cancel, and the two-step restore of either end.
import type { Checkpoint, VerificationRecord } from '../../../shared/model.js';
import { absoluteTime, shortId } from '../lib/time.js';
import { useTimeline } from '../state/timeline.js';
import { titledWithId } from '../lib/checkpoint-title.js';
import { useVerify, type BisectJob } from '../state/verify.js';
import { CopyButton, InlineError } from './bits.js';
import { Icon } from './Icon.js';
import { RestoreControls, TREE_IDS } from './Restore.js';
import { VerifierSetting } from './VerifierSetting.js';
import { useSettings } from '../state/settings.js';
import { create } from 'zustand';

/** Workspaces whose verify panel the person opened while it had nothing to say (to set a verifier). */
const useOpened = create<{ workspaces: string[]; open(workspace: string): void }>()((set) => ({
  workspaces: [],
  open: (workspace) => set((s) => ({ workspaces: [...s.workspaces, workspace] })),
}));

/**
 * Whether the panel has nothing to say: no verifier set, no result, nothing running. Then it takes no
 * line above the diff; its two buttons sit in the details head (VerifyButtons) and Verify opens it.
 */
function useVerifyQuiet(workspace: string, id: string): boolean {
  const verifier = useSettings((s) => s.settings?.verifier[workspace]);
  const busy = useVerify((s) => s.byId[id] !== undefined || s.running[id] === true || s.errors[id] !== undefined || s.forks[id] !== undefined || s.bisect?.workspace === workspace);
  const opened = useOpened((s) => s.workspaces.includes(workspace));
  return !verifier && !busy && !opened;
}

/** Verify and Fork in the details head while the panel is quiet: Verify opens it to set a verifier. */
export function VerifyButtons({ workspace, checkpoint }: { workspace: string; checkpoint: Checkpoint }) {
  const quiet = useVerifyQuiet(workspace, checkpoint.id);
  const forkIt = useVerify((s) => s.fork);
  if (!quiet) return null;
  return (
    <>
      <button type="button" className="button button-subtle" data-testid="verify-button" title="No verifier is set for this workspace: set one to verify checkpoints" onClick={() => useOpened.getState().open(workspace)}>
        Verify…
      </button>
      <button type="button" className="button button-subtle" data-testid="fork-button" onClick={() => void forkIt(workspace, checkpoint.id)} title="Write this checkpoint's files into a new folder beside the workspace">
        <Icon name="copy" size={12} /> <span className="button-label">Fork</span>
      </button>
    </>
  );
}

// Their own test ids (the details head has the tree's); the preview is the tree's one panel.
const GOOD_IDS = { button: 'bisect-restore-good', confirm: 'bisect-restore-good-confirm', preview: TREE_IDS.preview };
const BAD_IDS = { button: 'bisect-restore-bad', confirm: 'bisect-restore-bad-confirm', preview: TREE_IDS.preview };

/** The newest checkpoint older than `id` whose latest run passed: the good end of a bisect. */
function lastPassingBefore(checkpoints: Checkpoint[], byId: Record<string, VerificationRecord>, id: string): Checkpoint | undefined {
  const i = checkpoints.findIndex((c) => c.id === id);
  if (i < 0) return undefined;
  return checkpoints.slice(i + 1).find((c) => byId[c.id]?.passed === true);
}

export function VerifyPanel({ workspace, checkpoint }: { workspace: string; checkpoint: Checkpoint }) {
  const record = useVerify((s) => s.byId[checkpoint.id]);
  const running = useVerify((s) => s.running[checkpoint.id] === true);
  const error = useVerify((s) => s.errors[checkpoint.id]);
  const fork = useVerify((s) => s.forks[checkpoint.id]);
  const bisect = useVerify((s) => (s.bisect?.workspace === workspace ? s.bisect : null));
  const byId = useVerify((s) => s.byId);
  const checkpoints = useTimeline((s) => s.checkpoints);
  const { verify, fork: forkIt, startBisect } = useVerify.getState();
  const good = record && !record.passed ? lastPassingBefore(checkpoints, byId, checkpoint.id) : undefined;
  const quiet = useVerifyQuiet(workspace, checkpoint.id);
  if (quiet) return null;

  return (
    <section className="verify-panel" aria-label="Verification" data-testid="verify-panel">
      <div className="verify-row">
        <VerifyStatus record={record} running={running} />
        <span className="verify-actions">
          <button type="button" className="button button-subtle small" data-testid="verify-button" disabled={running} onClick={() => void verify(workspace, checkpoint.id)} title="Run this workspace's verifier (Settings → verifier) on a scratch copy of this checkpoint">
            {running ? 'Verifying…' : record ? 'Verify again' : 'Verify'}
          </button>
          <button type="button" className="button button-subtle small" data-testid="fork-button" onClick={() => void forkIt(workspace, checkpoint.id)} title="Write this checkpoint's files into a new folder beside the workspace">
            <Icon name="copy" size={12} /> Fork
          </button>
          {record && !record.passed && (
            <button
              type="button"
              className="button button-subtle small"
              data-testid="bisect-button"
              disabled={!good || (bisect !== null && (bisect.status === 'running' || bisect.status === 'starting'))}
              title={good ? `Verify checkpoints between ${shortId(good.id)} (passed) and this one to find the first failing one` : 'Verify an older checkpoint that passes first: it is where the search starts'}
              onClick={() => good && void startBisect(workspace, good.id, checkpoint.id)}
            >
              Find where it broke
            </button>
          )}
        </span>
      </div>
      <VerifierSetting workspace={workspace} />
      {error && <InlineError message={error} />}
      {fork && (
        <div className="verify-note" data-testid="fork-result">
          Forked {shortId(fork.id)} into <code>{fork.path}</code> <CopyButton text={fork.path} label="Copy the fork's path" />
        </div>
      )}
      {record?.dependencies_changed && <DependenciesChanged paths={record.dependencies_changed_paths ?? []} />}
      {record && <VerifyOutput record={record} />}
      {bisect && <BisectStatus job={bisect} workspace={workspace} />}
    </section>
  );
}

function VerifyStatus({ record, running }: { record: VerificationRecord | undefined; running: boolean }) {
  if (running) return <span className="verify-status" data-testid="verify-status">Running the verifier on a scratch copy…</span>;
  if (!record) return <span className="verify-status muted" data-testid="verify-status">Not verified</span>;
  return (
    <span className={`verify-status ${record.passed ? 'verify-pass' : 'verify-fail'}`} data-testid="verify-status">
      <Icon name={record.passed ? 'check' : 'alert'} size={12} />
      {record.passed ? 'Passed' : record.timed_out ? 'Failed (time limit)' : `Failed${record.exit_code === null ? '' : ` (exit ${record.exit_code})`}`}
      <span className="muted">
        {' '}
        · <code>{record.command}</code> · {(record.duration_ms / 1000).toFixed(1)} s · {absoluteTime(record.time_ms)}
      </span>
    </span>
  );
}

/** The verifier wrote into dependencies linked from the workspace (no copy-on-write clone was possible): the person's own copy changed. */
function DependenciesChanged({ paths }: { paths: string[] }) {
  return (
    <div className="banner banner-warning banner-stacked" data-testid="verify-dependencies-changed" role="status">
      <span>
        <Icon name="alert" size={12} /> The verifier changed the workspace's own dependencies (they were linked into the copy, not cloned): {paths.length} path
        {paths.length === 1 ? '' : 's'}
      </span>
      <ul className="verify-changed-paths">
        {paths.slice(0, 10).map((p) => (
          <li key={p}>
            <code>{p}</code>
          </li>
        ))}
        {paths.length > 10 && <li className="muted">…</li>}
      </ul>
    </div>
  );
}

function VerifyOutput({ record }: { record: VerificationRecord }) {
  return (
    <details className="verify-output" open={!record.passed}>
      <summary>Output (last lines){record.notes.length > 0 ? ` · ${record.notes.length} note${record.notes.length === 1 ? '' : 's'}` : ''}</summary>
      {record.notes.map((n) => (
        <div key={n} className="verify-note">
          {n}
        </div>
      ))}
      <pre data-testid="verify-output">{record.output_tail || '(no output)'}</pre>
      <div className="verify-note muted">
        Full output: <code>{record.log}</code>
      </div>
    </details>
  );
}

function BisectStatus({ job, workspace }: { job: BisectJob; workspace: string }) {
  const { cancelBisect, dismissBisect } = useVerify.getState();
  const select = useTimeline((s) => s.select);
  const all = useTimeline((s) => s.checkpoints);
  if (job.status === 'starting' || job.status === 'running') {
    return (
      <div className="banner banner-info bisect" data-testid="bisect-progress" aria-live="polite">
        <span className="spinner" aria-hidden="true" />
        <span>
          Finding where it broke between {titledWithId(all, job.good)} and {titledWithId(all, job.bad)}: {job.message} ({job.runs} run{job.runs === 1 ? '' : 's'} so far, at most {job.remaining_at_most} more)
        </span>
        <button type="button" className="button button-subtle small" data-testid="bisect-cancel" onClick={() => void cancelBisect()}>
          Cancel
        </button>
      </div>
    );
  }
  if (job.status !== 'done' || !job.result) {
    return (
      <div className={`banner ${job.status === 'cancelled' ? 'banner-info' : 'banner-error'} bisect`} data-testid="bisect-ended">
        <span>{job.status === 'cancelled' ? 'The search was cancelled.' : `The search failed: ${job.error ?? 'unknown error'}`}</span>
        <button type="button" className="button button-subtle small" onClick={dismissBisect}>
          Dismiss
        </button>
      </div>
    );
  }
  const { first_bad, last_good, runs } = job.result;
  return (
    <div className="banner banner-warning banner-stacked bisect" data-testid="bisect-result">
      <span>
        It broke at <strong>{titledWithId(all, first_bad)}</strong>; the last passing checkpoint is <strong>{titledWithId(all, last_good)}</strong> ({runs.length} verifier run{runs.length === 1 ? '' : 's'}).
        Selecting the failing one shows exactly what changed since the passing one.
      </span>
      <span className="verify-actions">
        <button type="button" className="button button-subtle small" data-testid="bisect-show" onClick={() => select(first_bad)}>
          Show what changed
        </button>
        <RestoreControls workspace={workspace} id={last_good} scope="tree" label="Restore the passing one…" ids={GOOD_IDS} />
        <RestoreControls workspace={workspace} id={first_bad} scope="tree" label="Restore the failing one…" ids={BAD_IDS} />
        <button type="button" className="button button-subtle small" onClick={dismissBisect}>
          Dismiss
        </button>
      </span>
    </div>
  );
}
