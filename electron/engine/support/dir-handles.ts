// Folders of the workspace held open while a restore writes into them, so no
// write, rename, temp file or removal can land outside the workspace, whatever
// another process does to its folders meanwhile (swapping a folder for a
// symlink to somewhere else, for instance).
//
// Node has no openat()/renameat(). On Linux the same effect comes from
// /proc/self/fd/<fd>/<name>: the kernel resolves the fd to the very folder we
// opened (by inode, not by path), and each folder is opened from its parent's
// fd with O_NOFOLLOW|O_DIRECTORY, so a symlink swapped in anywhere on the way
// is refused instead of followed. A folder moved away while held is caught by
// checking where its fd points (still inside the workspace's real path) before
// and after each write. Elsewhere (macOS, Windows) the same calls fall back to
// plain paths checked with lstat and realpath right before each operation, and
// before writing into a new temporary file (`holdsFile`: found by inode at its
// place) and once more right before the rename (`unmoved`: the folder is a
// real folder at exactly its place): a narrower check, with a small window
// left (an empty temporary file outside; a rename in the instant after the
// check); README's safety section says so. CHRONOSCOPE_TEST_PATH_GUARD=1 makes Linux
// take the fallback too, so the tests exercise it.
import { constants as C } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Folders reached through held fds (Linux), else through checked paths. */
function fdPaths(): boolean {
  return process.platform === 'linux' && process.env['CHRONOSCOPE_TEST_PATH_GUARD'] !== '1';
}
/** Where names differ only in case is the same name (checked paths compare the real path). */
const CASE_FOLDS = process.platform === 'darwin' || process.platform === 'win32';
const DIR_FLAGS = C.O_RDONLY | (C.O_DIRECTORY ?? 0) | (C.O_NOFOLLOW ?? 0);
/** Folders kept open at once; more are closed when no write is using them. */
const MAX_OPEN = 128;

export interface HeldDir {
  rel: string;
  /** Absolute path that reaches a name inside this folder without following anything on the way. */
  at(name: string): string;
}

interface Entry {
  rel: string;
  /** The open folder (Linux); null where paths are used instead. */
  handle: fs.FileHandle | null;
  users: number;
  /** Evicted: a caller that finds it so opens the folder again. */
  closed?: boolean;
}

export interface OpenDirOptions {
  /** Create missing folders (as real folders). */
  create?: boolean;
  /** Folders (relative) that may be replaced when something else is in the way (the plan removes them). */
  replaceable?: ReadonlySet<string>;
  /** The mode a created folder gets, before the umask (default 0777: the umask alone decides). */
  folderMode?: (rel: string) => number;
}

export class WorkspaceDirs {
  private readonly entries = new Map<string, Promise<Entry | null>>();

  private readonly fdPaths = fdPaths();

  private constructor(
    readonly root: string,
    private readonly realRoot: string,
  ) {}

  static async open(root: string): Promise<WorkspaceDirs> {
    return new WorkspaceDirs(root, await fs.realpath(root));
  }

  /**
   * The folder `rel` ('.' for the workspace), held until `release`. null when
   * something that is not a real folder is in the way (and may not be
   * replaced), or the folder is missing and `create` is off.
   */
  async acquire(rel: string, options: OpenDirOptions = {}): Promise<HeldDir | null> {
    for (;;) {
      const pending = this.entry(rel, options);
      const entry = await pending;
      if (!entry) return null;
      if (entry.closed) {
        if (this.entries.get(rel) === pending) this.entries.delete(rel);
        continue;
      }
      entry.users++;
      return this.held(entry);
    }
  }

  release(dir: HeldDir): void {
    const entry = this.entries.get(dir.rel);
    void entry?.then((e) => {
      if (e) e.users = Math.max(0, e.users - 1);
    });
  }

  /** True while the folder is still inside the workspace (it may have been moved meanwhile). */
  async inside(dir: HeldDir): Promise<boolean> {
    let where: string;
    try {
      where = this.fdPaths ? await fs.readlink(dir.at('').replace(/\/$/, '')) : await fs.realpath(dir.at(''));
    } catch {
      return false;
    }
    if (where.endsWith(' (deleted)')) return false;
    const rel = path.relative(this.realRoot, where);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  }

  /**
   * Right before a rename into the folder: it is still where it belongs.
   * Held fds: still inside the workspace (inside). Checked paths: the path is a
   * real folder, not a link, and its real path is exactly the workspace's real
   * path plus its own — so the rename cannot go through a folder swapped for a
   * link since the temporary file was written.
   */
  async unmoved(dir: HeldDir): Promise<boolean> {
    if (this.fdPaths) return this.inside(dir);
    const full = dir.rel === '.' ? this.root : path.join(this.root, dir.rel);
    const st = await fs.lstat(full).catch(() => null);
    if (!st?.isDirectory()) return false;
    const real = await fs.realpath(full).catch(() => null);
    const expected = dir.rel === '.' ? this.realRoot : path.join(this.realRoot, ...dir.rel.split('/'));
    return real !== null && (CASE_FOLDS ? real.toLowerCase() === expected.toLowerCase() : real === expected);
  }

