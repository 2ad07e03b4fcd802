// The diff of one file: Monaco's diff editor for text, a notice for binary,
// oversized, symlinked or missing sides; and "restore this file" in two steps.
// The editors live in EditorStage (created once, kept under whatever else
// shows); while the person scrubs, each step is drawn by ScrubPreview and
// Monaco takes over where the handle stops. The first diff is drawn by
// ScrubPreview too, until Monaco has drawn it.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { LARGE_VIEWER_MAX_BYTES, VIEWER_MAX_BYTES, type Checkpoint, type FileChange, type FileDiff, type FileSide } from '../../../shared/model.js';
import { fileDiffKey, useDiff, type DiffMode, type FileDiffRequest } from '../state/diff.js';
import { useTheme } from '../state/theme.js';
import { shortId } from '../lib/time.js';
import { leftOutText } from '../../../shared/checkpoint-words.js';
import { lineCountLabel } from '../lib/line-count.js';
import { InlineError, Skeleton } from './bits.js';
import type { Loadable } from '../state/details.js';
import { useFilter } from '../state/filter.js';
import { useRestore } from '../state/restore.js';
import { useDiffNav } from '../state/diff-nav.js';
import { useScrub } from '../state/scrub.js';
import { baseName, dirName } from '../lib/paths.js';
import { hiddenChange, hiddenChangeLabel, modeChangeLabel } from '../lib/change-kind.js';
import { Icon } from './Icon.js';
import { FILE_IDS, RestoreControls, RestorePreviewPanel } from './Restore.js';
import { EditorStage, preloadDiffViewer, type EditorKind, type PaintedEditors, type StageContent } from './EditorStage.js';
import { ScrubPreview } from './ScrubPreview.js';
import { useSideBySide } from './useSideBySide.js';
import { MiddleEllipsis } from './MiddleEllipsis.js';
import { shownDir } from '../lib/shown-dir.js';
import { tooLongToColour } from '../lib/colour-limit.js';

