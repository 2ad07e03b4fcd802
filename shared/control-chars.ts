// Control characters, C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F), for
// every place that keeps text out of a terminal or a one-line record. C1
// counts as much as C0: U+009B is CSI in terminals that take 8-bit controls,
// the same as ESC [, so replacing ESC alone lets an escape sequence through.

/** Source of a character class matching one control character. */
const CLASS = '[\\u0000-\\u001f\\u007f-\\u009f]';

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
