// What the native watcher does not watch at all, derived from the store's own
// default excludes so the two never drift. The engine's snapshot applies its
// excludes and .gitignore anyway; this list is about cost: a burst in
// node_modules or a build folder must not even reach JavaScript.
import path from 'node:path';
import { DEFAULT_EXCLUDES } from '../engine/scan/excludes.js';

export interface WatchIgnoreRules {
  /** Folder names ignored at any depth (`node_modules/`). */
  anyDepthDirs: string[];
  /** Folder names ignored only at the workspace root (`/dist/`). */
  topLevelDirs: string[];
  /** File name patterns ignored anywhere (`*.pyc`, `.DS_Store`); `*` is the only wildcard. */
  fileNames: string[];
}

/** Reads the simple forms of gitignore lines the default excludes use. */
export function rulesFromExcludes(lines: readonly string[]): WatchIgnoreRules {
  const rules: WatchIgnoreRules = { anyDepthDirs: [], topLevelDirs: [], fileNames: [] };
  for (const line of lines) {
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const dir = line.endsWith('/');
    const anchored = line.startsWith('/');
    const name = line.replace(/^\//, '').replace(/\/$/, '');
    if (name.includes('/')) continue; // nested patterns: left to the engine
    if (dir) (anchored ? rules.topLevelDirs : rules.anyDepthDirs).push(name);
    else if (!anchored) rules.fileNames.push(name);
  }
  return rules;
}

export const DEFAULT_WATCH_RULES: WatchIgnoreRules = rulesFromExcludes(DEFAULT_EXCLUDES);

/** @parcel/watcher `ignore` entries: globs match workspace-relative paths, plain names resolve against the root. */
export function watcherIgnoreList(rules: WatchIgnoreRules = DEFAULT_WATCH_RULES): string[] {
  return [
    ...rules.anyDepthDirs.flatMap((d) => [`**/${d}`, `**/${d}/**`]),
    ...rules.topLevelDirs, // a plain path: parcel ignores <root>/<name> and everything below
    ...rules.fileNames.map((f) => `**/${f}`),
  ];
}

/** JavaScript-side check of the same rules, for events the native side let through. */
export function isIgnoredRelative(rel: string, rules: WatchIgnoreRules = DEFAULT_WATCH_RULES): boolean {
  const segments = rel.split('/');
  const last = segments[segments.length - 1] ?? '';
  if (segments.some((s) => rules.anyDepthDirs.includes(s))) return true;
  if (segments[0] !== undefined && rules.topLevelDirs.includes(segments[0])) return true;
  return rules.fileNames.some((pattern) => matchName(pattern, last));
}

function matchName(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(name);
}

/** An absolute event path as a workspace-relative, '/'-separated path; null for the root or outside it. */
export function toRelative(root: string, abs: string): string | null {
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}
