// An agent's JSON settings file as installers read it (Gemini CLI's and
// Copilot CLI's settings.json): a JSON object, with our hooks under `hooks`.
// A file that is not what we expect is left untouched, with one line saying why.
import { ChronoscopeError } from '../../../shared/errors.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The settings object; an absent or empty file is an empty object. */
export function parseJsonConfig(text: string | null, file: string): JsonObject {
  if (text === null || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ChronoscopeError('bad_input', `${file} is not valid JSON (${(err as Error).message}); left it untouched`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ChronoscopeError('bad_input', `${file} does not hold a JSON object; left it untouched`);
  return parsed as JsonObject;
}

/** Its `hooks` object ({} when there is none). */
export function hooksObject(settings: JsonObject, file: string): JsonObject {
  const hooks = settings['hooks'];
  if (hooks === undefined) return {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) throw new ChronoscopeError('bad_input', `"hooks" in ${file} is not an object; left it untouched`);
  return hooks;
}

/** Appends each entry to its event's list under `hooks` (the list made where there is none); a `hooks.<event>` that is not a list is refused, the file left untouched. */
export function appendHooks(settings: JsonObject, file: string, entries: { event: string; entry: Json }[]): void {
  const hooks = hooksObject(settings, file);
  for (const { event, entry } of entries) {
    const list = hooks[event] ?? [];
    if (!Array.isArray(list)) throw new ChronoscopeError('bad_input', `"hooks.${event}" in ${file} is not a list; left it untouched`);
    list.push(entry);
    hooks[event] = list;
  }
  settings['hooks'] = hooks;
}

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The settings as text: indented and ended like `like` (the file they came from: tabs or its number
 * of spaces, CRLF or LF, a final newline or none), else as agents write them (two spaces, LF, a
 * final newline). So our edit of a 4-space or CRLF file leaves the rest of it in its own style.
 */
export function jsonConfigText(settings: JsonObject, like: string | null = null): string {
  const sample = like ?? '';
  const indented = /\n([ \t]+)\S/.exec(sample)?.[1];
  const indent = indented === undefined ? 2 : indented.startsWith('\t') ? '\t' : indented.length;
  const eol = sample.includes('\r\n') ? '\r\n' : '\n';
  const finalNewline = like === null || like.trim() === '' || /\r?\n$/.test(like);
  const body = JSON.stringify(settings, null, indent).replace(/\n/g, eol);
  return finalNewline ? `${body}${eol}` : body;
}

/** JSON's "nothing in it": blank, or an object without keys. */
export function isEmptyJson(text: string): boolean {
  const t = text.trim();
  if (t === '') return true;
  try {
    const v = JSON.parse(t) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
  } catch {
    return false;
  }
}
