import type * as Monaco from 'monaco-editor/esm/vs/editor/editor.api.js';
import { tooLongToColour } from '../lib/colour-limit.js';

/** The language to show these texts of a path in: plain text when they are too long to colour. */
export function languageForTexts(monaco: typeof Monaco, path: string, ...texts: string[]): string {
  return tooLongToColour(...texts) ? 'plaintext' : languageForPath(monaco, path);
}

/** The Monaco language id for a path: by file name first, then by extension. */
export function languageForPath(monaco: typeof Monaco, path: string): string {
  const name = path.split('/').pop() ?? path;
  const lower = name.toLowerCase();
  const languages = monaco.languages.getLanguages();
  for (const language of languages) {
    if (language.filenames?.some((f) => f.toLowerCase() === lower)) return language.id;
  }
  let best: { id: string; length: number } | null = null;
  for (const language of languages) {
    for (const ext of language.extensions ?? []) {
      if (lower.endsWith(ext.toLowerCase()) && (!best || ext.length > best.length)) best = { id: language.id, length: ext.length };
    }
  }
  return best?.id ?? 'plaintext';
}
