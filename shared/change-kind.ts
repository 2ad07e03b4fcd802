// Changes a text diff would hide: the same text with other line endings, or
// with only whitespace moved. The host flags them in file lists
// (electron/engine/hidden-changes.ts); the diff header says them in words.
//
// Both checks walk the two texts side by side and stop at the first real
// difference, building no copies: the viewer runs them on files of many
// megabytes ("Show it anyway"), where normalising copies cost ~100 ms a file.
export type HiddenChange = 'line-endings' | 'whitespace' | null;

export function hiddenChange(oldText: string, newText: string): HiddenChange {
  if (oldText === newText) return null;
  if (sameUpToLineEndings(oldText, newText)) return 'line-endings';
  if (sameUpToWhitespace(oldText, newText)) return 'whitespace';
  return null;
}

const CR = 13;
const LF = 10;

/** Equal once every CRLF and every lone CR read as LF. */
export function sameUpToLineEndings(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    let x = a.charCodeAt(i++);
    let y = b.charCodeAt(j++);
    if (x === CR) {
      if (a.charCodeAt(i) === LF) i++;
      x = LF;
    }
    if (y === CR) {
      if (b.charCodeAt(j) === LF) j++;
      y = LF;
    }
    if (x !== y) return false;
  }
  return i === a.length && j === b.length;
}

/** Equal once all whitespace (what a JavaScript `\s` matches) is taken out. */
export function sameUpToWhitespace(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && isSpace(a.charCodeAt(i))) i++;
    while (j < b.length && isSpace(b.charCodeAt(j))) j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    if (a.charCodeAt(i++) !== b.charCodeAt(j++)) return false;
  }
}

// The set `\s` matches (ECMAScript WhiteSpace and LineTerminator).
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
