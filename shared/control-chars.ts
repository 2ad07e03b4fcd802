// Control characters, C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F), for
// every place that keeps text out of a terminal or a one-line record. C1
// counts as much as C0: U+009B is CSI in terminals that take 8-bit controls,
// the same as ESC [, so replacing ESC alone lets an escape sequence through.

/** Source of a character class matching one control character. */
const CLASS = '[\\u0000-\\u001f\\u007f-\\u009f]';

/**
 * Characters that reorder or break a displayed line without being controls: bidi embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069: text shown other than it reads, as in
 * "Trojan Source") and the line and paragraph separators. For one-line labels (`controlChars(LINE_BREAKERS)`);
 * never for paths, which may hold them legitimately.
 */
export const LINE_BREAKERS = '\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

/** A fresh global pattern (a shared `g` regex keeps state between calls). */
export function controlChars(extra = ''): RegExp {
  return new RegExp(extra === '' ? CLASS : `[\\u0000-\\u001f\\u007f-\\u009f${extra}]`, 'g');
}

const ANY = new RegExp(CLASS);

export function hasControlChars(text: string): boolean {
  return ANY.test(text);
}

/** Every control character written as a \u escape (JSON.stringify leaves DEL and C1 as they are). */
export function escapeControlChars(text: string): string {
  return text.replace(controlChars(), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
