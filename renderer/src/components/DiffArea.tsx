// The diff of one file: Monaco's diff editor for text, a notice for binary,
// oversized, symlinked or missing sides; and "restore this file" in two steps.
import { lazy, Suspense, useEffect } from 'react';
import type { Checkpoint, FileChange, FileDiff, FileSide } from '../../../shared/model.js';
import { fileDiffKey, useDiff, type DiffMode, type FileDiffRequest } from '../state/diff.js';
import { useTheme } from '../state/theme.js';
import { shortId } from '../lib/time.js';
import { lineCountLabel } from '../lib/line-count.js';
import { InlineError, Skeleton } from './bits.js';
import { Icon } from './Icon.js';
import { FILE_IDS, RestoreControls, RestorePreviewPanel } from './Restore.js';

const MonacoDiff = lazy(() => import('../monaco/MonacoDiff.js'));
const MonacoFile = lazy(() => import('../monaco/MonacoFile.js'));

export function DiffArea({
  workspace,
  checkpoint,
  previous,
  files,
}: {
  workspace: string;
  checkpoint: Checkpoint;
  previous: Checkpoint | null;
  files: FileChange[] | null;
}) {
  const mode = useDiff((s) => s.mode);
  const selectedPath = useDiff((s) => s.selectedPath);
  const selectFile = useDiff((s) => s.selectFile);

  // Keep the open file while scrubbing if it changed here too; otherwise open the first one.
  const selected = files?.find((f) => f.path === selectedPath) ?? null;
  useEffect(() => {
    if (!files) return;
    if (!selected) selectFile(files[0]?.path ?? null);
  }, [files, selected, selectFile]);

  if (!files) return <div className="diff-area" />;
  if (!selected) {
    return (
      <div className="diff-area">
        <div className="diff-empty muted">{files.length === 0 ? 'Nothing to compare.' : 'Select a file to see its diff.'}</div>
      </div>
    );
  }

  // vs previous: previous → selected (the first checkpoint compares with nothing);
  // vs workspace: selected → files on disk.
  const first = mode === 'previous' && !previous;
  const request: FileDiffRequest =
    mode === 'previous'
      ? { from: previous?.id ?? checkpoint.id, to: checkpoint.id, path: selected.path }
      : { from: checkpoint.id, to: 'workspace', path: selected.path };

  return (
    <div className="diff-area">
      <div className="diff-head">
        <span className="diff-file mono" title={selected.path}>
          {selected.old_path ? `${selected.old_path} → ` : ''}
          {selected.path}
        </span>
        <span className="spacer" />
        <RestoreControls
          workspace={workspace}
          id={checkpoint.id}
          scope="file"
          paths={[selected.path]}
          label={mode === 'previous' ? 'Restore this file…' : 'Restore file from checkpoint…'}
          ids={FILE_IDS}
        />
      </div>
      <RestorePreviewPanel scope="file" ids={FILE_IDS} />
      <FileDiffView request={request} first={first} mode={mode} />
    </div>
  );
}

function FileDiffView({ request, first, mode }: { request: FileDiffRequest; first: boolean; mode: DiffMode }) {
  const key = fileDiffKey(request);
  const entry = useDiff((s) => s.fileDiffs[key]);
  const load = useDiff((s) => s.loadFileDiff);
  const layout = useDiff((s) => s.layout);
  const wrap = useDiff((s) => s.wrap);
  const dark = useTheme((s) => s.dark);

  useEffect(() => {
    if (entry) return;
    // A short debounce: scrubbing past a checkpoint does not fetch its file.
    const timer = setTimeout(() => void load(request), 80);
    return () => clearTimeout(timer);
    // request is fully described by key
  }, [key, entry === undefined, load]);

  if (!entry || entry.status === 'loading') {
    return (
      <div className="diff-view-wrap" data-testid="diff-view" aria-busy="true">
        <div className="padded">
          <Skeleton lines={8} />
        </div>
      </div>
    );
  }
  if (entry.status === 'error') {
    return (
      <div className="diff-view-wrap padded" data-testid="diff-view">
        <InlineError message={entry.error} onRetry={() => void load(request)} />
      </div>
    );
  }

  const diff = entry.value;
  const oldSide: FileSide = first ? { kind: 'missing', size: null, mode: null } : diff.old;
  const notice = sideNotice(diff, oldSide);
  if (notice) {
    return (
      <div className="diff-view-wrap" data-testid="diff-view" data-kind="notice">
        <div className="diff-notice">
          <Icon name="alert" size={18} />
          <div>
            <strong>{notice.title}</strong>
            <div className="muted">{notice.detail}</div>
          </div>
        </div>
      </div>
    );
  }

  const fallback = (
    <div className="padded">
      <Skeleton lines={8} />
    </div>
  );
  const wrapProps = { 'data-testid': 'diff-view', 'data-kind': 'text', 'data-from': shortId(diff.from), 'data-to': diff.to === 'workspace' ? 'workspace' : shortId(diff.to) };
  const oldText = oldSide.kind === 'text' ? (oldSide.text ?? '') : '';
  const newText = diff.new.kind === 'text' ? (diff.new.text ?? '') : '';

  // Only one side exists: show that file's content, labelled, rather than a diff against nothing.
  const oneSide = oldSide.kind === 'missing' ? 'added' : diff.new.kind === 'missing' ? 'deleted' : null;
  if (oneSide) {
    const text = oneSide === 'added' ? newText : oldText;
    return (
      <div className="diff-view-column" {...wrapProps} data-change={oneSide}>
        <div className={`side-strip side-strip-${oneSide}`} data-testid="diff-side-strip">
          <Icon name={oneSide === 'added' ? 'plus' : 'minus'} size={13} />
          <strong>{sideTitle(oneSide, mode, first)}</strong>
          <span className="muted">{lineCountLabel(text)}</span>
        </div>
        {text === '' ? (
          <div className="diff-empty muted">The file is empty.</div>
        ) : (
          <div className="diff-view-wrap">
            <Suspense fallback={fallback}>
              <MonacoFile path={diff.path} text={text} change={oneSide} wrap={wrap} dark={dark} />
            </Suspense>
          </div>
        )}
      </div>
    );
  }

  return (
    <div className="diff-view-wrap" {...wrapProps}>
      <Suspense fallback={fallback}>
        <MonacoDiff path={diff.path} original={oldText} modified={newText} inline={layout === 'inline'} wrap={wrap} dark={dark} />
      </Suspense>
    </div>
  );
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
