// The one place where checkpoints that are not Chronoscope's own join the
// engine's verbs: Hermes Agent's /rollback history of the workspace
// (electron/agents/hermes/rollback-store*.ts reads it, read-only). list merges
// it in by time; resolve understands its ids ('h' + hex) and indexes into the
// merged list; show, diff and restore get a record whose tree has been copied
// into our store, so they run unchanged. Retention, pins, status and `latest`
// stay Chronoscope's own.
//
// Teammates' checkpoints (issue 43: fetched from the team's git remote by
// `share pull`, electron/share/) join the same way: list merges them in by
// time, resolve finds them by id when none of ours matches, and before a
// verb reads their files the blobs a blob-less pull left on the remote are
// fetched (lazy-blobs.ts). They are read-only here: never pruned, pinned or
// counted in status.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import type { Checkpoint } from '../../../shared/model.js';
import { isHermesRef } from '../../../shared/refs.js';
import { copyHermesTree, pathsMatching } from './hermes-store-objects.js';
import { HermesStoreError, readHermesLane, type HermesLane, type HermesRecord } from './hermes-store.js';
import type { WsContext } from '../layout/context.js';
import { listRecords, previousRecord, resolveRecord } from '../list.js';
import type { CheckpointRecord } from '../layout/message.js';
import { assertTreeReadable } from '../trees/tree-check.js';
import { latestHead } from '../head.js';
import type { RestorePlan } from '../restore-plan.js';
import { validateRef } from '../validate.js';
import { sharedRecords } from '../../share/shared-list.js';
import { ensureBlobs, ensureBlobsAt } from '../../share/lazy-blobs.js';

export type Warn = (message: string) => void;

/** Hermes' lane, or null; a store that cannot be read is a warning, never a failure of our own list. */
export async function laneOrWarn(ctx: WsContext, warn?: Warn): Promise<HermesLane | null> {
  try {
    return await readHermesLane(ctx.root, ctx.settings);
  } catch (err) {
    warn?.(`Hermes checkpoints left out: ${oneLine(err)}`);
    return null;
  }
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'unknown error';
}

/** Hermes' lane for a lookup the person asked for: here a broken store is the answer, as an error. */
async function laneOrThrow(ctx: WsContext): Promise<HermesLane | null> {
  try {
    return await readHermesLane(ctx.root, ctx.settings);
  } catch (err) {
    if (err instanceof HermesStoreError) throw new ChronoscopeError('not_found', `Hermes' checkpoint store cannot be read: ${err.message}`);
    throw err;
  }
}

/** Two newest-first lists into one, each keeping its own order (ours is by ref name, which a clock going back can bend). */
export function mergeNewestFirst<T>(ours: T[], theirs: T[], time: (x: T) => number): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < ours.length || j < theirs.length) {
    const a = ours[i];
    const b = theirs[j];
    if (b === undefined || (a !== undefined && time(a) >= time(b))) {
      out.push(a as T);
      i++;
    } else {
      out.push(b);
      j++;
    }
  }
  return out;
}

/** Teammates' checkpoints, newest first; shared logs that cannot be read are a warning, never a failure of our own list. */
async function sharedOrWarn(ctx: WsContext, warn?: Warn): Promise<CheckpointRecord[]> {
  try {
    return await sharedRecords(ctx, warn);
  } catch (err) {
    warn?.(`teammates' checkpoints left out: ${oneLine(err)}`);
    return [];
  }
}

/** Chronoscope's checkpoints, Hermes' and teammates' (shared), newest first. */
export async function listCheckpoints(ctx: WsContext, limit?: number, warn?: Warn): Promise<Checkpoint[]> {
  const [ours, lane, shared] = await Promise.all([listRecords(ctx, limit), laneOrWarn(ctx, warn), sharedOrWarn(ctx, warn)]);
  const merged = mergeNewestFirst(
    mergeNewestFirst(
      ours.map((r) => r.checkpoint),
      (lane?.records ?? []).map((r) => r.checkpoint),
      (c) => c.time_ms,
    ),
    shared.map((r) => r.checkpoint),
    (c) => c.time_ms,
  );
  return limit === undefined ? merged : merged.slice(0, limit);
}

async function resolveShared(ctx: WsContext, ref: string): Promise<CheckpointRecord | undefined> {
  const matches = (await sharedOrWarn(ctx)).filter((r) => r.checkpoint.id.startsWith(ref));
  if (matches.length > 1) throw new ChronoscopeError('bad_input', `checkpoint prefix ${ref} is ambiguous: it matches ${matches.length} of your teammates' checkpoints; give more digits`);
  return matches[0];
}

/** Ours first (list.ts); a teammate's shared checkpoint when none of ours matches. */
async function resolveOursOrShared(ctx: WsContext, ref: string): Promise<CheckpointRecord> {
  try {
    return await resolveRecord(ctx, ref);
  } catch (err) {
    if (!(err instanceof ChronoscopeError) || err.code !== 'not_found' || ref === 'latest') throw err;
    const shared = await resolveShared(ctx, ref);
    if (!shared) throw err;
    return shared;
  }
}

function toRecord(lane: HermesLane, r: HermesRecord): CheckpointRecord {
  return { checkpoint: r.checkpoint, refname: `${lane.ref}@${r.commit}`, tree: r.tree, hermes: { store: lane.store, parentTree: r.parentTree } };
}

