// The selected checkpoint: what it is, the restore controls, its changed files
// (against the previous checkpoint or the workspace now) and the diff.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { client } from '../state/client.js';
import type { Checkpoint, FileChange, SkippedFile } from '../../../shared/model.js';
import { CHANGE_STATUS_LETTER } from '../../../shared/model.js';
import { wordsIn } from '../lib/checkpoint-title.js';
import { BeforeRestoreNote } from './BeforeRestore.js';
import { leftOutText, precedesCall } from '../../../shared/checkpoint-words.js';
import { indexOfId, previousOf, selectedCheckpoint, useTimeline } from '../state/timeline.js';
import { useDetails, type Loadable } from '../state/details.js';
import { rangeKey, useDiff } from '../state/diff.js';
import { promptBase, selectedPrompt, usePrompts } from '../state/prompts.js';
import { PromptChange } from './PromptChange.js';
import { useWhy, WhyLine, WhyPanel } from './Why.js';
import { useRestore } from '../state/restore.js';
import { useScrub } from '../state/scrub.js';
import { useClock } from '../state/clock.js';
import { absoluteTime, relativeTime, shortId } from '../lib/time.js';
import { dirName, baseName, naturalCompare } from '../lib/paths.js';
import { leftOutNote } from '../lib/left-out.js';
import { useSettings } from '../state/settings.js';
import { CopyButton, InlineError, LineStats, Skeleton, TriggerBadge } from './bits.js';
import { OriginBadge } from './HermesLane.js';
import { Icon } from './Icon.js';
import { RestoreControls, RestoreOutcomeBanner, RestorePreviewPanel, TREE_IDS } from './Restore.js';
import { DiffArea } from './DiffArea.js';
import { PathDisclosure } from './PathDisclosure.js';
import { VerifyButtons, VerifyPanel } from './VerifyPanel.js';
import { Splitter } from './Splitter.js';
import { useBanners } from '../state/banners.js';
import { listFolded, sidebarFolded, useLayout } from '../state/layout.js';
import { hiddenChangeChip, hiddenChangeLabel, modeChangeLabel } from '../lib/change-kind.js';
import { useShortcutMap } from './Shortcuts.js';
import { Segmented } from './Segmented.js';
import { MiddleEllipsis } from './MiddleEllipsis.js';
import { shownDir } from '../lib/shown-dir.js';
import { ConnectAgents } from './ConnectAgents.js';

export function DetailsPane({ workspace }: { workspace: string }) {
  const checkpoint = useTimeline(selectedCheckpoint);
  const status = useTimeline((s) => s.status);
  const count = useTimeline((s) => s.checkpoints.length);

  // 'idle': the workspace's list has not been asked for yet (start-up): not "No checkpoints" either.
  if (status === 'loading' || status === 'idle') {
    return (
      <div className="details-pane padded">
        <Skeleton lines={4} />
      </div>
    );
  }
  if (!checkpoint) {
    return (
      <div className="details-pane">
        <RestoreOutcomeBanner />
        <div className="empty-state">
          <Icon name="clock" size={28} />
          <h2>{count === 0 ? 'No checkpoints yet' : 'Select a checkpoint'}</h2>
          {count === 0 ? (
            <p className="muted">
              Run <code>chronoscope snapshot</code> in the workspace or press <strong>Take checkpoint now</strong>. With the watcher on,
              checkpoints also appear on their own once files change.
            </p>
          ) : (
            <p className="muted">Drag the slider or pick one from the list.</p>
          )}
        </div>
      </div>
    );
  }
  return <CheckpointDetails workspace={workspace} checkpoint={checkpoint} />;
}

/** What a diff is against: a checkpoint (by id), or nothing (the first). */
type Side = Pick<Checkpoint, 'id'> | null;

interface Shown {
  checkpoint: Checkpoint;
  previous: Side;
  files: FileChange[];
  mode: string;
  workspace: string;
}

/** Natural order of paths (f2 before f10), so a list reads like the folder. */
function sortFiles(files: FileChange[]): FileChange[] {
  return [...files].sort((a, b) => naturalCompare(a.path, b.path));
}

