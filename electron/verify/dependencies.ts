// Dependencies a scratch copy needs but no checkpoint holds (node_modules and
// virtualenvs are excluded from checkpoints), provided so that a verifier
// never changes the workspace (docs/design-verify.md):
// - cloned copy-on-write where the file system can (`cp --reflink=always` on
//   Linux, clonefile through `cp -c` on macOS): the copy costs metadata only,
//   and whatever the verifier writes stays in the copy;
// - else linked, and watched: the size, time and kind of every file of the
//   linked trees is recorded before the run and compared after, and the
//   changed paths are reported (dependencies_changed), never hidden.
// Where they are: the top-level folders, and every nested node_modules the
// package manager laid out in the folders the checkpoint has (npm, yarn and
// pnpm workspaces: packages/a/node_modules). A linked node_modules is mirrored
// entry by entry, its symlinks re-created as they are: a package manager's
// relative links (pnpm's into .pnpm, a workspace package's to ../../packages/a)
// then resolve inside the copy, to the checkpoint's own packages, not the
// workspace's. Its `.cache` is a fresh empty folder: tools' caches are not
// dependencies, and writing them is no change to report.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export const DEPENDENCY_FOLDERS = ['node_modules', '.venv', 'venv'] as const;

/** auto: clone where the file system can, else link and watch; the others force one way (tests, a person who knows). */
export type DependencyMode = 'auto' | 'clone' | 'link';

export interface PreparedDependencies {
  /** How they were provided ('none': the workspace has none the copy lacks). */
  how: 'cloned' | 'linked' | 'none';
  notes: string[];
  /** Extra environment for the verifier (a virtualenv's bin first on PATH). */
  env: Record<string, string>;
  /** After the run: workspace-relative paths under linked dependencies that changed, were added or removed. */
  changes(): Promise<string[]>;
}

/** How deep nested node_modules are looked for (packages/a, apps/web/packages/b, …). */
const MAX_DEPTH = 6;
/** Never descended into while looking for nested node_modules. */
const NOT_SEARCHED = new Set(['.git', 'node_modules', '.venv', 'venv', '.hg', '.svn']);
/** Inside a linked node_modules: a fresh folder in the copy, never linked or watched. */
const FRESH = new Set(['.cache']);

const run = promisify(execFile);

async function isDir(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function present(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

/** Workspace-relative folders to provide: top-level ones and nested node_modules, where the copy has the folder around them but not them. */
export async function findDependencyFolders(workspaceRoot: string, scratch: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of DEPENDENCY_FOLDERS) {
    if ((await isDir(path.join(workspaceRoot, name))) && !(await present(path.join(scratch, name)))) found.push(name);
  }
  // Only folders the checkpoint has are searched: a package it lacks needs no dependencies.
  const walk = async (rel: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    const entries = await fs.readdir(path.join(scratch, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (!e.isDirectory() || NOT_SEARCHED.has(e.name)) continue;
      const sub = path.join(rel, e.name);
      const nested = path.join(sub, 'node_modules');
      if ((await isDir(path.join(workspaceRoot, nested))) && !(await present(path.join(scratch, nested)))) found.push(nested);
      await walk(sub, depth + 1);
    }
  };
  await walk('', 1);
  return found;
}

function cloneArgs(source: string, target: string): string[] | null {
  if (process.platform === 'linux') return ['-a', '--reflink=always', source, target];
  if (process.platform === 'darwin') return ['-a', '-c', source, target];
  return null;
}

/** One regular file under `dir` (breadth first, a few levels), to try a clone on. */
async function someFile(dir: string, depth = 3): Promise<string | null> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const file = entries.find((e) => e.isFile());
  if (file) return path.join(dir, file.name);
  if (depth === 0) return null;
  for (const e of entries.filter((e) => e.isDirectory()).slice(0, 8)) {
    const found = await someFile(path.join(dir, e.name), depth - 1);
    if (found) return found;
  }
  return null;
}

/** Whether files clone copy-on-write from `source`'s file system to `scratch`'s, per pair of devices. */
const cloneable = new Map<string, boolean>();

/**
 * Tried on one file first: where clones fail, `cp -a --reflink=always` on a
 * whole node_modules would fail file by file (10⁵ errors) before giving up.
 */
async function canClone(source: string, scratch: string): Promise<boolean> {
  const [a, b] = await Promise.all([fs.stat(source).catch(() => null), fs.stat(scratch).catch(() => null)]);
  if (!a || !b) return false;
  const key = `${a.dev}:${b.dev}`;
  const known = cloneable.get(key);
  if (known !== undefined) return known;
  const file = await someFile(source);
  const probe = path.join(scratch, `.clone-probe-${process.pid}`);
  const args = file === null ? null : cloneArgs(file, probe);
  let ok = false;
  if (args !== null) {
    ok = await run('cp', args).then(
      () => true,
      () => false,
    );
    await fs.rm(probe, { force: true }).catch(() => undefined);
  }
  cloneable.set(key, ok);
  return ok;
}

/** Copy-on-write clone of a folder; false (and nothing left behind) where the file system cannot. */
async function cloneTree(source: string, target: string): Promise<boolean> {
  const args = cloneArgs(source, target);
  if (args === null) return false;
  try {
    await run('cp', args, { maxBuffer: 1 << 20 });
    return true;
  } catch {
    await fs.rm(target, { recursive: true, force: true }).catch(() => undefined);
    return false;
  }
}

/** A node_modules mirrored: a real folder, each entry linked, symlinks re-created, scopes and .bin mirrored. */
async function mirrorNodeModules(source: string, target: string): Promise<void> {
  await fs.mkdir(target, { recursive: true });
  for (const e of await fs.readdir(source, { withFileTypes: true })) {
    const from = path.join(source, e.name);
    const to = path.join(target, e.name);
    if (FRESH.has(e.name) && e.isDirectory()) await fs.mkdir(to);
    else if (e.isSymbolicLink()) await fs.symlink(await fs.readlink(from), to);
    else if (e.isDirectory() && (e.name.startsWith('@') || e.name === '.bin')) await mirrorNodeModules(from, to);
    // Windows links a folder as a junction (no privilege needed) but cannot link a file unprivileged: a top-level file (a lock stamp) is copied.
    else if (process.platform === 'win32' && !e.isDirectory()) await fs.copyFile(from, to);
    else await fs.symlink(from, to, process.platform === 'win32' ? 'junction' : e.isDirectory() ? 'dir' : 'file');
  }
}

/** size, time and kind of every entry under `root` (links not followed); FRESH folders of node_modules left out. */
async function statTree(root: string, rel: string, into: Map<string, string>): Promise<void> {
  const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (e) => {
      const sub = path.join(rel, e.name);
      if (FRESH.has(e.name) && path.basename(rel) === 'node_modules') return;
      const st = await fs.lstat(path.join(root, sub)).catch(() => null);
      if (!st) return;
      const kind = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'f';
      into.set(sub, kind === 'd' ? 'd' : `${kind}:${st.size}:${st.mtimeMs}:${st.mode}`);
      if (kind === 'd') await statTree(root, sub, into);
    }),
  );
}