export function DiffArea({
  workspace,
  checkpoint,
  previous,
  files,
  restoring = false,
}: {
  workspace: string;
  checkpoint: Checkpoint;
  /** What "vs previous" compares with: the checkpoint before, or (a prompt's whole change) the one before the prompt. */
  previous: Pick<Checkpoint, 'id'> | null;
  files: FileChange[] | null;
  /** A restore of the whole tree to this checkpoint is armed: each file is shown as the restore changes it, disk now → checkpoint. */
  restoring?: boolean;
}) {
  const chosenMode = useDiff((s) => s.mode);
  const selectedPath = useDiff((s) => s.selectedPath);
  // "Restore this file" armed for the file on screen: its diff is what that restore does to it,
  // the file on disk now → the checkpoint's (the tree's restore does the same for every file).
  const restoringFile = useRestore(
    (s) => !!s.armed && s.armed.scope === 'file' && s.armed.origin === undefined && s.armed.id === checkpoint.id && s.armed.workspace === workspace && s.armed.paths?.[0] === selectedPath,
  );
  // The preview compares with the disk as it is now, not as it was when last compared.
  useEffect(() => {
    if (restoringFile) useDiff.getState().invalidateWorkspace();
  }, [restoringFile]);
  const reverse = restoring || restoringFile;
  const mode: DiffMode = reverse ? 'workspace' : chosenMode;
  const selectFile = useDiff((s) => s.selectFile);
  const followedPath = useFilter((s) => s.filter.path);
  const followPath = useFilter((s) => s.followPath);
  const [largeFor, setLargeFor] = useState<string | null>(null);

  // Following one file's story: open that file wherever it changed. Otherwise
  // keep the open file while scrubbing if it changed here too, else the first one.
  // Until the effect below picks one, show the first file rather than a frame with no diff.
  const selected = files?.find((f) => f.path === selectedPath) ?? files?.[0] ?? null;
  const followed = followedPath ? (files?.find((f) => f.path === followedPath || f.old_path === followedPath) ?? null) : null;
  useEffect(() => {
    if (!files) return;
    if (followed && followed.path !== selectedPath) selectFile(followed.path);
    else if (!files.some((f) => f.path === selectedPath)) selectFile(files[0]?.path ?? null);
    // only when the files on screen change: a click on another file sticks
  }, [files, followed?.path]);

  // The diff view stays mounted whatever is selected: its editors are costly to create (EditorStage.tsx).
  const stage = (request: FileDiffRequest | null, first: boolean, onLarge: () => void, message?: string) => (
    <FileDiffView request={request} first={first} mode={mode} reverse={reverse} onLarge={onLarge} {...(message ? { message } : {})} />
  );
  if (!files || !selected) {
    // An empty change (a safety checkpoint taken when nothing had changed) says so, not a blank diff.
    // What was left out is what changed, though the checkpoint could not take it in: said, not "Nothing changed".
    const leftOut = leftOutText(checkpoint.skipped);
    const empty =
      mode !== 'previous'
        ? 'Nothing to compare.'
        : leftOut !== null
          ? `${leftOut}. The checkpoint could not take ${checkpoint.skipped.length === 1 ? 'it' : 'them'} in, so there is no diff; otherwise it holds the same files as the checkpoint before.`
          : 'Nothing changed since the checkpoint before: it holds the same files.';
    const message = !files ? undefined : files.length === 0 ? empty : 'Select a file to see its diff.';
    // The same child slots as below (the head and the restore preview absent), so React keeps the view and its editors.
    return (
      <div className="diff-area" data-testid="diff-area">
        {false}
        {false}
        {stage(null, false, () => undefined, message)}
      </div>
    );
  }

  // vs previous: previous → selected (the first checkpoint compares with nothing);
  // vs workspace: selected → files on disk.
  const first = mode === 'previous' && !previous;
  const base: FileDiffRequest =
    mode === 'previous'
      ? { from: previous?.id ?? checkpoint.id, to: checkpoint.id, path: selected.path }
      : { from: checkpoint.id, to: 'workspace', path: selected.path };
  const plain: FileDiffRequest = selected.old_path && !first ? { ...base, old_path: selected.old_path } : base;
  // A file over the viewer's limit the person asked to see (until another file or checkpoint is shown).
  const request: FileDiffRequest = largeFor === fileDiffKey(plain) ? { ...plain, large: true } : plain;
  const mode_label = modeChangeLabel(selected.old_mode, selected.new_mode);

  return (
    <div className="diff-area" data-testid="diff-area">
      <div className="diff-head">
        <span
          className="diff-file mono"
          role="heading"
          aria-level={3}
          // The whole path for screen readers too: the folder on screen may be shortened (lib/shown-dir.ts) or cut.
          aria-label={selected.old_path ? `${selected.old_path} → ${selected.path}` : selected.path}
          title={selected.old_path ? `${selected.old_path} → ${selected.path}` : selected.path}
          data-testid="diff-file"
        >
          {dirName(selected.path) && <MiddleEllipsis className="diff-file-dir" text={shownDir(selected.path, files.map((f) => f.path))} />}
          {/* The folder gives way first; the name is cut (in its middle, keeping its tail) only in a header narrower than the name alone. */}
          <MiddleEllipsis className="diff-file-base" text={baseName(selected.path)} />
        </span>
        {selected.old_path && (
          <span className="meta-chip chip-rename" data-testid="rename-chip" title={`Renamed from ${selected.old_path}`}>
            renamed from {selected.old_path}
          </span>
        )}
        {mode_label && (
          <span className="meta-chip chip-flag" data-testid="mode-chip">
            {mode_label}
          </span>
        )}
        <span className="spacer" />
        <ChangeNav />
        <button
          type="button"
          className={followedPath === selected.path ? 'button button-subtle active' : 'button button-subtle'}
          data-testid="file-history-button"
          title="Only the checkpoints that changed this file (its whole story)"
          onClick={() => followPath(followedPath === selected.path ? '' : selected.path)}
        >
          <Icon name="history" size={13} /> <span className="button-label">{followedPath === selected.path ? 'All checkpoints' : 'History'}</span>
        </button>
        <RestoreControls
          workspace={workspace}
          id={checkpoint.id}
          scope="file"
          paths={[selected.path]}
          label={chosenMode === 'previous' && !restoring ? 'Restore this file…' : 'Restore file from checkpoint…'}
          ids={FILE_IDS}
        />
      </div>
      <RestorePreviewPanel scope="file" ids={FILE_IDS} />
      {stage(request, first, () => setLargeFor(fileDiffKey(plain)))}
    </div>
  );
}