function CheckpointDetails({ workspace, checkpoint }: { workspace: string; checkpoint: Checkpoint }) {
  const now = useClock((s) => s.now);
  const previous = useTimeline((s) => previousOf(s, checkpoint.id));
  const all = useTimeline((s) => s.checkpoints);
  const neighbourIds = useTimeline((s) => {
    const i = indexOfId(s.checkpoints, checkpoint.id);
    // Both ways, nearest first: the next step, whichever way, lands on a warm entry.
    return [i - 1, i + 1, i - 2, i + 2].map((j) => s.checkpoints[j]?.id ?? '').join(',');
  });
  const detail = useDetails((s) => s.entries[checkpoint.id]);
  const want = useDetails((s) => s.want);
  const fetchDetail = useDetails((s) => s.fetch);
  // While a restore of the whole tree to this checkpoint is armed, the diff below its preview is what the
  // restore does: from the files on disk now to the checkpoint, file by file (not the checkpoint's own change).
  const restoring = useRestore((s) => !!s.armed && s.armed.scope === 'tree' && s.armed.origin === undefined && s.armed.id === checkpoint.id && s.armed.workspace === workspace);
  const chosenMode = useDiff((s) => s.mode);
  const mode = restoring ? 'workspace' : chosenMode;
  const workspaceDiff = useDiff((s) => s.workspaceDiffs[checkpoint.id]);
  const loadWorkspaceDiff = useDiff((s) => s.loadWorkspaceDiff);
  // A prompt selected as a whole (its last checkpoint is this one): "vs previous" is the prompt's whole
  // change, from the state before it to here.
  const prompt = usePrompts((s) => selectedPrompt(s, checkpoint.id));
  const rangeFrom = useTimeline((s) => (prompt ? promptBase(prompt, s.checkpoints) : null));
  const promptRange = prompt !== null && rangeFrom !== null && mode === 'previous';
  const rangeDiff = useDiff((s) => (promptRange ? s.rangeDiffs[rangeKey(rangeFrom, checkpoint.id)] : undefined));
  const loadRangeDiff = useDiff((s) => s.loadRangeDiff);
  useEffect(() => {
    if (promptRange) void loadRangeDiff(rangeFrom, checkpoint.id);
  }, [promptRange, rangeFrom, checkpoint.id, loadRangeDiff]);
  const [whyOpen, setWhyOpen] = useState(false);
  const why = useWhy(checkpoint, detail?.status === 'ready' ? detail.value.why : undefined);

  // Neighbours warm the next arrow press; during a drag the next step lands anywhere, so fetching them
  // would only take the host's and the window's time from the step (they are fetched on release).
  const dragging = useScrub((s) => s.held);
  const scrubbing = useScrub((s) => s.active);
  useEffect(() => {
    want(checkpoint.id, dragging ? [] : neighbourIds.split(',').filter(Boolean));
  }, [checkpoint.id, neighbourIds, want, dragging]);

  // The preview of a restore compares with the disk as it is now, not as it was when last compared.
  useEffect(() => {
    if (restoring) useDiff.getState().invalidateWorkspace();
  }, [restoring]);
  useEffect(() => {
    if (mode !== 'workspace') return;
    const timer = setTimeout(() => void loadWorkspaceDiff(checkpoint.id), 120);
    return () => clearTimeout(timer);
  }, [mode, checkpoint.id, loadWorkspaceDiff, workspaceDiff === undefined]);

  const fresh: Loadable<FileChange[]> | undefined = useMemo(() => {
    const source = promptRange ? rangeDiff : mode === 'previous' ? detail : workspaceDiff;
    if (!source) return undefined;
    if (source.status !== 'ready') return source;
    return { status: 'ready', value: sortFiles(source.value.files) };
  }, [mode, detail, workspaceDiff, promptRange, rangeDiff]);
  // The comparison on screen: a prompt's whole change is its own (never shown stale as a checkpoint's).
  const shownMode = promptRange ? `prompt:${prompt.id}` : mode;
  const against: Side = promptRange ? { id: rangeFrom } : previous;

  // The diff follows the handle: until this checkpoint's files are here, the
  // last ones shown stay on screen (marked stale) instead of a blank pane.
  const shown = useRef<Shown | null>(null);
  if (fresh?.status === 'ready') shown.current = { checkpoint, previous: against, files: fresh.value, mode: shownMode, workspace };
  const last = shown.current;
  const stale = fresh?.status !== 'ready' && fresh?.status !== 'error' && last !== null && last.mode === shownMode && last.workspace === workspace;
  const files: Loadable<FileChange[]> | undefined = stale ? { status: 'ready', value: last.files } : fresh;
  const diffCheckpoint = stale ? last.checkpoint : checkpoint;
  const diffPrevious = stale ? last.previous : against;

  const c = checkpoint;
  const words = wordsIn(all, c);
  const onlyBaseline = useTimeline((s) => s.checkpoints.every((x) => x.trigger === 'baseline'));
  const skipped = detail?.status === 'ready' ? detail.value.checkpoint.skipped : c.skipped;
  return (
    <div className="details-pane">
      <RestoreOutcomeBanner />
      {prompt ? (
        <PromptChange workspace={workspace} prompt={prompt} base={rangeFrom} />
      ) : (
      <>
      <div className="details-head">
        <div className="details-title">
          <h2 title={c.reason} data-testid="details-title">
            {words.title}
          </h2>
          {words.note && (
            <div className="details-note muted" data-testid="details-note">
              {words.note}
            </div>
          )}
          <div className="details-meta">
            <TriggerBadge trigger={c.trigger} />
            <OriginBadge checkpoint={c} />
            <span title={c.time}>
              {relativeTime(c.time_ms, now)} · {absoluteTime(c.time_ms, now)}
            </span>
            <span className="mono id-chip" title={c.id}>
              {shortId(c.id)}
              <CopyButton text={c.id} label="Copy checkpoint id" />
            </span>
            {/* Why it exists (prompt, call, outcome) in the same row, taking no height from the diff; else who. */}
            {why ? (
              <WhyLine why={why} open={whyOpen} onToggle={() => setWhyOpen(!whyOpen)} />
            ) : (
              <>
                {c.agent && <span className="meta-chip">agent: {c.agent}</span>}
                {/* A hook checkpoint's tool is the call it precedes, already in its note ("before: …"): a chip would read as its author. */}
                {c.tool && !precedesCall(c) && <span className="meta-chip">tool: {c.tool}</span>}
              </>
            )}
            {c.pinned && (
              <span className="meta-chip">
                <Icon name="pin" size={11} /> pinned
              </span>
            )}
          </div>
        </div>
        <div className="details-actions">
          <VerifyButtons workspace={workspace} checkpoint={c} />
          {c.origin !== 'hermes' && <PinButton checkpoint={c} />}
          <RestoreControls workspace={workspace} id={c.id} scope="tree" label="Restore to here…" ids={TREE_IDS} />
        </div>
      </div>
      {why && whyOpen && <WhyPanel why={why} workspace={workspace} checkpointId={c.id} />}
      <RestorePreviewPanel scope="tree" ids={TREE_IDS} />
      </>
      )}
      <VerifyPanel workspace={workspace} checkpoint={c} />
      {c.trigger === 'safety' && c.restore_target && <SafetyNote workspace={workspace} checkpoint={c} target={c.restore_target} />}
      {c.trigger === 'restore' && <BeforeRestoreNote checkpoint={c} />}
      {skipped.length > 0 && <LeftOutFiles skipped={skipped} />}
      <DiffToolbar previous={against} checkpoint={c} />
      {/* Dimmed while stale, but not while scrubbing: there it would flicker at every step (and redo the layers). */}
      {onlyBaseline && (
        <div className="details-start" data-testid="details-start">
          <p className="muted">
            This is the workspace as Chronoscope first saw it; what changes from here on appears on the timeline. Press <strong>Take checkpoint now</strong>, or
            connect an agent:
          </p>
          <ConnectAgents workspace={workspace} />
        </div>
      )}
      {/* One changed file: the list folds to one line above the diff (the diff takes the width). */}
      <div
        className={['details-body', stale && !scrubbing ? 'stale' : '', files?.status === 'ready' && files.value.length === 1 ? 'single-file' : ''].filter(Boolean).join(' ')}
        data-testid="details-body" data-stale={stale ? 'true' : 'false'} data-shows={shortId(diffCheckpoint.id)}>
        <FileList files={files} restoring={restoring} leftOut={leftOutText(c.skipped)} onRetry={() => (mode === 'previous' ? void fetchDetail(c.id) : void loadWorkspaceDiff(c.id))} />
        <Splitter pane="filesWidth" label="File list width" />
        <DiffArea workspace={workspace} checkpoint={diffCheckpoint} previous={diffPrevious} files={files?.status === 'ready' ? files.value : null} restoring={restoring} />
      </div>
    </div>
  );
}