async function resolveHermes(ctx: WsContext, ref: string): Promise<CheckpointRecord> {
  const lane = await laneOrThrow(ctx);
  const matches = (lane?.records ?? []).filter((r) => r.checkpoint.id.startsWith(ref));
  if (!lane || matches.length === 0) throw new ChronoscopeError('not_found', `no Hermes checkpoint ${ref} in this workspace (Hermes may have pruned it)`);
  if (matches.length > 1) throw new ChronoscopeError('bad_input', `Hermes checkpoint prefix ${ref} is ambiguous: it matches ${matches.length} checkpoints; give more digits`);
  return toRecord(lane, matches[0] as HermesRecord);
}

export interface ResolveOptions {
  /** Copy a Hermes checkpoint's objects (and its predecessor's, with `previous`) into our store: needed to diff or restore it. */
  objects?: boolean;
  previous?: boolean;
  /** Its files are about to be written (restore, fork): its trees are read first (tree-check.ts). */
  writes?: boolean;
  /** Only these paths of it are read (a path-limited restore): a teammate's other files are not fetched. */
  paths?: readonly string[];
}

/**
 * Resolves an outside reference among this workspace's checkpoints, Hermes'
 * included: 'h…' ids in Hermes' lane, indexes in the merged list (as `list`
 * numbers them), everything else among ours (list.ts).
 */
export async function resolveCheckpoint(ctx: WsContext, rawRef: string, options: ResolveOptions = {}): Promise<CheckpointRecord> {
  const ref = validateRef(rawRef);
  let record: CheckpointRecord;
  if (isHermesRef(ref)) record = await resolveHermes(ctx, ref);
  else if (/^[1-9][0-9]{0,2}$/.test(ref)) {
    const n = Number(ref);
    const merged = await listCheckpoints(ctx, n);
    const found = merged[n - 1];
    if (!found) throw new ChronoscopeError('not_found', `there is no checkpoint #${n}: this workspace has ${merged.length}`);
    record = found.origin === 'hermes' ? await resolveHermes(ctx, found.id) : await resolveOursOrShared(ctx, found.id);
  } else record = await resolveOursOrShared(ctx, ref);
  if (record.hermes && options.objects) {
    const { store, parentTree } = record.hermes;
    const target = { gitDir: ctx.store.gitDir, tmpDir: ctx.store.tmpDir, includeCredentials: ctx.settings.include_credentials };
    try {
      const tree = await copyHermesTree(store, target, record.tree);
      const parent = options.previous && parentTree ? await copyHermesTree(store, target, parentTree) : parentTree;
      record = { ...record, tree, hermes: { store, parentTree: parent } };
    } catch (err) {
      throw new ChronoscopeError('internal', `cannot read Hermes checkpoint ${record.checkpoint.id}: ${oneLine(err)}`);
    }
  }
  if (record.shared && options.objects) {
    // A blob-less pull left its file contents on the remote: what this verb reads is fetched now.
    const parent = record.shared.parentTree;
    if (options.paths) await ensureBlobsAt(ctx, record.tree, options.paths);
    else if (options.previous && !options.writes) {
      await ensureBlobs(ctx, record.tree, parent ? [parent] : []);
      if (parent) await ensureBlobs(ctx, parent, [record.tree]);
    } else await ensureBlobs(ctx, record.tree);
  }
  // Its content is about to be written: a damaged tree is refused here, before anything is done with it.
  if (options.writes) await assertTreeReadable(ctx.git, ctx.layout.dir, record, (await latestHead(ctx))?.tree);
  return record;
}

/** The tree a checkpoint's own changes are counted against: the one before it in its lane. */
export async function previousTree(ctx: WsContext, record: CheckpointRecord): Promise<string | undefined> {
  if (record.hermes) return record.hermes.parentTree ?? undefined;
  if (record.shared) return record.shared.parentTree ?? undefined;
  return (await previousRecord(ctx, record))?.tree;
}

/** Hermes leaves files over this size out of its checkpoints (its default max_file_size_mb). */
const HERMES_MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * A Hermes checkpoint never held what Hermes leaves out (its store's
 * info/exclude: build output, logs, archives…; files over its size cap), so
 * restoring one must not remove such files from the disk: their absence from
 * its tree says nothing. Removals of them are dropped from the plan.
 */
export async function keepWhatHermesLeavesOut(ctx: WsContext, record: CheckpointRecord, plan: RestorePlan): Promise<RestorePlan> {
  if (!record.hermes) return plan;
  const removals = [...plan.deleted, ...plan.untracked];
  if (removals.length === 0) return plan;
  const excludeFile = path.join(record.hermes.store, 'info', 'exclude');
  const kept = new Set<string>();
  if (await fs.stat(excludeFile).then((s) => s.isFile(), () => false)) {
    for (const p of await pathsMatching(ctx.store, excludeFile, removals)) kept.add(p);
  }
  await Promise.all(
    removals.map(async (rel) => {
      const st = await fs.lstat(path.join(ctx.root, rel)).catch(() => null);
      if (st?.isFile() && st.size > HERMES_MAX_FILE_BYTES) kept.add(rel);
    }),
  );
  if (kept.size === 0) return plan;
  return { ...plan, deleted: plan.deleted.filter((p) => !kept.has(p)), untracked: plan.untracked.filter((p) => !kept.has(p)) };
}
