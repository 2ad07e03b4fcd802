// The one place that writes or removes a file that must stay inside a given
// folder (a workspace, an agent's config home, the store): it refuses, with a
// line naming the link, to follow a symlink that leads out of that folder.
//
// A link inside the folder that stays inside is followed (its real path is
// written). Then, as far as Node allows, a swap made during the write cannot
// send it elsewhere: on Linux each folder on the way is opened with O_NOFOLLOW
// relative to the one before it (through /proc/self/fd, Node's stand-in for
// openat), folders are created there and opened again without following, and
// the temporary file is created, fsynced and renamed inside the opened folder.
// Elsewhere the same walk runs by path, and the folder is checked to be the
// one opened right before the rename.
import { randomBytes } from 'node:crypto';
import { constants as C, existsSync } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';

export interface ContainingRoot {
  /** The folder writes must stay inside (its own path may go through links: it is taken as given). */
  dir: string;
  /** How the error names it: "the workspace", "Gemini's config folder", "the store". */
  label: string;
}

export interface ContainedWriteOptions {
  /** Permission bits of the file (past the umask). Default: an existing file's own, else 0o666 less the umask. */
  mode?: number;
  /** Permission bits of folders created on the way (less the umask). */
  dirMode?: number;
}

const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
const DIR_FLAGS = C.O_RDONLY | (C.O_DIRECTORY ?? 0) | (C.O_NOFOLLOW ?? 0);

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

function refusedLink(root: ContainingRoot, link: string, to: string | null, file: string): ChronoscopeError {
  const where = to === null ? 'is a symbolic link that leads nowhere' : `is a symbolic link that leads outside ${root.label} (to ${to})`;
  return new ChronoscopeError('refused', `${link} ${where}; refusing to write or remove ${file} through it`);
}

function swapped(root: ContainingRoot, p: string): ChronoscopeError {
  return new ChronoscopeError('refused', `${p} changed into a link while writing inside ${root.label}; stopped, nothing written through it`);
}

function notFolder(p: string): ChronoscopeError {
  return new ChronoscopeError('bad_input', `${p} is not a folder; left it untouched`);
}

async function lstatOrNull(p: string): Promise<import('node:fs').Stats | null> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

interface Resolved {
  /** The real root. */
  root: string;
  /** Folder names from the real root to the file's real folder (the last ones may not exist yet). */
  dirs: string[];
  name: string;
  /** The path to name in messages for a folder `i` levels down. */
  shown: (i: number) => string;
}

/**
 * Where `file` really is, following only links that stay inside the root; a link out of it is
 * refused with its name. Nothing is created. The root must exist.
 */
async function resolveContained(root: ContainingRoot, file: string): Promise<Resolved> {
  const given = path.resolve(file);
  const rel = path.relative(path.resolve(root.dir), given);
  if (rel === '' || !inside(path.resolve(root.dir), given)) throw new ChronoscopeError('internal', `${file} is not inside ${root.dir}`);
  const realRoot = await fs.realpath(root.dir);
  const parts = rel.split(path.sep);
  let cur = realRoot;
  let missing = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const p = path.join(cur, part);
    const shownPath = path.join(root.dir, ...parts.slice(0, i + 1));
    const last = i === parts.length - 1;
    const st = missing ? null : await lstatOrNull(p);
    if (st === null) {
      missing = true;
      cur = p;
      continue;
    }
    if (st.isSymbolicLink()) {
      const to = await fs.realpath(p).catch(() => null);
      if (to === null || !inside(realRoot, to)) throw refusedLink(root, shownPath, to, file);
      const tst = await fs.stat(to);
      if (!last && !tst.isDirectory()) throw notFolder(shownPath);
      cur = to;
      continue;
    }
    if (!last && !st.isDirectory()) throw notFolder(shownPath);
    cur = p;
  }
  const relReal = path.relative(realRoot, cur).split(path.sep);
  const name = relReal.pop()!;
  return { root: realRoot, dirs: relReal, name, shown: (i) => path.join(path.resolve(root.dir), ...relReal.slice(0, i)) };
}

/** An open folder and how to name an entry of it without following a link swapped in above it. */
class OpenDir {
  constructor(
    readonly handle: FileHandle,
    readonly path: string,
  ) {}
  entry(name: string): string {
    return PROC_FD ? `/proc/self/fd/${this.handle.fd}/${name}` : path.join(this.path, name);
  }
  /** Off Linux: the folder at our path is still the one we opened. */
  async check(root: ContainingRoot): Promise<void> {
    if (PROC_FD) return;
    const [held, now] = await Promise.all([this.handle.stat(), fs.lstat(this.path).catch(() => null)]);
    if (now === null || !now.isDirectory() || now.ino !== held.ino || now.dev !== held.dev) throw swapped(root, this.path);
  }
}