/** Pin or unpin the checkpoint (retention keeps pinned ones); the list's pin icon is the pointer's shortcut. */
function PinButton({ checkpoint }: { checkpoint: Checkpoint }) {
  const setPinned = useTimeline((s) => s.setPinned);
  return (
    <button
      type="button"
      className={checkpoint.pinned ? 'button button-subtle active' : 'button button-subtle'}
      aria-pressed={checkpoint.pinned}
      data-testid="pin-button"
      title={checkpoint.pinned ? 'Pinned: retention keeps it. Press to unpin.' : 'Pin: retention keeps it'}
      onClick={() => setPinned(checkpoint.id, !checkpoint.pinned).catch((err: unknown) => useBanners.getState().report(err, 'Pin'))}
    >
      <Icon name="pin" size={13} /> <span className="button-label">{checkpoint.pinned ? 'Pinned' : 'Pin'}</span>
    </button>
  );
}

/**
 * What a safety checkpoint protects: the state just before a restore, which
 * usually equals the checkpoint before it (so "vs previous" lists nothing),
 * compared with the restored checkpoint — the files the restore changed.
 */
function SafetyNote({ workspace, checkpoint, target }: { workspace: string; checkpoint: Checkpoint; target: string }) {
  const [differ, setDiffer] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    setDiffer(null);
    client()
      .invoke('checkpoints:diff', { workspace, from: target, to: checkpoint.id })
      .then((d) => live && setDiffer(d.files.length))
      .catch(() => live && setDiffer(-1));
    return () => {
      live = false;
    };
  }, [workspace, target, checkpoint.id]);
  const select = useTimeline((s) => s.select);
  const known = useTimeline((s) => s.checkpoints.some((x) => x.id === target));
  return (
    <div className="banner banner-info" data-testid="safety-note">
      <Icon name="restore" size={14} />
      <span>
        The state <strong>before that restore</strong>
        {differ !== null && differ >= 0 && (
          <>
            : {differ} file{differ === 1 ? '' : 's'} differ{differ === 1 ? 's' : ''} from the restored checkpoint
          </>
        )}
        . Restoring this checkpoint undoes that restore.
      </span>
      {known && (
        <button type="button" className="link-button small" onClick={() => select(target)}>
          Show the restored checkpoint
        </button>
      )}
    </div>
  );
}

