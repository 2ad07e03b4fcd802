// The diff while the handle moves: the changed lines of the checkpoint under
// the handle, as a plain unified diff in ordinary DOM. A swap of Monaco's
// diff editor costs 50–150 ms of main thread on a modest machine (two models,
// a render of both sides, the diff's alignment): at one per step it would
// stall the drag, and throttled it trails the handle by seconds. This costs a
// few milliseconds, so it follows every step; Monaco takes over with the same
// diff as soon as the handle stops (DiffArea.tsx). It also stands in for the
// first diff of a visit while Monaco creates its editor and loads the file's
// grammar and the diff worker (about a second at a first visit). It is drawn
// in the mode Monaco will use (side by side or inline, DiffArea decides with
// useSideBySide), so nothing jumps when Monaco takes over.
import { useMemo } from 'react';
import { FIRST_DIFF_MS, SCRUB_STEP_MS, previewRows, sideBySideRows, type PreviewRow } from '../lib/preview-rows.js';
import type { StageContent } from './EditorStage.js';

/** `until`: when the full diff takes over ("the handle stops", "the editor is ready"). */
/** `scrubbing`: a step of a drag (the diff must fit a frame); otherwise the first diff of a visit or a stop, which may take longer. */
export function ScrubPreview({ content, until, sideBySide, scrubbing }: { content: StageContent; until: string; sideBySide: boolean; scrubbing: boolean }) {
  const [a, b, ignoreWhitespace] = content.kind === 'file' ? [content.text, content.change, false] : [content.original, content.modified, content.ignoreWhitespace];
  const budget = scrubbing ? SCRUB_STEP_MS : FIRST_DIFF_MS;
  const { rows, more, notDiffed } = useMemo(
    () => (content.kind === 'file' ? previewRows({ text: content.text, change: content.change }) : previewRows({ original: content.original, modified: content.modified, ignoreWhitespace }, budget)),
    // the texts decide (a new object with the same texts is the same preview)
    [content.kind, a, b, ignoreWhitespace, budget],
  );

  const split = sideBySide && content.kind === 'diff';
  const sideRows = useMemo(() => (split ? sideBySideRows(rows) : null), [split, rows]);

  return (
    <div className={split ? 'scrub-preview scrub-split mono' : 'scrub-preview mono'} data-testid="scrub-preview" data-layout={split ? 'side' : 'inline'} aria-label={`Diff preview until ${until}`}>
      {notDiffed === 'large' && <div className="scrub-preview-note muted">A large change: its diff shows when {until}.</div>}
      {notDiffed === 'slow' && <div className="scrub-preview-note muted">Its diff shows when {until}.</div>}
      {notDiffed === null && rows.length === 0 && <div className="scrub-preview-note muted">The text is the same on both sides.</div>}
      {sideRows
        ? sideRows.map((row, i) =>
            row.hunk !== null ? (
              <div key={i} className="scrub-row scrub-hunk">
                <span className="scrub-text">{row.hunk}</span>
              </div>
            ) : (
              <div key={i} className="scrub-row scrub-side-row">
                <Half row={row.left} side="old" />
                <Half row={row.right} side="new" />
              </div>
            ),
          )
        : rows.map((row, i) => (
            <div key={i} className={`scrub-row scrub-${row.kind}`}>
              <span className="scrub-no">{row.oldNo ?? ''}</span>
              <span className="scrub-no">{row.newNo ?? ''}</span>
              <span className="scrub-sign">{row.kind === 'added' ? '+' : row.kind === 'removed' ? '−' : ''}</span>
              <span className="scrub-text">{row.text}</span>
            </div>
          ))}
      {more > 0 && <div className="scrub-preview-note muted">… {more.toLocaleString()} more lines when {until}.</div>}
    </div>
  );
}

/** One side of a side-by-side row: its line number, sign and text (blank where the other side has more lines). */
function Half({ row, side }: { row: PreviewRow | null; side: 'old' | 'new' }) {
  const kind = row === null ? 'blank' : row.kind;
  return (
    <span className={`scrub-half scrub-${kind}`}>
      <span className="scrub-no">{(side === 'old' ? row?.oldNo : row?.newNo) ?? ''}</span>
      <span className="scrub-sign">{kind === 'added' ? '+' : kind === 'removed' ? '−' : ''}</span>
      <span className="scrub-text">{row?.text ?? ''}</span>
    </span>
  );
}
