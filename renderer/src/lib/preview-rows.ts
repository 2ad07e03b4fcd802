// The rows of the scrub preview (ScrubPreview.tsx): a unified diff of two
// texts, or one side's lines, cut to what fills the pane.
import { structuredPatch, type StructuredPatchHunk } from 'diff';

/** Lines shown at most: enough to fill a tall pane (each row is layout work at every step); the rest waits for the handle to stop. */
export const MAX_ROWS = 80;
/**
 * Past this edit distance, or this long, the texts are not diffed here (the full diff is Monaco's,
 * on release): a step of a drag must stay well inside a frame or two.
 */
const MAX_EDIT_LENGTH = 1000;
export const SCRUB_STEP_MS = 12;
/**
 * The first diff of a visit, shown while Monaco loads, has no drag to keep up with: it may take longer.
 * A cold start on a busy machine takes tens of milliseconds on a 30-line change, past a drag step's budget.
 */
export const FIRST_DIFF_MS = 150;

export interface PreviewRow {
  kind: 'hunk' | 'context' | 'added' | 'removed';
  oldNo: number | null;
  newNo: number | null;
  text: string;
}

function rowsOfHunks(hunks: StructuredPatchHunk[]): { rows: PreviewRow[]; more: number } {
  const rows: PreviewRow[] = [];
  let more = 0;
  for (const hunk of hunks) {
    if (rows.length >= MAX_ROWS) {
      more += hunk.lines.length;
      continue;
    }
    rows.push({ kind: 'hunk', oldNo: null, newNo: null, text: `@@ −${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const line of hunk.lines) {
      if (rows.length >= MAX_ROWS) {
        more += 1;
        continue;
      }
      const sign = line[0];
      const text = line.slice(1);
      if (sign === '+') rows.push({ kind: 'added', oldNo: null, newNo: newNo++, text });
      else if (sign === '-') rows.push({ kind: 'removed', oldNo: oldNo++, newNo: null, text });
      else if (sign === ' ') rows.push({ kind: 'context', oldNo: oldNo++, newNo: newNo++, text });
      // '\' lines ("No newline at end of file") carry no text of the file.
    }
  }
  return { rows, more };
}

function rowsOfOneSide(text: string, change: 'added' | 'deleted'): { rows: PreviewRow[]; more: number } {
  const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  const shown = lines.slice(0, MAX_ROWS);
  return {
    rows: shown.map((line, i) => ({ kind: change === 'added' ? 'added' : 'removed', oldNo: change === 'deleted' ? i + 1 : null, newNo: change === 'added' ? i + 1 : null, text: line })),
    more: lines.length - shown.length,
  };
}

export interface PreviewRows {
  rows: PreviewRow[];
  /** Lines of the diff not shown (past MAX_ROWS). */
  more: number;
  /** Not diffed here: the texts differ too much ('large'), or the diff ran past its time ('slow': a busy machine, not a large change). */
  notDiffed: 'large' | 'slow' | null;
}

export function previewRows(
  input: { original: string; modified: string; ignoreWhitespace: boolean } | { text: string; change: 'added' | 'deleted' },
  budgetMs: number = SCRUB_STEP_MS,
): PreviewRows {
  if ('text' in input) return { ...rowsOfOneSide(input.text, input.change), notDiffed: null };
  const started = performance.now();
  const patch = structuredPatch('a', 'b', input.original, input.modified, undefined, undefined, { context: 3, ignoreWhitespace: input.ignoreWhitespace, maxEditLength: MAX_EDIT_LENGTH, timeout: budgetMs });
  // jsdiff says only "undefined" for both limits: the clock tells which one.
  if (patch === undefined) return { rows: [], more: 0, notDiffed: performance.now() - started >= budgetMs ? 'slow' : 'large' };
  return { ...rowsOfHunks(patch.hunks), notDiffed: null };
}

/** One line of the side-by-side preview: the old text on the left, the new on the right (a hunk header spans both). */
export interface SideRow {
  hunk: string | null;
  left: PreviewRow | null;
  right: PreviewRow | null;
}

/**
 * The unified rows laid out side by side, as Monaco's split view aligns them:
 * context on both sides, a run of removed lines beside the run of added lines
 * that replaced it (the shorter run padded with blank rows).
 */
export function sideBySideRows(rows: readonly PreviewRow[]): SideRow[] {
  const out: SideRow[] = [];
  let removed: PreviewRow[] = [];
  let added: PreviewRow[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) out.push({ hunk: null, left: removed[i] ?? null, right: added[i] ?? null });
    removed = [];
    added = [];
  };
  for (const row of rows) {
    if (row.kind === 'removed') {
      if (added.length > 0) flush();
      removed.push(row);
    } else if (row.kind === 'added') added.push(row);
    else {
      flush();
      out.push(row.kind === 'hunk' ? { hunk: row.text, left: null, right: null } : { hunk: null, left: row, right: row });
    }
  }
  flush();
  return out;
}
