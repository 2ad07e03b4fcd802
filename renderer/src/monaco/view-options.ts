// The look every read-only editor in the app shares: no caret, no current-line
// band, no overview ruler, no hover-driven highlights. These panes are for
// reading history, so nothing in them should suggest they can be typed into.
import type { monaco } from './setup.js';
import { DIFF_FONT } from '../lib/diff-font.js';

export const READ_ONLY_VIEW: monaco.editor.IEditorOptions = {
  readOnly: true,
  domReadOnly: true,
  // The textarea input, not the EditContext one: Monaco leaves the latter's aria-label empty (axe: aria-input-field-name).
  editContext: false,
  ariaLabel: 'File text (read only)',
  readOnlyMessage: { value: 'History is read-only.' },
  renderLineHighlight: 'none',
  cursorBlinking: 'solid',
  hideCursorInOverviewRuler: true,
  occurrencesHighlight: 'off',
  selectionHighlight: false,
  matchBrackets: 'never',
  links: false,
  contextmenu: false,
  minimap: { enabled: false },
  overviewRulerLanes: 0,
  overviewRulerBorder: false,
  scrollBeyondLastLine: false,
  stickyScroll: { enabled: false },
  fontSize: DIFF_FONT.size,
  lineHeight: DIFF_FONT.lineHeight,
  padding: { top: 6, bottom: 6 },
  scrollbar: { verticalScrollbarSize: 8, horizontalScrollbarSize: 8, useShadows: false },
  fontFamily: DIFF_FONT.family,
  automaticLayout: true,
};
