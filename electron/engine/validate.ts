// Validation of everything that comes from outside (CLI, IPC, hooks) before
// it reaches git or the file system. One clear line on failure, nothing changed.
import fs from 'node:fs/promises';
import path from 'node:path';
import { controlChars } from '../../shared/control-chars.js';
import { ChronoscopeError, UsageError } from '../../shared/errors.js';
import { CHECKPOINT_REF_PATTERN } from '../../shared/refs.js';

export function validateRef(ref: unknown): string {
  if (typeof ref !== 'string' || !CHECKPOINT_REF_PATTERN.test(ref)) {
    const shown = typeof ref === 'string' ? ref.slice(0, 80) : typeof ref;
    throw new UsageError(
      `checkpoint '${shown}' is not valid: use a full id, a hex prefix of at least 4 digits, an index from the newest (1-999), 'latest' or a Hermes checkpoint id (h + hex)`,
    );
  }
  return ref;
}

/**
 * A workspace-relative path: not absolute, no '..' segment, no leading '-',
 * no NUL, not the workspace's .git. Returns it normalized with '/' separators
 * and no trailing slash ('' is refused: name the workspace instead).
 */
export function validateRelPath(raw: unknown): string {
  const bad = (why: string): never => {
    const shown = typeof raw === 'string' ? raw.replace(controlChars(), '?').slice(0, 200) + (raw.length > 200 ? '…' : '') : String(typeof raw);
    throw new UsageError(`path '${shown}' is ${why}`);
  };
  if (typeof raw !== 'string') return bad('not a string');
  if (raw.length === 0) return bad('empty');
  if (raw.includes('\0')) return bad('not allowed (contains NUL)');
  // A bare leading '-' looks like an option; './-rf' names a file called -rf
  // (paths reach git only after '--', as literal pathspecs).
  if (raw.startsWith('-')) return bad("not allowed (leading -); write './-name' for a file named -name");
  if (path.isAbsolute(raw) || path.posix.isAbsolute(raw) || path.win32.isAbsolute(raw) || /^[a-zA-Z]:/.test(raw)) {
    return bad('absolute; give a path relative to the workspace');
  }
  // '\\' is a separator only on Windows; on POSIX it is a legal filename character.
  const segments = (process.platform === 'win32' ? raw.replace(/\\/g, '/') : raw).split('/');
  if (segments.includes('..')) return bad("outside the workspace ('..' is not allowed)");
  const kept = segments.filter((s) => s !== '' && s !== '.');
  if (kept.length === 0) return bad('the workspace itself; leave paths out to mean everything');
  if (kept.some(isGitDirName)) return bad('inside a .git directory');
  return kept.join('/');
}

/**
 * A path segment that names a .git folder. Case-insensitively everywhere, and
 * with the trailing dots and spaces Windows drops: on macOS and Windows `.GIT`
 * and `.git.` are the workspace's .git, a store may be restored on another
 * file system than it was made on, and git's own fsck treats such trees the
 * same way. (A folder really named `.GIT` on Linux is therefore never
 * restored: reported as skipped.)
 */
export function isGitDirName(segment: string): boolean {
  return segment.replace(/[. ]+$/, '').toLowerCase() === '.git';
}

/** True if any folder on the way to `rel` (or `rel` itself) is a .git folder: restore and fork never write there. */
export function inGitDir(rel: string): boolean {
  return rel.split('/').some(isGitDirName);
}

export function validateRelPaths(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw new ChronoscopeError('bad_input', 'paths must be a list of relative paths');
  return [...new Set(raw.map((p) => validateRelPath(p)))];
}

/**
 * For paths that will be written: no parent component inside the workspace may
 * be a symlink (writing through it would land outside, or somewhere else
 * inside). A missing parent is fine (it will be created as a real directory).
 */
export async function assertNoSymlinkParent(root: string, rel: string): Promise<void> {
  const parts = rel.split('/');
  let current = root;
  for (const part of parts.slice(0, -1)) {
    current = path.join(current, part);
    let st;
    try {
      st = await fs.lstat(current);
    } catch {
      return;
    }
    if (st.isSymbolicLink()) {
      throw new ChronoscopeError('bad_input', `path '${rel}' is reached through a symlinked directory ('${path.relative(root, current)}')`);
    }
    if (!st.isDirectory()) return;
  }
}