function FileDiffView({
  request,
  first,
  mode,
  reverse,
  onLarge,
  message,
}: {
  /** Null when no file is selected: `message` says why. */
  request: FileDiffRequest | null;
  first: boolean;
  mode: DiffMode;
  /** Shown the other way round: the files on disk now on the left, the checkpoint on the right (what a restore does). */
  reverse: boolean;
  onLarge: () => void;
  message?: string;
}) {
  const key = request === null ? '' : fileDiffKey(request);
  const current = useDiff((s) => (request === null ? undefined : s.fileDiffs[key]));
  const load = useDiff((s) => s.loadFileDiff);
  const want = useDiff((s) => s.wantFileDiff);
  const layout = useDiff((s) => s.layout);
  // The preview draws in the mode Monaco will (both follow lib/side-by-side.ts): nothing jumps when it takes over.
  const pane = useRef<HTMLDivElement>(null);
  const sideBySide = useSideBySide(pane, layout);
  const wrap = useDiff((s) => s.wrap);
  const ignoreWhitespace = useDiff((s) => s.ignoreWhitespace);
  const dark = useTheme((s) => s.dark);
  const scrubbing = useScrub((s) => s.active);

  useEffect(() => {
    if (request !== null && !current) want(request);
    // request is fully described by key
  }, [key, current === undefined, want]);
  // The first diff of any kind is on screen: now Monaco may load (EditorStage.tsx).
  useEffect(() => {
    if (current?.status === 'ready') preloadDiffViewer();
  }, [current?.status]);

  // Until this diff is here, the last one shown stays (never a blank pane while scrubbing).
  const lastShown = useRef<{ entry: Loadable<FileDiff>; first: boolean } | null>(null);
  if (current?.status === 'ready' && lastShown.current?.entry !== current) lastShown.current = { entry: current, first };
  const stale = request !== null && (!current || current.status === 'loading') && lastShown.current !== null;
  const entry = request === null ? undefined : stale ? lastShown.current!.entry : current;
  if (stale) first = lastShown.current!.first;

  // Once per diff, not per render: on a file of megabytes it reads both texts whole.
  const diffValue = entry?.status === 'ready' ? entry.value : null;
  const view = useMemo(() => (diffValue ? describeView(reverse ? { ...diffValue, old: diffValue.new, new: diffValue.old } : diffValue, first) : null), [diffValue, first, reverse]);
  // Monaco shows what is settled; while scrubbing it keeps its last text and the preview shows each step (ScrubPreview.tsx).
  // When scrubbing stops on a preview, that frame is painted first (the diff of where the handle stopped, at once), then Monaco takes over.
  const settled = useRef<StageContent | null>(null);
  const previewShown = useRef(false);
  const [, wake] = useReducer((x: number) => x + 1, 0);
  // Until its editor has drawn once (created, grammar and diff worker loaded: about a second on a first visit),
  // the first diff is shown by the same light preview, as soon as its text is here.
  const [painted, setPainted] = useState<PaintedEditors>({ diff: false, file: false });
  const onPainted = useCallback((kind: EditorKind) => setPainted((p) => (p[kind] ? p : { ...p, [kind]: true })), []);
  const editorContent = view?.kind === 'text' ? stageContent(view, layout === 'inline', ignoreWhitespace) : null;
  const editorLoading = editorContent !== null && !painted[editorContent.kind];
  const unsettled = editorContent !== null && !sameStage(settled.current, editorContent);
  // Scrubbing just stopped on the preview: it stays for a frame, and while the stop's diff is still on
  // its way (Monaco is not handed the stale one, only to redo it a moment later).
  const held = unsettled && !scrubbing && previewShown.current;
  const handOver = held && !stale;
  if (unsettled && !scrubbing && !held) settled.current = editorContent;
  const previewing = (unsettled && (scrubbing || held)) || editorLoading;
  previewShown.current = previewing;
  useEffect(() => {
    if (!handOver) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        previewShown.current = false;
        wake();
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  });

  let overlay: ReactNode = null;
  if (request === null) overlay = message ? <Centered text={message} /> : null;
  else if (!entry || entry.status === 'loading') {
    overlay = (
      <div className="padded diff-overlay" aria-busy="true">
        <Skeleton lines={8} />
      </div>
    );
  } else if (entry.status === 'error') {
    overlay = (
      <div className="padded diff-overlay">
        <InlineError message={entry.error} onRetry={() => request && void load(request)} />
      </div>
    );
  } else if (view?.kind === 'image') {
    overlay = (
      <div className="diff-overlay">
        <ImagePreview before={view.oldSide} after={view.diff.new} />
      </div>
    );
  } else if (view?.kind === 'notice') {
    const sides = [view.oldSide, view.diff.new];
    // Too large for the viewer but within the larger limit, and text: the person may ask for it.
    const canAsk = !request.large && sides.some((s) => s.kind === 'too_large') && sides.every((s) => s.kind !== 'binary' && s.kind !== 'symlink' && (s.size ?? 0) <= LARGE_VIEWER_MAX_BYTES);
    overlay = (
      <div className="diff-overlay">
        <div className="diff-notice" data-testid={view.renamed ? 'pure-rename' : 'diff-notice'}>
          <Icon name={view.renamed ? 'file' : 'alert'} size={18} />
          <div>
            <strong>{view.notice.title}</strong>
            <div className="muted">{view.notice.detail}</div>
            {canAsk && (
              <button type="button" className="button button-subtle show-large" data-testid="show-large" onClick={onLarge}>
                Show it anyway (files up to {formatSize(LARGE_VIEWER_MAX_BYTES)} can be shown on request)
              </button>
            )}
            {!canAsk && sides.some((s) => s.kind === 'too_large') && (
              <div className="muted small-text" data-testid="large-limit">
                Files up to {formatSize(VIEWER_MAX_BYTES)} are shown; up to {formatSize(LARGE_VIEWER_MAX_BYTES)} on request.
              </div>
            )}
          </div>
        </div>
      </div>
    );
  } else if (view?.kind === 'text' && view.oneSide !== null && view.oneSideText === '') {
    overlay = <Centered text="The file is empty." />;
  } else if (previewing && editorContent !== null) {
    overlay = (
      <div className="diff-overlay">
        <ScrubPreview content={editorContent} sideBySide={sideBySide} scrubbing={scrubbing} until={scrubbing || !editorLoading ? 'the handle stops' : 'the editor is ready'} />
      </div>
    );
  }

  const diff = entry?.status === 'ready' ? entry.value : null;
  const attributes = {
    'data-testid': 'diff-view',
    'data-kind': view?.kind ?? (request === null ? 'none' : 'loading'),
    'data-stale': stale ? 'true' : 'false',
    'data-preview': previewing ? 'true' : 'false',
    ...(diff ? { 'data-from': shortId(diff.from), 'data-to': diff.to === 'workspace' ? 'workspace' : shortId(diff.to) } : {}),
    ...(view?.kind === 'text' && view.oneSide !== null ? { 'data-change': view.oneSide } : {}),
    ...(!entry || entry.status === 'loading' ? { 'aria-busy': true } : {}),
  };
  return (
    <div className="diff-view-column" {...attributes} data-reverse={reverse ? 'true' : 'false'}>
      {reverse && request !== null && (
        <div className="side-strip side-strip-flag" data-testid="restore-diff-strip">
          <Icon name="restore" size={13} />
          <strong>What the restore does to this file</strong>
          <span className="muted">left: on disk now · right: after the restore</span>
        </div>
      )}
      {view?.kind === 'text' && view.oneSide !== null && (
        <div className={`side-strip side-strip-${view.oneSide}`} data-testid="diff-side-strip">
          <Icon name={view.oneSide === 'added' ? 'plus' : 'minus'} size={13} />
          <strong>{reverse ? (view.oneSide === 'added' ? 'Brought back by the restore' : 'Removed from disk by the restore') : sideTitle(view.oneSide, mode, first)}</strong>
          <span className="muted">{lineCountLabel(view.oneSideText)}</span>
        </div>
      )}
      {view?.kind === 'text' && view.hidden && (
        <div className="side-strip side-strip-flag" data-testid="hidden-change">
          <Icon name="alert" size={13} />
          <strong>{hiddenChangeLabel(view.hidden)}</strong>
          <span className="muted">
            {view.hidden === 'whitespace' && ignoreWhitespace ? 'Whitespace is ignored in the view: turn "Whitespace" on to see it.' : 'The text reads the same; the bytes differ.'}
          </span>
        </div>
      )}
      {view?.kind === 'text' && view.plain && (
        <div className="side-strip side-strip-flag" data-testid="plain-large">
          <Icon name="alert" size={13} />
          <strong>Shown without syntax colours</strong>
          <span className="muted">Colouring a file this large would hold up the window.</span>
        </div>
      )}
      {view?.kind === 'text' && view.svg && <ImagePreview before={svgSide(view.oldSide)} after={svgSide(view.diff.new)} compact />}
      <div className="diff-view-wrap" ref={pane} data-layout={sideBySide ? 'side' : 'inline'}>
        {/* Mounted under whatever else shows (creating an editor costs 150–190 ms); hidden unless the view is text for it (the preview only covers it). */}
        <EditorStage content={settled.current} hidden={editorContent === null} covered={previewing} wrap={wrap} dark={dark} painted={painted} onPainted={onPainted} />
        {overlay}
      </div>
    </div>
  );
}

