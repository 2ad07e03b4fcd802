// Writing a tree's files into a folder: restore's writes into the workspace
// and fork's into a new folder go through here, the one guarded place for
// tree writes. Every folder is held open (dir-handles.ts), so nothing is
// written through a link or outside the folder meant; each file goes through
// a temporary file and a rename; nothing under a .git folder is ever written;
// modes: the bits recorded where git could not hold them, a replaced file's
// own bits, else git's 644/755 through the umask; missing folders are created
// with the mode the caller gives (the recorded one), through the umask.
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { GitContext } from './git/git-env.js';
import { batchContents } from './objects/cat-file.js';
import { openRegular, type HeldDir, type WorkspaceDirs } from './support/dir-handles.js';
import type { PlannedWrite, RestorePlan } from './restore-plan.js';
import { inGitDir } from './validate.js';

/**
 * The mode a rewritten file gets: the bits the checkpoint recorded for it
 * when git could not hold them; else the existing file's permission bits when
 * there is one (a 0600 file stays 0600), with git's exec bit applied: 100755
 * adds x wherever r is set (and for the owner), 100644 clears every x.
 */
export function restoredMode(gitMode: string, existing: number | null, recorded?: number): number {
  const exec = gitMode === '100755';
  // Bits the checkpoint recorded beyond git's two modes win (a 0600 file comes back 0600).
  if (recorded !== undefined && ((recorded & 0o100) !== 0) === exec) return recorded;
  if (existing === null) return exec ? 0o755 : 0o644;
  const bits = existing & 0o777;
  if (!exec) return bits & ~0o111;
  return bits | 0o100 | ((bits & 0o040) >> 2) | ((bits & 0o004) >> 2);
}

/** Test seams around one file's write (another process swapping its folder meanwhile). */
export interface WriteHooks {
  /** After the folder was checked, before the temporary file is created. */
  beforeWrite?: (rel: string) => Promise<void>;
  /** After the rename, before the folder is checked again. */
  afterRename?: (rel: string) => Promise<void>;
}

export interface Guard {
  /** What the disk held before (the safety checkpoint) for each path replaced or removed: anything else there now is a conflict. */
  recorded: RestorePlan['recorded'];
  conflicts: string[];
  /** Writes left out for safety (a symlink, unknown file or folder in the way). */
  skipped: string[];
  /** Permission bits the target recorded beyond git's 644/755. */
  modes: Map<string, number>;
  /** The mode a missing folder is created with (before the umask), by its relative path. */
  folderMode: (rel: string) => number;
  hooks: WriteHooks;
}

/** A write-phase failure, with the path it happened at. */
export class WriteStop extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** git's blob id of some bytes. */
function blobId(data: Buffer): string {
  return createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');
}

/**
 * True if what is at `rel` now is what the safety checkpoint recorded there
 * (same kind and content), or nothing; false (and a conflict noted) otherwise.
 * Paths the plan knows nothing about are not checked here. `full` reaches the
 * file through its held folder; nothing on the way is followed.
 */
export async function unchangedSinceSafety(full: string, rel: string, guard: Guard): Promise<boolean> {
  const expected = guard.recorded.get(rel);
  if (!expected) return true;
  const st = await fs.lstat(full).catch(() => null);
  if (!st) return true; // gone: nothing on disk to lose
  let same = false;
  try {
    if (st.isSymbolicLink()) same = expected.mode === '120000' && blobId(Buffer.from(await fs.readlink(full), 'utf8')) === expected.oid;
    else if (st.isFile() && expected.mode.startsWith('100')) {
      const handle = await openRegular(full);
      if (handle) {
        try {
          same = blobId(await handle.readFile()) === expected.oid;
        } finally {
          await handle.close();
        }
      }
    }
  } catch {
    same = false;
  }
  if (!same) guard.conflicts.push(rel);
  return same;
}

function tmpName(): string {
  return `.chronoscope-${randomBytes(6).toString('hex')}.tmp`;
}

/** Files written at once: the writes are small fs calls, and their latency, not the disk, is what costs. */
const WRITES_IN_FLIGHT = 8;