/** The count the list's row says too (one rule, the engine's: a rename is one file), with the renames named. */
function fileCountText(list: readonly FileChange[]): string {
  const renames = list.filter((f) => f.status === 'renamed').length;
  const text = `${list.length} changed file${list.length === 1 ? '' : 's'}`;
  return renames === 0 ? text : `${text} · ${renames} rename${renames === 1 ? '' : 's'}`;
}

/** Files the snapshot could not take in, each with its reason in words. */
function LeftOutFiles({ skipped }: { skipped: SkippedFile[] }) {
  const limitMb = useSettings((s) => s.settings?.max_file_mb ?? null);
  const settingsStatus = useSettings((s) => s.status);
  const loadSettings = useSettings((s) => s.load);
  const needsLimit = skipped.some((f) => f.why === 'too_large');
  // The size limit is named in the reason; read the settings once if nothing has yet.
  useEffect(() => {
    if (needsLimit && settingsStatus === 'idle') void loadSettings();
  }, [needsLimit, settingsStatus, loadSettings]);
  const n = skipped.length;
  return (
    <div className="banner banner-warning banner-stacked" data-testid="checkpoint-skipped">
      <Icon name="alert" size={14} />
      <span>
        <PathDisclosure
          testId="checkpoint-skipped-list"
          summary={`${n} file${n === 1 ? ' was' : 's were'} left out of this checkpoint`}
          hint="Their contents are not in this checkpoint, so it cannot bring them back."
          defaultOpen={n <= 5}
          entries={skipped.map((f) => ({ path: f.path, note: leftOutNote(f, limitMb), tag: f.why }))}
        />
      </span>
    </div>
  );
}

