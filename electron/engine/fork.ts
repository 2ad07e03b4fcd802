// Writing a checkpoint's files into a folder outside the workspace: a fork the
// person keeps (`chronoscope fork`), or the scratch copy a verifier runs in.
// The writing goes through restore's guarded writer (tree-write.ts): folders
// held open and never followed through a link, nothing under a .git folder,
// files with the modes the checkpoint recorded (git's checkout-index knows
// only 644/755, so a 0600 file came out 0644), folders as recorded, the fork's
// own folder no more open than the workspace's, and the umask narrowing
// whatever is new.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import type { ForkResult } from '../../shared/model.js';
import type { WsContext } from './layout/context.js';
import { isInside } from './support/fsutil.js';
import { git, splitNul } from './git/git-runner.js';
import { resolveCheckpoint } from './foreign/lanes.js';
import { WorkspaceDirs } from './support/dir-handles.js';
import { fileModes, folderModes } from './file-modes.js';
import type { PlannedWrite } from './restore-plan.js';
import { writeFiles, WriteStop, type Guard } from './tree-write.js';

/** Every file and link of `tree` as a write into an empty folder (gitlinks are never written). */
async function treeWrites(ctx: WsContext, tree: string): Promise<PlannedWrite[]> {
  const writes: PlannedWrite[] = [];
  for (const entry of splitNul(await git(ctx.git, ['ls-tree', '-r', '-z', '--full-tree', tree]))) {
    const tab = entry.indexOf('\t');
    const [mode = '', type = '', oid = ''] = entry.slice(0, tab).split(' ');
    if (type === 'blob') writes.push({ path: entry.slice(tab + 1), mode, oid, kind: 'added' });
  }
  return writes;
}

/** Writes the tree of checkpoint `ref` into `dir`, an existing empty folder outside the workspace and the store. */
export async function materializeCheckpoint(ctx: WsContext, ref: string, dir: string): Promise<string> {
  // Hermes' checkpoints too: their objects are copied into our store first (lanes.ts).
  const record = await resolveCheckpoint(ctx, ref, { objects: true, writes: true });
  if (isInside(await fs.realpath(dir), ctx.root)) throw new ChronoscopeError('refused', `refusing to write a checkpoint into ${dir}: it is inside the workspace`);
  const guard: Guard = { recorded: new Map(), conflicts: [], skipped: [], modes: fileModes(record.modes), folderMode: folderModes(record.modes), hooks: {} };
  const dirs = await WorkspaceDirs.open(dir);
  try {
    await writeFiles(ctx.git, dirs, await treeWrites(ctx, record.tree), new Set(), guard);
  } catch (err) {
    if (err instanceof WriteStop) throw new ChronoscopeError('internal', `cannot write ${err.path} into ${dir}: ${err.reason}`);
    throw err;
  } finally {
    await dirs.close();
  }
  return record.checkpoint.id;
}

/** The workspace folder's permission bits: the fork's folder gets them (a private workspace makes a private fork). */
async function workspaceMode(ctx: WsContext): Promise<number> {
  return (await fs.stat(ctx.root)).mode & 0o777;
}

/** `<workspace>-fork-<first 8 digits of the id>`, beside the workspace. */
export function defaultForkPath(root: string, id: string): string {
  return `${root}-fork-${id.slice(0, 8)}`;
}

/**
 * The real location `target` will have once created: the deepest existing
 * ancestor resolved through its links, then the rest of the name.
 */
async function realTarget(target: string): Promise<string> {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/** Refuses any target that exists (even empty, even a dangling link), or that is in the workspace or the store. */
export async function checkForkTarget(ctx: WsContext, target: string): Promise<string> {
  if (target.length === 0 || target.includes('\0')) throw new ChronoscopeError('bad_input', 'the fork folder must be a path');
  const absolute = path.resolve(target);
  const exists = await fs.lstat(absolute).then(
    () => true,
    () => false,
  );
  if (exists) throw new ChronoscopeError('refused', `${absolute} already exists; a fork goes only into a new folder`);
  const real = await realTarget(absolute);
  if (isInside(real, ctx.root)) throw new ChronoscopeError('refused', `refusing to fork into ${absolute}: it is inside the workspace`);
  if (isInside(real, ctx.store.home)) throw new ChronoscopeError('refused', `refusing to fork into ${absolute}: it is inside the Chronoscope store`);
  return absolute;
}

export async function forkCheckpoint(ctx: WsContext, ref: string, to?: string): Promise<ForkResult> {
  const record = await resolveCheckpoint(ctx, ref, { writes: true });
  const target = await checkForkTarget(ctx, to ?? defaultForkPath(ctx.root, record.checkpoint.id));
  await fs.mkdir(path.dirname(target), { recursive: true });
  try {
    // Not recursive: if something appeared there since the check, this fails instead of writing into it.
    await fs.mkdir(target, { mode: await workspaceMode(ctx) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new ChronoscopeError('refused', `${target} already exists; a fork goes only into a new folder`);
    throw new ChronoscopeError('internal', `cannot create ${target}: ${(err as Error).message}`);
  }
  try {
    await materializeCheckpoint(ctx, record.checkpoint.id, target);
  } catch (err) {
    // The folder is ours (created just above): a half-written fork is taken away again.
    await fs.rm(target, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  return { id: record.checkpoint.id, path: target };
}