export async function writeFiles(gitCtx: GitContext, dirs: WorkspaceDirs, writes: PlannedWrite[], removals: Set<string>, guard: Guard): Promise<PlannedWrite[]> {
  const byOid = new Map<string, PlannedWrite[]>();
  for (const w of writes) byOid.set(w.oid, [...(byOid.get(w.oid) ?? []), w]);
  const done = new Set<PlannedWrite>();
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  await batchContents(gitCtx, [...byOid.keys()], async (oid, data) => {
    for (const w of byOid.get(oid) ?? []) {
      // Stop starting writes once one failed; the ones under way finish.
      if (failure !== null) break;
      const task: Promise<void> = writeOne(dirs, w, data, removals, guard).then(
        (ok) => void (ok && done.add(w)),
        (err: unknown) => void (failure ??= err),
      );
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight);
    }
  });
  await Promise.all(inFlight);
  if (failure !== null) throw failure;
  return writes.filter((w) => done.has(w));
}

const NEW_FILE = fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | (fsConstants.O_NOFOLLOW ?? 0);

async function writeOne(dirs: WorkspaceDirs, w: PlannedWrite, data: Buffer, removals: Set<string>, guard: Guard): Promise<boolean> {
  const skip = (): false => {
    guard.skipped.push(w.path);
    return false;
  };
  // Never under a .git folder (the plan leaves such paths out already; this writer is the last word).
  if (inGitDir(w.path)) return skip();
  let parent: HeldDir | null;
  try {
    // Missing folders are made real folders; a link or file in the way is replaced only if the plan removes it.
    parent = await dirs.acquire(path.posix.dirname(w.path), { create: true, replaceable: removals, folderMode: guard.folderMode });
  } catch (err) {
    throw new WriteStop(w.path, (err as Error).message);
  }
  if (!parent) return skip();
  try {
    if (!(await dirs.inside(parent))) return skip();
    const full = parent.at(path.posix.basename(w.path));
    const existing = await fs.lstat(full).catch(() => null);
    // Something on disk the plan did not know about (ignored, oversized): leave it.
    if (existing && w.kind === 'added') return skip();
    if (existing?.isDirectory()) return skip();
    if (existing && !(await unchangedSinceSafety(full, w.path, guard))) return false;
    await guard.hooks.beforeWrite?.(w.path);
    const tmpBase = tmpName();
    const tmp = parent.at(tmpBase);
    try {
      if (w.mode === '120000') {
        await fs.symlink(data.toString('utf8'), tmp);
      } else {
        const replaced = existing?.isFile() ? existing.mode : null;
        const mode = restoredMode(w.mode, replaced, guard.modes.get(w.path));
        // A new file gets its mode through the umask (open applies it), so a
        // restrictive umask narrows it; a file that replaces one keeps exactly
        // the bits worked out above (chmod), never more than it had or recorded.
        const handle = await fs.open(tmp, NEW_FILE, mode);
        try {
          if (!(await dirs.holdsFile(parent, tmpBase, handle))) {
            await fs.rm(tmp, { force: true }).catch(() => undefined);
            return skip();
          }
          await handle.writeFile(data);
          if (replaced !== null) await handle.chmod(mode);
        } finally {
          await handle.close();
        }
      }
      // Checked again after the write, right before the rename: a folder
      // swapped for a link meanwhile is never renamed into (where folders are
      // reached by path, the temporary file itself may have gone through it:
      // removed the same way).
      if (!(await dirs.unmoved(parent))) {
        await fs.rm(tmp, { force: true }).catch(() => undefined);
        return skip();
      }
      await fs.rename(tmp, full);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw new WriteStop(w.path, (err as Error).message);
    }
    await guard.hooks.afterRename?.(w.path);
    // Moved out of the workspace while we wrote: take back what landed there.
    if (!(await dirs.inside(parent))) {
      await fs.rm(full, { force: true }).catch(() => undefined);
      return skip();
    }
    return true;
  } finally {
    dirs.release(parent);
  }
}
