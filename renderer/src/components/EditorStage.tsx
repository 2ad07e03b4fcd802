// Monaco's editors for the diff pane, created once and kept: the diff editor
// for a changed file, a plain one for a file that exists on one side only.
// Creating an editor costs 150–190 ms of main thread (measuring fonts and the
// host, theme styles), so switching between the two, or past a notice or an
// image, hides one instead of destroying it; each keeps its last text.
import { lazy, Suspense, useRef } from 'react';
import { Skeleton } from './bits.js';

const loadMonacoDiff = () => import('../monaco/MonacoDiff.js');
const loadMonacoFile = () => import('../monaco/MonacoFile.js');
const MonacoDiff = lazy(loadMonacoDiff);
const MonacoFile = lazy(loadMonacoFile);

/**
 * Monaco is ~3.6 MB of script, compiled and run on the main thread when it is
 * first imported: ~200–400 ms. Loaded at the window's first frame, that landed
 * between the first page's requests and held their answers on a first visit;
 * it is loaded instead once the first diff is on screen (drawn by the preview
 * until Monaco is ready: DiffArea.tsx), before anyone drags. Once per page.
 */
let preloaded = false;
export function preloadDiffViewer(): void {
  if (preloaded) return;
  preloaded = true;
  requestAnimationFrame(() =>
    setTimeout(() => {
      void loadMonacoDiff()
        .then(() => loadMonacoFile())
        .catch(() => undefined); // the view's own import reports a failure when it is needed
    }, 0),
  );
}

export type StageContent =
  | { kind: 'diff'; path: string; original: string; modified: string; inline: boolean; ignoreWhitespace: boolean }
  | { kind: 'file'; path: string; text: string; change: 'added' | 'deleted' };

export type EditorKind = StageContent['kind'];

/** Which of the two editors has drawn at least once (until then the pane shows the light preview over it). */
export type PaintedEditors = Record<EditorKind, boolean>;

export function EditorStage({
  content,
  hidden,
  covered,
  wrap,
  dark,
  painted,
  onPainted,
}: {
  content: StageContent | null;
  hidden: boolean;
  /** Under the scrub preview: drawn, but not the diff the person is looking at (next/previous change do not drive it). */
  covered: boolean;
  wrap: boolean;
  dark: boolean;
  painted: PaintedEditors;
  onPainted: (kind: EditorKind) => void;
}) {
  const lastDiff = useRef<Extract<StageContent, { kind: 'diff' }> | null>(null);
  const lastFile = useRef<Extract<StageContent, { kind: 'file' }> | null>(null);
  if (content?.kind === 'diff') lastDiff.current = content;
  if (content?.kind === 'file') lastFile.current = content;
  if (content === null && lastDiff.current === null && lastFile.current === null) return null;
  // The editor for the first text shown is created first; the other one (empty) only once that one has drawn,
  // so the two creations do not add up before the first diff, yet both exist before a drag first needs them.
  const firstDrawn = painted.diff || painted.file;
  const withDiff = lastDiff.current !== null || firstDrawn;
  const withFile = lastFile.current !== null || firstDrawn;
  const diff = lastDiff.current ?? EMPTY_DIFF;
  const file = lastFile.current ?? EMPTY_FILE;
  const fallback = (
    <div className="padded">
      <Skeleton lines={8} />
    </div>
  );
  const diffShown = !hidden && content?.kind === 'diff';
  const diffActive = diffShown && !covered;
  // The hidden layer is inert too: Monaco shows some of its parts with visibility: visible, which a hidden parent does not hide, so its text area stayed focusable (axe: aria-hidden-focus).
  const layer = (shown: boolean) => ({ className: 'monaco-layer', style: { visibility: shown ? ('visible' as const) : ('hidden' as const) }, 'aria-hidden': !shown, inert: !shown });
  return (
    <>
      <div {...layer(diffShown)}>
        {withDiff && (
          <Suspense fallback={fallback}>
            <MonacoDiff
              path={diff.path}
              original={diff.original}
              modified={diff.modified}
              inline={diff.inline}
              wrap={wrap}
              dark={dark}
              ignoreWhitespace={diff.ignoreWhitespace}
              active={diffActive}
              onPainted={() => onPainted('diff')}
            />
          </Suspense>
        )}
      </div>
      <div {...layer(!hidden && content?.kind === 'file')}>
        {withFile && (
          <Suspense fallback={fallback}>
            <MonacoFile path={file.path} text={file.text} change={file.change} wrap={wrap} dark={dark} onPainted={() => onPainted('file')} />
          </Suspense>
        )}
      </div>
    </>
  );
}

const EMPTY_DIFF: Extract<StageContent, { kind: 'diff' }> = { kind: 'diff', path: '', original: '', modified: '', inline: false, ignoreWhitespace: false };
const EMPTY_FILE: Extract<StageContent, { kind: 'file' }> = { kind: 'file', path: '', text: '', change: 'added' };