function Centered({ text }: { text: string }) {
  return (
    <div className="diff-overlay diff-overlay-centered">
      <div className="diff-empty muted">{text}</div>
    </div>
  );
}

/** What one file's diff is shown as. */
type DiffView =
  | { kind: 'image'; diff: FileDiff; oldSide: FileSide }
  | { kind: 'notice'; diff: FileDiff; oldSide: FileSide; notice: { title: string; detail: string }; renamed?: boolean }
  | {
      kind: 'text';
      diff: FileDiff;
      oldSide: FileSide;
      oldText: string;
      newText: string;
      /** Only one side exists: that file's content is shown, labelled, rather than a diff against nothing. */
      oneSide: 'added' | 'deleted' | null;
      oneSideText: string;
      hidden: ReturnType<typeof hiddenChange>;
      /** Too long to colour: the editor shows it as plain text (lib/colour-limit.ts). */
      plain: boolean;
      svg: boolean;
    };

function describeView(diff: FileDiff, first: boolean): DiffView {
  const oldSide: FileSide = first ? { kind: 'missing', size: null, mode: null } : diff.old;
  if (oldSide.image || diff.new.image) return { kind: 'image', diff, oldSide };
  const notice = sideNotice(diff, oldSide);
  if (notice) return { kind: 'notice', diff, oldSide, notice };
  const oldText = oldSide.kind === 'text' ? (oldSide.text ?? '') : '';
  const newText = diff.new.kind === 'text' ? (diff.new.text ?? '') : '';
  // A pure rename: two equal texts side by side say nothing; the words do.
  if (diff.old_path !== undefined && diff.old_path !== diff.path && oldSide.kind === 'text' && diff.new.kind === 'text' && oldText === newText) {
    const [before, after] = [diff.old_path, diff.path];
    return { kind: 'notice', diff, oldSide, notice: { title: 'Renamed, content identical', detail: `${before} → ${after}, not a line changed.` }, renamed: true };
  }
  const oneSide = oldSide.kind === 'missing' ? 'added' : diff.new.kind === 'missing' ? 'deleted' : null;
  return {
    kind: 'text',
    diff,
    oldSide,
    oldText,
    newText,
    oneSide,
    oneSideText: oneSide === 'added' ? newText : oldText,
    hidden: oneSide === null ? hiddenChange(oldText, newText) : null,
    plain: tooLongToColour(oldText, newText),
    svg: oneSide === null && /\.svg$/i.test(diff.path),
  };
}

