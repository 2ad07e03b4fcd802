// What the native watcher does not watch at all. The engine's snapshot applies
// its own excludes and .gitignore anyway; this list is about cost: a burst in
// node_modules or a build folder must not even reach JavaScript.
import path from 'node:path';

/** Folder names that are never part of a checkpoint, at any depth. */
export const WATCH_IGNORED_DIRS: readonly string[] = [
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  '.tox',
  '.cache',
  '.parcel-cache',
  '.next',
  '.nuxt',
  '.turbo',
  '.gradle',
  'dist',
  'build',
  'target',
  'coverage',
];

/** Globs for @parcel/watcher's `ignore` (matched against workspace-relative paths). */
export function watcherIgnoreGlobs(dirs: readonly string[] = WATCH_IGNORED_DIRS): string[] {
  return dirs.flatMap((d) => [`**/${d}`, `**/${d}/**`]);
}

/** JavaScript-side check for the same rule, for events the native side let through. */
export function isIgnoredRelative(rel: string, dirs: readonly string[] = WATCH_IGNORED_DIRS): boolean {
  const set = new Set(dirs);
  return rel.split('/').some((segment) => set.has(segment));
}

/** An absolute event path as a workspace-relative, '/'-separated path; null for the root or outside it. */
export function toRelative(root: string, abs: string): string | null {
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}
