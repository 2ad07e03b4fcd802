// When a diff is drawn side by side: only when each side gets at least
// SIDE_MIN_COLUMNS columns of code in the editor's font; below that the two
// halves cut most lines short, so the diff is drawn inline. The width is
// computed from the font's own column width, so a different font or size
// moves the edge with it. Monaco switches by itself at this width
// (renderSideBySideInlineBreakpoint), and the light preview that stands in for
// it (ScrubPreview.tsx) uses the same rule, so nothing jumps when it takes over.
import { DIFF_FONT } from './diff-font.js';

/** Columns of code each side must show for the diff to be split. */
export const SIDE_MIN_COLUMNS = 80;
/**
 * What one side spends beside its code, in columns: line numbers (Monaco's
 * lineNumbersMinChars, 5), the +/− sign, and the margins around them (measured
 * at 74 px with a 7.5 px column: ~10 columns), plus its scrollbar.
 */
const SIDE_GUTTER_COLUMNS = 10;
const SIDE_SCROLLBAR_PX = 8;

let measured: number | null = null;

/** The width of one column of the diff's font, in CSS pixels (measured once; 0.6 em where it cannot be). */
export function columnWidth(): number {
  if (measured !== null) return measured;
  const fallback = DIFF_FONT.size * 0.6;
  try {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return fallback;
    context.font = `${DIFF_FONT.size}px ${DIFF_FONT.family}`;
    const width = context.measureText('0'.repeat(100)).width / 100;
    measured = width > 0 ? width : fallback;
  } catch {
    measured = fallback;
  }
  return measured;
}

/** The narrowest diff pane, in pixels, that is drawn side by side. */
export function sideBySideBreakpoint(column = columnWidth()): number {
  return Math.ceil(2 * ((SIDE_MIN_COLUMNS + SIDE_GUTTER_COLUMNS) * column + SIDE_SCROLLBAR_PX));
}

/** Whether a diff pane this wide is drawn side by side, given the person's choice. */
export function drawsSideBySide(choice: 'side' | 'inline', paneWidth: number): boolean {
  return choice === 'side' && paneWidth > sideBySideBreakpoint();
}