async function openDir(p: string, root: ContainingRoot, shown: string): Promise<FileHandle | null> {
  try {
    return await fs.open(p, DIR_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') throw swapped(root, shown);
    if (code === 'ENOTDIR') throw notFolder(shown);
    throw err;
  }
}

/** Opens the file's folder level by level from the root, never following a link; creates missing folders when `create`. */
async function walk(root: ContainingRoot, r: Resolved, create: { dirMode: number; made: string[] } | null): Promise<OpenDir | null> {
  const top = await fs.open(r.root, C.O_RDONLY | (C.O_DIRECTORY ?? 0));
  let dir = new OpenDir(top, r.root);
  try {
    for (let i = 0; i < r.dirs.length; i++) {
      const name = r.dirs[i]!;
      const shown = r.shown(i + 1);
      let next = await openDir(dir.entry(name), root, shown);
      if (next === null) {
        if (create === null) {
          await dir.handle.close();
          return null;
        }
        await fs.mkdir(dir.entry(name), { mode: create.dirMode }).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
        });
        create.made.push(shown);
        // Opened again without following: a link put there since mkdir is refused, not entered.
        next = await openDir(dir.entry(name), root, shown);
        if (next === null) throw swapped(root, shown);
      }
      await dir.check(root);
      await dir.handle.close();
      dir = new OpenDir(next, path.join(dir.path, name));
    }
    return dir;
  } catch (err) {
    await dir.handle.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Refuses (ChronoscopeError 'refused', one line naming the link) when `file` or a folder on its way
 * from the root is a link leading out of the root. Call it before reading, so a refused write changes nothing.
 */
export async function checkContained(root: ContainingRoot, file: string): Promise<void> {
  if ((await lstatOrNull(root.dir)) === null) return;
  await resolveContained(root, file);
}

/**
 * Writes `file` whole (temporary file in its folder, fsync, rename, fsync of the folder), creating
 * its folders (and the root itself when missing); returns the folders it created, nearest the root
 * first. Refuses to follow a link out of the root.
 */
export async function writeContained(root: ContainingRoot, file: string, data: string | Buffer, options: ContainedWriteOptions = {}): Promise<{ createdDirs: string[] }> {
  const dirMode = options.dirMode ?? 0o777;
  const made: string[] = [];
  if ((await lstatOrNull(root.dir)) === null) {
    const above = [] as string[];
    for (let d = path.resolve(root.dir); (await lstatOrNull(d)) === null; d = path.dirname(d)) above.unshift(d);
    await fs.mkdir(root.dir, { recursive: true, mode: dirMode });
    made.push(...above);
  }
  const r = await resolveContained(root, file);
  const dir = (await walk(root, r, { dirMode, made }))!;
  const tmpName = `.${r.name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const tmp = dir.entry(tmpName);
  try {
    const existing = await lstatOrNull(dir.entry(r.name));
    if (existing?.isSymbolicLink()) throw swapped(root, path.join(dir.path, r.name));
    const mode = options.mode ?? (existing?.isFile() ? existing.mode & 0o7777 : undefined);
    const out = await fs.open(tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | (C.O_NOFOLLOW ?? 0), mode ?? 0o666);
    try {
      await out.writeFile(data);
      if (mode !== undefined) await out.chmod(mode);
      await out.sync();
    } finally {
      await out.close();
    }
    await dir.check(root);
    await fs.rename(tmp, dir.entry(r.name));
    await dir.handle.sync().catch(() => undefined);
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  } finally {
    await dir.handle.close();
  }
  return { createdDirs: made };
}

/** Removes `file` (never through a link out of the root); false when it was not there. */
export async function removeContained(root: ContainingRoot, file: string): Promise<boolean> {
  if ((await lstatOrNull(root.dir)) === null) return false;
  const r = await resolveContained(root, file);
  const dir = await walk(root, r, null);
  if (dir === null) return false;
  try {
    await dir.check(root);
    await fs.unlink(dir.entry(r.name));
    await dir.handle.sync().catch(() => undefined);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  } finally {
    await dir.handle.close();
  }
}

/**
 * Removes each listed folder that is empty, deepest first (the root last, when listed). For folders
 * a write of ours created: they go when nothing else was put in them.
 */
export async function removeEmptyFolders(root: ContainingRoot, dirs: readonly string[]): Promise<string[]> {
  const removed: string[] = [];
  const rootDir = path.resolve(root.dir);
  const listed = [...new Set(dirs.map((d) => path.resolve(d)))];
  const deepestFirst = listed.filter((d) => d !== rootDir).sort((a, b) => b.length - a.length);
  for (const d of deepestFirst) {
    if (!inside(rootDir, d)) continue;
    if ((await lstatOrNull(root.dir)) === null) break;
    let r: Resolved;
    try {
      r = await resolveContained(root, d);
    } catch {
      continue;
    }
    const parent = await walk(root, r, null);
    if (parent === null) continue;
    try {
      await parent.check(root);
      await fs.rmdir(parent.entry(r.name));
      removed.push(d);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
    } finally {
      await parent.handle.close();
    }
  }
  // The root itself, when a write of ours made it (rmdir does not follow a link in its place).
  if (listed.includes(rootDir)) {
    const gone = await fs.rmdir(rootDir).then(
      () => true,
      () => false,
    );
    if (gone) removed.push(rootDir);
  }
  // Folders above the root that the write made (a fresh HOME's ~/.config), nearest first, while empty.
  if (removed.includes(rootDir)) {
    for (const d of listed.filter((x) => x !== rootDir && inside(x, rootDir)).sort((a, b) => b.length - a.length)) {
      if (!(await fs.rmdir(d).then(() => true, () => false))) break;
      removed.push(d);
    }
  }
  return removed;
}
