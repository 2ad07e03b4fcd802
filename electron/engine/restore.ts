// Restoring a checkpoint into the workspace, two-phase, under the lock:
//   1. safety checkpoint (restoring it undoes this restore);
//   2. plan (diff of the disk's tree to the target, limited to paths);
//   3. check every needed object exists, before any file is touched;
//   4. remove what goes, write what comes: each file through a temporary file
//      in the same folder and a rename; symlinks created as links; a symlink
//      is never followed when writing (a link in the way is replaced, not
//      written through); modes restored;
//   5. record the restored state as a 'restore' checkpoint.
// Ignored files, oversized files the safety checkpoint skipped and anything
// in .git are never touched: they are not in the tree the plan starts from,
// and a write that would overwrite or go through such a file is skipped.
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import type { RestoreOf, RestoreOptions, RestorePreview, RestoreResult } from '../../shared/model.js';
import { batchCheck, batchContents } from './objects/cat-file.js';
import { shortId, type WsContext } from './layout/context.js';
import { exists, mapLimit } from './support/fsutil.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { openRegular, WorkspaceDirs, type HeldDir } from './support/dir-handles.js';
import { diskTree } from './scan/disk-tree.js';
import { EMPTY_TREE, git, splitNul } from './git/git-runner.js';
import { latestHead } from './head.js';
import { keepWhatHermesLeavesOut, resolveCheckpoint } from './foreign/lanes.js';
import { allRecords } from './list.js';
import type { CheckpointRecord } from './layout/message.js';
import { planRestore, type PlannedWrite, type RestorePlan } from './restore-plan.js';
import { cachedReader, pathInTree } from './trees/tree-diff.js';
import { takeSnapshot } from './snapshot.js';
import { fileModes, folderModes, recordedModes } from './file-modes.js';
import { writeFiles, WriteStop, unchangedSinceSafety, type Guard, type WriteHooks } from './tree-write.js';
import { assertNoSymlinkParent, inGitDir, validateRelPaths } from './validate.js';

async function checkPaths(ctx: WsContext, target: CheckpointRecord, options: RestoreOptions): Promise<string[] | undefined> {
  if (options.paths === undefined || options.paths.length === 0) return undefined;
  const paths = validateRelPaths(options.paths);
  for (const p of paths) await assertNoSymlinkParent(ctx.root, p);
  // A path in neither the checkpoint nor the workspace is a typo: say so, and change nothing (no safety checkpoint either).
  const read = cachedReader(ctx.git);
  for (const p of paths) {
    if (await pathInTree(read, target.tree, p)) continue;
    if (await exists(path.join(ctx.root, p))) continue;
    throw new ChronoscopeError('not_found', `path '${p}' matches nothing in checkpoint ${shortId(target.checkpoint.id)} nor in the workspace; nothing was changed`);
  }
  return paths;
}

function toPreview(target: CheckpointRecord, plan: RestorePlan, keep: boolean): RestorePreview {
  return {
    target: target.checkpoint.id,
    modified: plan.writes.filter((w) => w.kind === 'modified').map((w) => w.path),
    added: plan.writes.filter((w) => w.kind === 'added').map((w) => w.path),
    deleted: plan.deleted,
    untracked_removed: keep ? [] : plan.untracked,
    keep_untracked: keep,
  };
}

/** Dry run: no safety checkpoint, no writes; compares against a temporary tree of the disk. */
export async function previewRestore(ctx: WsContext, ref: string, options: RestoreOptions = {}): Promise<RestorePreview> {
  const target = await resolveCheckpoint(ctx, ref, { objects: true, writes: true, ...(options.paths?.length ? { paths: validateRelPaths(options.paths) } : {}) });
  const paths = await checkPaths(ctx, target, options);
  const [latest, disk] = await Promise.all([latestHead(ctx), diskTree(ctx)]);
  const plan = await planRestore(ctx.git, { currentTree: disk.tree, targetTree: target.tree, knownTree: latest?.tree ?? EMPTY_TREE, ...(paths ? { paths } : {}) });
  const preview = toPreview(target, await keepWhatHermesLeavesOut(ctx, target, plan), options.keep_untracked === true);
  if (target.checkpoint.trigger === 'safety' && !paths) {
    const changed = await changedSinceRestore(ctx, target, disk.tree);
    const touched = new Set([...preview.modified, ...preview.added, ...preview.deleted, ...preview.untracked_removed]);
    preview.changed_since_restore = changed.filter((p) => touched.has(p));
  }
  return preview;
}

/**
 * Undoing a restore restores its safety checkpoint. Files changed after that
 * restore (by hand, by an agent) would be reverted too: name them. The state
 * the restore left is its 'restore' checkpoint, the next one after the safety
 * checkpoint; without one, the restore changed nothing and the safety
 * checkpoint's tree is that state.
 */
