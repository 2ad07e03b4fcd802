// Changes a text diff would hide, in words: the kind itself is worked out in
// shared/change-kind.ts (the host flags file lists with it too).
import type { HiddenChange } from '../../../shared/change-kind.js';

export { hiddenChange, type HiddenChange } from '../../../shared/change-kind.js';

export function hiddenChangeLabel(kind: Exclude<HiddenChange, null>): string {
  return kind === 'line-endings' ? 'Only line endings changed (CRLF ↔ LF)' : 'Only whitespace changed';
}

/** The short chip a file list shows for it. */
export function hiddenChangeChip(kind: Exclude<HiddenChange, null>): string {
  return kind === 'line-endings' ? 'EOL' : 'ws';
}

/** A mode change in words: 100644 → 100755 is "now executable". */
export function modeChangeLabel(oldMode: string | null, newMode: string | null): string | null {
  if (!oldMode || !newMode || oldMode === newMode) return null;
  if (oldMode === '100644' && newMode === '100755') return 'Made executable (mode 644 → 755)';
  if (oldMode === '100755' && newMode === '100644') return 'No longer executable (mode 755 → 644)';
  return `Mode ${oldMode} → ${newMode}`;
}
