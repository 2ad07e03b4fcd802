// What the search box's text means as a path: the globs whose path history
// (checkpoints:pathHistory, one `diff-tree --stdin` over the consecutive trees)
// finds the checkpoints that changed a matching file. People type the file
// they lost — a name (`target.txt`), part of a path (`deep/targ`, `src/`) or a
// glob (`src/*.ts`) — not the reason it was changed under.

/** Shorter text would match nearly every path, at the cost of a full history walk. */
const MIN_LENGTH = 2;

export function isGlobText(text: string): boolean {
  return /[*?[]/.test(text);
}

/**
 * The globs to look up for `text` ([] when it cannot be a path). Plain text
 * matches anywhere in a path: `**\/*text*` (a file or the end of a path) and
 * `**\/*text*\/**` (a folder: git's globs do not match a folder's contents by
 * its name alone). A glob is taken as written, except that one without a `/`
 * matches a name in any folder (`*.css` → `**\/*.css`), as a search should.
 */
export function searchPathGlobs(text: string): string[] {
  const t = text.trim();
  if (t.length < MIN_LENGTH || /[\r\n]/.test(t)) return [];
  if (isGlobText(t)) {
    const glob = t.replace(/^\/+/, '');
    if (!glob) return [];
    return [glob.includes('/') || glob.startsWith('**') ? glob : `**/${glob}`];
  }
  // A leading or trailing slash only says "folder": the patterns below already
  // cover a folder; a backslash is git's glob escape, so it is escaped itself.
  const plain = t.replace(/^\/+|\/+$/g, '').replace(/\\/g, '\\\\');
  if (!plain) return [];
  return [`**/*${plain}*`, `**/*${plain}*/**`];
}