async function changedSinceRestore(ctx: WsContext, safety: CheckpointRecord, diskTreeId: string): Promise<string[]> {
  const all = await allRecords(ctx);
  const i = all.findIndex((r) => r.refname === safety.refname);
  const next = i > 0 ? all[i - 1] : undefined;
  const after = next?.checkpoint.trigger === 'restore' && next.checkpoint.restore_target === safety.checkpoint.restore_target ? next.tree : safety.tree;
  if (after === diskTreeId) return [];
  return splitNul(await git(ctx.git, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', after, diskTreeId]));
}

/** Test seams: run between the safety checkpoint and the writes (e.g. an agent editing a file meanwhile), and around one file's write (another process swapping its folder). */
export interface RestoreHooks extends WriteHooks {
  afterSafety?: () => Promise<void>;
}

/** Runs under the workspace lock (the caller holds it). */
/** `restoreOf`: the target as titled now (words.ts), recorded in the safety and restore checkpoints. */
export async function restoreCheckpoint(ctx: WsContext, ref: string, options: RestoreOptions = {}, hooks: RestoreHooks = {}, restoreOf?: RestoreOf): Promise<RestoreResult> {
  // A Hermes checkpoint's objects are copied in here, under the lock: compaction (which holds every lock) cannot drop them before the writes.
  const target = await resolveCheckpoint(ctx, ref, { objects: true, writes: true, ...(options.paths?.length ? { paths: validateRelPaths(options.paths) } : {}) });
  const paths = await checkPaths(ctx, target, options);
  const keep = options.keep_untracked === true;
  const short = shortId(target.checkpoint.id);
  const named = restoreOf === undefined ? {} : { restore_of: restoreOf };

  const before = await latestHead(ctx);
  // Files the store knew before this restore; anything else on disk is new (untracked).
  const knownTree = before?.tree ?? EMPTY_TREE;
  // The plan only reads trees: it starts as soon as the safety scan has its
  // tree, beside the writing of the safety checkpoint, and is used only once
  // that checkpoint is recorded.
  let planned: Promise<RestorePlan & { inGit: string[] }> | undefined;
  let scannedTree: string | undefined;
  const safetyResult = await takeSnapshot(
    ctx,
    { trigger: 'safety', reason: `before restoring ${short}`, restore_target: target.checkpoint.id, ...named, ...(paths ? { restore_paths: paths } : {}) },
    {
      recordUnchanged: true,
      onTree: (tree) => {
        scannedTree = tree;
        planned = planRestore(ctx.git, { currentTree: tree, targetTree: target.tree, knownTree, ...(paths ? { paths } : {}) });
        planned.catch(() => undefined); // awaited below once the safety checkpoint exists
      },
    },
  );
  if (safetyResult.id === null || scannedTree === undefined || planned === undefined) {
    throw new ChronoscopeError('internal', 'no safety checkpoint could be taken; nothing was changed');
  }
  const safety = { id: safetyResult.id, tree: scannedTree };

  const fullPlan = await planned;
  const plan = await keepWhatHermesLeavesOut(ctx, target, fullPlan);
  const removals = keep ? plan.deleted : [...plan.deleted, ...plan.untracked];

  // Phase 1: every object must exist before anything is touched.
  const found = await batchCheck(ctx.git, plan.writes.map((w) => w.oid), { shared: true });
  const missing = plan.writes.filter((w) => !found.has(w.oid));
  if (missing.length > 0) {
    throw new ChronoscopeError('internal', `checkpoint ${short} is damaged: ${missing.length} object(s) missing (first: ${missing[0]?.path}); nothing was changed`);
  }

  // Every folder we will write in must be writable, so a read-only folder
  // stops the restore before the first file instead of halfway.
  await checkWritable(ctx.root, [...removals, ...plan.writes.map((w) => w.path)]);

  // A killed restore leaves temporary files behind (the snapshots ignore
  // them): sweep the folders it noted, and the ones this restore writes in.
  // Then note this restore's folders until its writes are done.
  const writeDirs = [...new Set(plan.writes.map((w) => path.posix.dirname(w.path)))];
  const dirs = await WorkspaceDirs.open(ctx.root);
  try {
    await sweepTmpFiles(ctx, dirs, writeDirs);
    await writeFileAtomic(journalFile(ctx), `${JSON.stringify(writeDirs)}\n`);
    await hooks.afterSafety?.();
    return await writePhase(ctx, dirs, { target, safety, plan, removals, keep, short, hooks, named, inGit: fullPlan.inGit, ...(paths ? { paths } : {}) });
  } finally {
    await dirs.close();
  }
}

interface WritePhase {
  target: CheckpointRecord;
  safety: { id: string; tree: string };
  plan: RestorePlan;
  removals: string[];
  keep: boolean;
  short: string;
  hooks: RestoreHooks;
  /** Paths under a .git folder the target holds: never written, reported as skipped. */
  inGit: string[];
  paths?: string[];
  /** Recorded in the restore checkpoint: what it restored, as titled (restoreCheckpoint). */
  named: { restore_of?: RestoreOf };
}

async function writePhase(ctx: WsContext, dirs: WorkspaceDirs, { target, safety, plan, removals, keep, short, hooks, inGit, paths, named }: WritePhase): Promise<RestoreResult> {
  // Phase 2: write. A file that no longer holds what the safety checkpoint
  // recorded was changed by someone else meanwhile: left as is, reported.
  // A write that would go through or over something the plan does not know is
  // skipped, reported. Should a write still fail, the error says where the
  // restore stopped and how to undo what was done.
  const conflicts: string[] = [];
  const skipped: string[] = [...inGit];
  const modes = fileModes(target.modes);
  const folderMode = folderModes(target.modes);
  const guard: Guard = { recorded: plan.recorded, conflicts, skipped, modes, folderMode, hooks };
  let removed: string[];
  let written: PlannedWrite[];
  let chmodded: string[];
  try {
    removed = await removeFiles(dirs, removals, guard);
    written = await writeFiles(ctx.git, dirs, plan.writes, new Set(removals), guard);
    // Files whose content the plan leaves alone may still differ in permission bits alone (a chmod since).
    const planned = new Set([...removals, ...plan.writes.map((w) => w.path)]);
    const candidates = [...new Set([...modes.keys(), ...fileModes(await recordedModes(ctx, safety.id)).keys()])].filter((p) => !planned.has(p) && inPaths(p, paths) && !inGitDir(p));
    chmodded = await restoreModesOnly(dirs, candidates, modes);
  } catch (err) {
    const where = err instanceof WriteStop ? err.path : '?';
    const why = err instanceof WriteStop ? err.reason : (err as Error).message;
    throw new ChronoscopeError('internal', `restore stopped at ${where}: ${why}; undo with: chronoscope restore ${shortId(safety.id)} --yes${(paths ?? []).map((p) => ` --path ${JSON.stringify(`./${p}`)}`).join('')}`);
  }
  await fs.rm(journalFile(ctx), { force: true });
  const touched = [...new Set([...removed, ...written.map((w) => w.path), ...chmodded])];

  let checkpoint: string | null = null;
  if (touched.length > 0) {
    const after = await takeSnapshot(
      ctx,
      { trigger: 'restore', reason: `restored ${short}`, restore_target: target.checkpoint.id, ...named, paths: touched, ...(paths ? { restore_paths: paths } : {}) },
      { internalPaths: true },
    );
    checkpoint = after.id;
  }
  const removedSet = new Set(removed);
  const untrackedRemoved = keep ? 0 : plan.untracked.filter((p) => removedSet.has(p)).length;
  return {
    restored: target.checkpoint.id,
    safety: safety.id,
    ...(paths ? { paths } : {}),
    checkpoint,
    files_changed: touched.length,
    modified: [...written.filter((w) => w.kind === 'modified').map((w) => w.path), ...chmodded].sort(),
    added: written.filter((w) => w.kind === 'added').map((w) => w.path),
    deleted: plan.deleted.filter((p) => removedSet.has(p)),
    untracked_removed: untrackedRemoved,
    conflicts: conflicts.sort(),
    skipped: skipped.sort(),
  };
}

function inPaths(rel: string, paths: string[] | undefined): boolean {
  return paths === undefined || paths.some((p) => rel === p || rel.startsWith(`${p}/`));
}

/**
 * Permission bits alone: each file (never a link: opened without following)
 * gets the bits the target recorded, or plain 644/755 (keeping its exec bit,
 * which the plan already matched) when it recorded none. Returns the paths changed.
 */
async function restoreModesOnly(dirs: WorkspaceDirs, rels: string[], recorded: Map<string, number>): Promise<string[]> {
  const changed: string[] = [];
  for (const rel of rels.sort()) {
    const parent = await dirs.acquire(path.posix.dirname(rel));
    if (!parent) continue;
    try {
      if (!(await dirs.unmoved(parent))) continue;
      const handle = await openRegular(parent.at(path.posix.basename(rel)));
      if (!handle) continue;
      try {
        const bits = (await handle.stat()).mode & 0o777;
        const wanted = recorded.get(rel) ?? (bits & 0o100 ? 0o755 : 0o644);
        // Only where the exec bit agrees (else the content differs too and the plan wrote it, or it changed since).
        if (bits === wanted || (bits & 0o100) !== (wanted & 0o100)) continue;
        await handle.chmod(wanted);
        changed.push(rel);
      } finally {
        await handle.close();
      }
    } finally {
      dirs.release(parent);
    }
  }
  return changed;
}

/** Folders (workspace-relative) where a restore in progress creates temporary files. */
function journalFile(ctx: WsContext): string {
  return path.join(ctx.layout.dir, 'restore-dirs.json');
}

const TMP_NAME = /^\.chronoscope-[0-9a-f]+\.tmp$/;

async function sweepTmpFiles(ctx: WsContext, dirs: WorkspaceDirs, relDirs: string[]): Promise<void> {
  let noted: string[] = [];
  try {
    const raw: unknown = JSON.parse(await fs.readFile(journalFile(ctx), 'utf8'));
    if (Array.isArray(raw)) noted = raw.filter((d): d is string => typeof d === 'string');
  } catch {
    /* no restore was interrupted */
  }
  await mapLimit([...new Set([...noted, ...relDirs])], 16, async (dir) => {
    if (dir.split('/').includes('..') || path.isAbsolute(dir)) return;
    // Never through a symlinked folder: its files are not the workspace's.
    const held = await dirs.acquire(dir);
    if (!held) return;
    try {
      const names = await fs.readdir(held.at('')).catch(() => [] as string[]);
      for (const name of names) {
        if (!TMP_NAME.test(name)) continue;
        const st = await fs.lstat(held.at(name)).catch(() => null);
        if (st && (st.isFile() || st.isSymbolicLink())) await fs.rm(held.at(name), { force: true });
      }
    } finally {
      dirs.release(held);
    }
  });
}

/** The nearest existing folder of each path must be writable; else refused, nothing changed. */
async function checkWritable(root: string, rels: string[]): Promise<void> {
  const nearest = async (rel: string): Promise<string> => {
    let dir = path.posix.dirname(rel);
    for (;;) {
      const full = dir === '.' ? root : path.join(root, dir);
      const st = await fs.lstat(full).catch(() => null);
      if (st || dir === '.') return dir;
      dir = path.posix.dirname(dir);
    }
  };
  // Each folder looked at once, all side by side; the first refused folder (in path order) is reported.
  const dirs = [...new Set(await Promise.all([...new Set(rels.map((r) => path.posix.dirname(r)))].map((d) => nearest(`${d}/x`))))];
  const writable = await Promise.all(
    dirs.map(async (dir) => {
      const full = dir === '.' ? root : path.join(root, dir);
      const st = await fs.lstat(full).catch(() => null);
      if (!st?.isDirectory()) return true; // a file or link in the way: that write is skipped later
      return fs.access(full, fsConstants.W_OK).then(() => true, () => false);
    }),
  );
  const refused = dirs.find((_, i) => !writable[i]);
  if (refused !== undefined) {
    throw new ChronoscopeError('refused', `${refused === '.' ? 'the workspace folder' : refused} is not writable; nothing was changed`);
  }
}

async function removeFiles(dirs: WorkspaceDirs, rels: string[], guard: Guard): Promise<string[]> {
  const removed: string[] = [];
  const emptied = new Set<string>();
  for (const rel of rels) {
    if (inGitDir(rel)) {
      guard.skipped.push(rel);
      continue;
    }
    const relDir = path.posix.dirname(rel);
    const parent = await dirs.acquire(relDir);
    if (!parent) {
      // Its folder is gone (so is the file), or something unrecorded stands in for it: left alone.
      const st = await fs.lstat(path.join(dirs.root, relDir)).catch(() => null);
      if (st) guard.skipped.push(rel);
      else removed.push(rel);
      continue;
    }
    try {
      const full = parent.at(path.posix.basename(rel));
      const st = await fs.lstat(full).catch(() => null);
      if (st && !st.isDirectory() && !(await unchangedSinceSafety(full, rel, guard))) continue;
      if (st && !st.isDirectory()) {
        if (!(await dirs.inside(parent))) {
          guard.skipped.push(rel);
          continue;
        }
        await fs.unlink(full).catch((err: Error) => {
          throw new WriteStop(rel, err.message);
        });
        removed.push(rel);
      } else if (!st) removed.push(rel);
      for (let d = relDir; d !== '.'; d = path.posix.dirname(d)) emptied.add(d);
    } finally {
      dirs.release(parent);
    }
  }
  // Folders left empty go too, deepest first; a folder still holding anything (an ignored file) stays.
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) {
    const parent = await dirs.acquire(path.posix.dirname(dir));
    if (!parent) continue;
    try {
      if (await dirs.inside(parent)) await fs.rmdir(parent.at(path.posix.basename(dir))).catch(() => undefined);
    } finally {
      dirs.release(parent);
    }
  }
  return removed;
}