function DiffToolbar({ previous, checkpoint }: { previous: Side; checkpoint: Checkpoint }) {
  const mode = useDiff((s) => s.mode);
  const setMode = useDiff((s) => s.setMode);
  const layout = useDiff((s) => s.layout);
  const setLayout = useDiff((s) => s.setLayout);
  const wrap = useDiff((s) => s.wrap);
  const setWrap = useDiff((s) => s.setWrap);
  const ignoreWhitespace = useDiff((s) => s.ignoreWhitespace);
  const setIgnoreWhitespace = useDiff((s) => s.setIgnoreWhitespace);
  const fullDiff = useLayout((s) => s.fullDiff);
  const listCollapsed = useLayout(listFolded);
  const sidebarHidden = useLayout(sidebarFolded);
  const toggle = useLayout((s) => s.toggle);
  const openMap = useShortcutMap((s) => s.setOpen);
  return (
    <div className="diff-toolbar">
      <Segmented
        label="Compare the checkpoint with"
        testId="diff-mode-toggle"
        value={mode}
        onChange={setMode}
        options={[
          { value: 'previous', label: 'vs previous', title: 'Compare with the previous checkpoint' },
          { value: 'workspace', label: 'vs workspace now', title: 'Compare with the files on disk now' },
        ]}
      />
      <span className="diff-range muted">
        {mode === 'previous' ? (
          <>
            {previous ? <code>{shortId(previous.id)}</code> : 'empty'} → <code>{shortId(checkpoint.id)}</code>
          </>
        ) : (
          <>
            <code>{shortId(checkpoint.id)}</code> → files on disk
          </>
        )}
      </span>
      <span className="spacer" />
      <button
        type="button"
        className="segmented"
        aria-pressed={wrap}
        aria-label="Wrap long lines"
        title={wrap ? 'Long lines wrap; press to scroll them sideways instead' : 'Long lines scroll sideways; press to wrap them'}
        data-testid="diff-wrap-toggle"
        onClick={() => setWrap(!wrap)}
      >
        <span className={wrap ? 'segment active' : 'segment'}>
          <Icon name="wrap" size={13} /> <span className="segment-label">Wrap</span>
        </span>
      </button>
      <button
        type="button"
        className="segmented"
        aria-pressed={!ignoreWhitespace}
        aria-label="Show whitespace changes"
        title={ignoreWhitespace ? 'Leading/trailing whitespace changes are hidden; press to show them (w)' : 'Whitespace changes are shown; press to ignore them (w)'}
        data-testid="diff-whitespace-toggle"
        onClick={() => setIgnoreWhitespace(!ignoreWhitespace)}
      >
        <span className={ignoreWhitespace ? 'segment' : 'segment active'}>
          <span aria-hidden="true">␣</span> <span className="segment-label">Whitespace</span>
        </span>
      </button>
      <Segmented
        label="Diff layout"
        testId="diff-layout-toggle"
        value={layout}
        onChange={setLayout}
        options={[
          {
            value: 'side',
            title: 'Side by side',
            label: (
              <>
                <Icon name="columns" size={13} /> <span className="segment-label">Split</span>
              </>
            ),
          },
          {
            value: 'inline',
            title: 'Inline',
            label: (
              <>
                <Icon name="rows" size={13} /> <span className="segment-label">Inline</span>
              </>
            ),
          },
        ]}
      />
      <span className="layout-toggles">
        <button
          type="button"
          className={sidebarHidden ? 'icon-button active' : 'icon-button'}
          aria-pressed={sidebarHidden}
          aria-label="Fold the sidebar to icons (b)"
          title="Fold the sidebar to icons, or open it: workspaces, theme, settings (b)"
          data-testid="fold-sidebar"
          onClick={() => toggle('sidebarCollapsed')}
        >
          <Icon name="sidebar" size={13} />
        </button>
        <button
          type="button"
          className={listCollapsed ? 'icon-button active' : 'icon-button'}
          aria-pressed={listCollapsed}
          aria-label="Fold the checkpoint list ([)"
          title="Fold the checkpoint list ([)"
          data-testid="fold-list"
          onClick={() => toggle('listCollapsed')}
        >
          <Icon name="columns" size={13} />
        </button>
        <button
          type="button"
          className={fullDiff ? 'icon-button active' : 'icon-button'}
          aria-pressed={fullDiff}
          aria-label="Full-width diff (f)"
          title="Full-width diff: fold the sidebar, the checkpoint list and the file list (f)"
          data-testid="full-diff"
          onClick={() => toggle('fullDiff')}
        >
          <Icon name="expand" size={13} />
        </button>
        <button type="button" className="icon-button" aria-label="Keyboard shortcuts (?)" title="Keyboard shortcuts (?)" data-testid="shortcuts-button" onClick={() => openMap(true)}>
          ?
        </button>
      </span>
    </div>
  );
}