  /**
   * A file just created through `dir` (open as `handle`) is in that folder at
   * its place, checked before anything is written to it: where folders are
   * reached by path, a folder swapped for a link at the instant of the create
   * leaves at most an empty file elsewhere, never checkpoint content.
   */
  async holdsFile(dir: HeldDir, name: string, handle: fs.FileHandle): Promise<boolean> {
    if (this.fdPaths) return true;
    if (!(await this.unmoved(dir))) return false;
    const [opened, found] = await Promise.all([handle.stat(), fs.lstat(dir.at(name)).catch(() => null)]);
    return found !== null && found.ino === opened.ino && found.dev === opened.dev;
  }

  async close(): Promise<void> {
    const all = await Promise.all(this.entries.values());
    this.entries.clear();
    this.opened.clear();
    await Promise.all(all.map((e) => (e && !e.closed ? e.handle?.close().catch(() => undefined) : undefined)));
  }

  private held(entry: Entry): HeldDir {
    const base = entry.handle ? `/proc/self/fd/${entry.handle.fd}` : entry.rel === '.' ? this.root : path.join(this.root, entry.rel);
    return { rel: entry.rel, at: (name) => (name === '' ? `${base}/` : `${base}/${name}`) };
  }

  private entry(rel: string, options: OpenDirOptions): Promise<Entry | null> {
    let pending = this.entries.get(rel);
    if (!pending) {
      pending = this.openEntry(rel, options);
      this.entries.set(rel, pending);
      // A folder that was not there (or not a folder) may be created by a later call that asks to.
      void pending.then((e) => {
        if (!e && this.entries.get(rel) === pending) this.entries.delete(rel);
      });
    }
    return pending;
  }

  private async openEntry(rel: string, options: OpenDirOptions): Promise<Entry | null> {
    if (rel === '.') {
      if (!this.fdPaths) return { rel, handle: null, users: 0 };
      return { rel, handle: await fs.open(this.root, DIR_FLAGS), users: 1 }; // the root stays open until close()
    }
    const parentRel = path.posix.dirname(rel);
    const parent = await this.acquire(parentRel, options);
    if (!parent) return null;
    try {
      const name = path.posix.basename(rel);
      const full = parent.at(name);
      if (!(await this.makeDir(full, rel, options))) return null;
      if (!this.fdPaths) {
        // Checked right before use: every part of the way is a real folder inside the workspace.
        const st = await fs.lstat(full).catch(() => null);
        const entry: Entry = { rel, handle: null, users: 0 };
        return st?.isDirectory() && (await this.inside(this.held(entry))) ? entry : null;
      }
      try {
        return this.track({ rel, handle: await fs.open(full, DIR_FLAGS), users: 0 });
      } catch {
        return null; // swapped for a link or a file meanwhile: never followed
      }
    } finally {
      this.release(parent);
    }
  }

  /** Makes `full` a real folder if allowed; false if something else stays in the way. */
  private async makeDir(full: string, rel: string, options: OpenDirOptions): Promise<boolean> {
    const st = await fs.lstat(full).catch(() => null);
    if (st?.isDirectory()) return true;
    if (!options.create) return false;
    if (st) {
      if (!options.replaceable?.has(rel)) return false;
      await fs.unlink(full);
    }
    try {
      await fs.mkdir(full, { mode: options.folderMode?.(rel) ?? 0o777 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return true;
  }

  private readonly opened = new Set<Entry>();

  /** Closes unused folders past MAX_OPEN, synchronously choosing them (no acquire can slip in between). */
  private evict(keep: Entry): void {
    if (this.opened.size <= MAX_OPEN) return;
    for (const e of this.opened) {
      if (this.opened.size <= MAX_OPEN / 2) break;
      if (e.users > 0 || e === keep) continue;
      e.closed = true;
      this.opened.delete(e);
      void e.handle?.close().catch(() => undefined);
    }
  }

  private track(entry: Entry): Entry {
    this.opened.add(entry);
    this.evict(entry);
    return entry;
  }
}

/**
 * Opens a file inside a held folder for reading without following a link or
 * blocking on a pipe; null unless it is a regular file.
 */
export async function openRegular(file: string): Promise<fs.FileHandle | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, C.O_RDONLY | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  const st = await handle.stat().catch(() => null);
  if (!st?.isFile()) {
    await handle.close().catch(() => undefined);
    return null;
  }
  return handle;
}