async function watchState(workspaceRoot: string, folders: readonly string[]): Promise<Map<string, string>> {
  const state = new Map<string, string>();
  for (const folder of folders) {
    state.set(folder, 'd');
    await statTree(workspaceRoot, folder, state);
  }
  return state;
}

function diffStates(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [p, v] of before) if (after.get(p) !== v) changed.add(p);
  for (const p of after.keys()) if (!before.has(p)) changed.add(p);
  return [...changed].map((p) => p.split(path.sep).join('/')).sort();
}

export async function prepareDependencies(workspaceRoot: string, scratch: string, mode: DependencyMode = 'auto'): Promise<PreparedDependencies> {
  const folders = await findDependencyFolders(workspaceRoot, scratch);
  const notes: string[] = [];
  const env: Record<string, string> = {};
  const none = async (): Promise<string[]> => [];
  if (folders.length === 0) return { how: 'none', notes, env, changes: none };
  for (const folder of folders) {
    const name = path.basename(folder);
    if (name === 'node_modules') continue;
    const target = path.join(scratch, folder);
    env['VIRTUAL_ENV'] = target;
    env['PATH'] = `${path.join(target, process.platform === 'win32' ? 'Scripts' : 'bin')}${path.delimiter}${process.env['PATH'] ?? ''}`;
  }

  // Cloned: all or nothing (a mix would leave some of the workspace writable).
  if (mode !== 'link') {
    const cloned: string[] = [];
    for (const folder of folders) {
      const source = path.join(workspaceRoot, folder);
      if (!(await canClone(source, scratch)) || !(await cloneTree(source, path.join(scratch, folder)))) break;
      cloned.push(folder);
    }
    if (cloned.length === folders.length) {
      for (const folder of folders) notes.push(`cloned ${folder} from the workspace (copy-on-write): the verifier's writes stay in the copy`);
      return { how: 'cloned', notes, env, changes: none };
    }
    for (const folder of cloned) await fs.rm(path.join(scratch, folder), { recursive: true, force: true });
    if (mode === 'clone') throw new Error(`cannot clone ${folders[cloned.length] ?? 'the dependencies'} copy-on-write here (the file system has no clones, or the store is on another one)`);
  }

  const before = await watchState(workspaceRoot, folders);
  for (const folder of folders) {
    const source = path.join(workspaceRoot, folder);
    const target = path.join(scratch, folder);
    if (path.basename(folder) === 'node_modules') await mirrorNodeModules(source, target);
    else await fs.symlink(source, target, process.platform === 'win32' ? 'junction' : 'dir');
    notes.push(`linked ${folder} from the workspace (${source}); the verifier should only read it: any change to it is reported`);
  }
  return { how: 'linked', notes, env, changes: async () => diffStates(before, await watchState(workspaceRoot, folders)) };
}
