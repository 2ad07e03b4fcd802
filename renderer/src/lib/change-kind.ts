// Changes a text diff would hide: the same text with other line endings, or
// with only whitespace moved. Said in words in the diff header, so an
// "identical" pair of sides is never a mystery.
export type HiddenChange = 'line-endings' | 'whitespace' | null;

export function hiddenChange(oldText: string, newText: string): HiddenChange {
  if (oldText === newText) return null;
  const lf = (t: string) => t.replace(/\r\n?/g, '\n');
  if (lf(oldText) === lf(newText)) return 'line-endings';
  const bare = (t: string) => t.replace(/\s+/g, '');
  if (bare(oldText) === bare(newText)) return 'whitespace';
  return null;
}

export function hiddenChangeLabel(kind: Exclude<HiddenChange, null>): string {
  return kind === 'line-endings' ? 'Only line endings changed (CRLF ↔ LF)' : 'Only whitespace changed';
}

/** A mode change in words: 100644 → 100755 is "now executable". */
export function modeChangeLabel(oldMode: string | null, newMode: string | null): string | null {
  if (!oldMode || !newMode || oldMode === newMode) return null;
  if (oldMode === '100644' && newMode === '100755') return 'Made executable (mode 644 → 755)';
  if (oldMode === '100755' && newMode === '100644') return 'No longer executable (mode 755 → 644)';
  return `Mode ${oldMode} → ${newMode}`;
}
