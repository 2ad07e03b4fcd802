// Which workspace an agent's working folder belongs to.
import { realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { homedir } from 'node:os';
import type { Store } from '../../engine/api.js';
import { findRepoRoot } from '../../effects/git-files.js';
import { registeredWorkspaces } from '../../engine/layout/registered.js';

/**
 * The innermost registered workspace containing `cwd`; else the git repository's top folder
 * (unless that is the home folder or above, which the engine refuses); else `cwd` itself.
 */
export async function workspaceDirFor(store: Pick<Store, 'listWorkspaces'>, cwd: string): Promise<string> {
  const real = await realpath(cwd);
  const registered = await registeredAround(store, real);
  if (registered !== null) return registered;
  const top = findRepoRoot(real);
  const home = resolve(homedir());
  if (top !== null && !(home === top || home.startsWith(top.endsWith(sep) ? top : top + sep))) return top;
  return real;
}

/** The innermost registered workspace containing the real folder `real` (or it itself); null when none does. */
export async function registeredAround(store: Pick<Store, 'listWorkspaces'>, real: string): Promise<string | null> {
  const registered = (await store.listWorkspaces())
    .map((m) => m.path)
    .filter((p) => real === p || real.startsWith(p.endsWith(sep) ? p : p + sep))
    .sort((a, b) => b.length - a.length);
  return registered[0] ?? null;
}

/** The recorded workspace holding folder `dir` (or it itself), read from the store's meta files without opening the store; null when none does. */
export async function recordedWorkspaceAround(home: string, dir: string): Promise<string | null> {
  const real = await realpath(dir).catch(() => null);
  return real === null ? null : registeredAround(registeredWorkspaces(home), real);
}

/** The real path of a file that may not exist yet (a write creates it): resolve its folder. */
export async function realFilePath(path: string): Promise<string> {
  try {
    return join(await realpath(dirname(path)), basename(path));
  } catch {
    return path;
  }
}