function FileList({ files, restoring, leftOut, onRetry }: { files: Loadable<FileChange[]> | undefined; restoring: boolean; leftOut: string | null; onRetry: () => void }) {
  const selectedPath = useDiff((s) => s.selectedPath);
  const selectFile = useDiff((s) => s.selectFile);
  const mode = useDiff((s) => (restoring ? 'workspace' : s.mode));

  if (!files || files.status === 'loading') {
    return (
      <div className="file-list padded">
        <Skeleton lines={4} />
      </div>
    );
  }
  if (files.status === 'error') {
    return (
      <div className="file-list padded">
        <InlineError message={files.error} onRetry={onRetry} />
      </div>
    );
  }
  if (files.value.length === 0) {
    return (
      <div className="file-list padded">
        <p className="muted small-text">
          {mode === 'previous' ? (leftOut ?? 'No files changed in this checkpoint.') : restoring ? 'The files on disk match this checkpoint: the restore changes nothing.' : 'The files on disk match this checkpoint.'}
        </p>
      </div>
    );
  }

  const list = files.value;
  const paths = list.map((f) => f.path);
  // One tab stop for the whole list (the open file's row); arrows, Home and End move inside it.
  const current = list.some((f) => f.path === selectedPath) ? selectedPath : (list[0]?.path ?? null);
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const i = list.findIndex((f) => f.path === current);
    const to =
      e.key === 'ArrowDown' ? i + 1 : e.key === 'ArrowUp' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? list.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    e.stopPropagation();
    const next = list[Math.max(0, Math.min(list.length - 1, to))];
    if (next) {
      selectFile(next.path);
      const el = e.currentTarget.querySelector<HTMLElement>(`[data-path="${CSS.escape(next.path)}"]`);
      el?.focus();
    }
  };

  return (
    <div className="file-list">
      <div className="file-list-title" data-testid="file-list-count">
        {restoring ? `The restore changes ${list.length} file${list.length === 1 ? '' : 's'}` : fileCountText(list)}
      </div>
      <ul onKeyDown={onKeyDown} aria-label="Changed files (arrow keys move)">
        {list.map((f) => {
          const letter = CHANGE_STATUS_LETTER[f.status] ?? '?';
          const selected = f.path === selectedPath;
          return (
            <li key={f.path}>
              <button
                type="button"
                className={selected ? 'file-item selected' : 'file-item'}
                data-testid="file-list-item"
                data-path={f.path}
                data-status={letter}
                aria-current={selected ? 'true' : undefined}
                tabIndex={f.path === current ? 0 : -1}
                title={f.old_path ? `${f.old_path} → ${f.path}` : f.path}
                onClick={() => selectFile(f.path)}
              >
                <span className={`status-letter status-${letter}`} aria-label={f.status}>
                  {letter}
                </span>
                <span className="file-path">
                  <span className="visually-hidden">{f.path}</span>
                  <span className="file-path-shown" aria-hidden="true">
                    <MiddleEllipsis className="file-base" text={baseName(f.path)} title={f.path} whole />
                    {dirName(f.path) && <MiddleEllipsis className="file-dir" text={shownDir(f.path, paths)} title={f.path} />}
                  </span>
                </span>
                {f.old_path && (
                  <span className="meta-chip tiny chip-rename" title={`Renamed from ${f.old_path}`}>
                    from {baseName(f.old_path)}
                  </span>
                )}
                {f.mode_changed && (
                  <span className="meta-chip tiny chip-flag" data-testid="file-flag" data-flag="mode" title={modeChangeLabel(f.old_mode, f.new_mode) ?? 'mode changed'}>
                    {f.new_mode === '100755' ? '+x' : f.old_mode === '100755' ? '−x' : 'mode'}
                  </span>
                )}
                {f.hidden && (
                  <span className="meta-chip tiny chip-flag" data-testid="file-flag" data-flag={f.hidden} title={hiddenChangeLabel(f.hidden)}>
                    {hiddenChangeChip(f.hidden)}
                  </span>
                )}
                {f.binary ? <span className="stats stats-binary">binary</span> : <LineStats insertions={f.insertions} deletions={f.deletions} />}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