function stageContent(view: Extract<DiffView, { kind: 'text' }>, inline: boolean, ignoreWhitespace: boolean): StageContent | null {
  if (view.oneSide !== null) return view.oneSideText === '' ? null : { kind: 'file', path: view.diff.path, text: view.oneSideText, change: view.oneSide };
  return { kind: 'diff', path: view.diff.path, original: view.oldText, modified: view.newText, inline, ignoreWhitespace };
}

function sameStage(a: StageContent | null, b: StageContent): boolean {
  if (a === null || a.kind !== b.kind || a.path !== b.path) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.text === b.text && a.change === b.change;
  if (a.kind === 'diff' && b.kind === 'diff') return a.original === b.original && a.modified === b.modified && a.inline === b.inline && a.ignoreWhitespace === b.ignoreWhitespace;
  return false;
}

/** What an added or deleted file is, in the words of the comparison on screen. */
function sideTitle(change: 'added' | 'deleted', mode: DiffMode, first: boolean): string {
  if (first) return 'Recorded in the first checkpoint';
  if (mode === 'workspace') return change === 'added' ? 'New on disk since this checkpoint' : 'Deleted from disk since this checkpoint';
  return change === 'added' ? 'New file' : 'Deleted file';
}

function formatSize(size: number | null): string {
  if (size === null) return 'unknown size';
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

function describe(side: FileSide): string {
  switch (side.kind) {
    case 'binary':
      return `binary, ${formatSize(side.size)}`;
    case 'too_large':
      return `too large to show, ${formatSize(side.size)}`;
    case 'symlink':
      return `symbolic link → ${side.text ?? '?'}`;
    case 'missing':
      return 'does not exist';
    default:
      return `text, ${formatSize(side.size)}`;
  }
}

/** A notice instead of the editor when either side is not plain text (a missing side is just empty). */
function sideNotice(diff: FileDiff, oldSide: FileSide): { title: string; detail: string } | null {
  const kinds = [oldSide.kind, diff.new.kind];
  if (kinds.every((k) => k === 'text' || k === 'missing') && kinds.some((k) => k === 'text')) return null;
  const title = kinds.includes('binary')
    ? 'Binary file'
    : kinds.includes('too_large')
      ? 'File too large to diff'
      : kinds.includes('symlink')
        ? 'Symbolic link'
        : 'No content on either side';
  return { title, detail: `Before: ${describe(oldSide)}. After: ${describe(diff.new)}.` };
}

/** Previous / next change in the open diff, with the count (keys: p / n). */
function ChangeNav() {
  const count = useDiffNav((s) => s.count);
  const go = useDiffNav((s) => s.go);
  const can = useDiffNav((s) => s.move !== null);
  if (!can) return null;
  return (
    <span className="change-nav" data-testid="change-nav">
      <button type="button" className="icon-button" aria-label="Previous change (p)" title="Previous change (p)" data-testid="prev-change" onClick={() => go('previous')}>
        <Icon name="chevronUp" size={14} />
      </button>
      <span className="muted small-text" data-testid="change-count">
        {count} change{count === 1 ? '' : 's'}
      </span>
      <button type="button" className="icon-button" aria-label="Next change (n)" title="Next change (n)" data-testid="next-change" onClick={() => go('next')}>
        <Icon name="chevronDown" size={14} />
      </button>
    </span>
  );
}

/** An SVG side as an image (its text as a data URL: an <img> runs no script in it). */
function svgSide(side: FileSide): FileSide {
  if (side.kind !== 'text' || side.text === undefined) return side;
  let binary = '';
  for (const byte of new TextEncoder().encode(side.text)) binary += String.fromCharCode(byte);
  return { ...side, image: { mime: 'image/svg+xml', base64: btoa(binary) } };
}

/** Before and after of an image, side by side, each with its size; a missing side says so. */
function ImagePreview({ before, after, compact = false }: { before: FileSide; after: FileSide; compact?: boolean }) {
  const pane = (side: FileSide, label: string, which: 'before' | 'after') => (
    <figure className="image-side" data-testid={`image-${which}`}>
      <figcaption>
        <strong>{label}</strong> <span className="muted">{side.kind === 'missing' ? 'does not exist' : formatSize(side.size)}</span>
      </figcaption>
      {side.image ? (
        <img src={`data:${side.image.mime};base64,${side.image.base64}`} alt={`${label}: ${side.image.mime}`} />
      ) : (
        <div className="muted small-text image-none">{side.kind === 'missing' ? 'No image on this side.' : side.kind === 'too_large' ? `Larger than ${formatSize(VIEWER_MAX_BYTES)}: not previewed.` : 'No preview.'}</div>
      )}
    </figure>
  );
  return (
    <div className={compact ? 'image-preview compact' : 'image-preview'} data-testid="image-preview">
      {pane(before, 'Before', 'before')}
      {pane(after, 'After', 'after')}
    </div>
  );
}
