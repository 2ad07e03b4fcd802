// Changes a text diff would hide: the same text with other line endings, or
// with only whitespace moved. The host flags them in file lists
// (electron/engine/hidden-changes.ts); the diff header says them in words.
export type HiddenChange = 'line-endings' | 'whitespace' | null;

export function hiddenChange(oldText: string, newText: string): HiddenChange {
  if (oldText === newText) return null;
  const lf = (t: string) => t.replace(/\r\n?/g, '\n');
  if (lf(oldText) === lf(newText)) return 'line-endings';
  const bare = (t: string) => t.replace(/\s+/g, '');
  if (bare(oldText) === bare(newText)) return 'whitespace';
  return null;
}
