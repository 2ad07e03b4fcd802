// Taking a checkpoint. Runs under the workspace lock (the caller holds it).
//
// Git processes per snapshot: a full scan asks diff-files and ls-files -o side
// by side what changed (from the stat cache). Up to 200 changes that git's rules already
// admit (tracked files, or new ones ls-files let through) are then built in
// Node (tree-update.ts): blobs, the trees along their paths, line counts — no
// more git processes; the private index catches up afterwards off the
// critical path (index-sync.ts). Otherwise git does it: update-index (hash
// only the changed paths), then write-tree and diff-index --numstat side by
// side. A snapshot with nothing changed is those 2 (the head file
// knows the index's tree). Path-limited snapshots of paths the latest
// checkpoint (or a checkpoint whose index sync is still queued) already has
// run no git process at all; with new plain files: update-index beside
// check-ignore, then write-tree beside diff-index (scan-paths.ts). The latest
// checkpoint comes from the head file (head.ts; one for-each-ref only when it
// cannot be confirmed), and the commit object and its ref are written from
// Node (loose-write.ts), every object of the snapshot fsynced in one batch.
//
// Crash safety: the ref is created (create-only) only after the commit object
// exists, so a checkpoint that was reported is never lost and a crash leaves
// at most unreferenced objects for gc; the head file is written last and is
// only trusted while the refs confirm it.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SkippedFile, SnapshotOptions, SnapshotResult, Trigger } from '../../shared/model.js';
import { PROMPT_ID_PATTERN, TRIGGERS } from '../../shared/model.js';
import { ChronoscopeError } from '../../shared/errors.js';
import { shortId, type WsContext } from './layout/context.js';
import { buildExcludeFile, credentialExcludeArgs } from './scan/excludes.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { GIT_IDENTITY } from './git/git-env.js';
import { EMPTY_TREE, git } from './git/git-runner.js';
import { latestHead, writeHead, type Head } from './head.js';
import { indexSignature } from './index/index-signature.js';
import { isIndexDamage } from './index/index-damage.js';
import { decodeCheckpoint, nextRefName } from './list.js';
import { commitBody, createLooseRef } from './objects/loose-write.js';
import { ObjectBatch } from './objects/object-batch.js';
import { scheduleMerge } from './objects/pack-merge.js';
import { modeChange, rememberModes } from './file-modes.js';
import { ctimeRacyPaths, rememberCtimeRacy } from './index/ctime-racy.js';
import { repairHashedObjects } from './scan/object-check.js';
import { decodeMessage, encodeMessage, sanitizeLine, type CheckpointMeta } from './layout/message.js';
import { readMeta, writeMeta, type MetaFile } from './layout/meta.js';
import { scanToTree } from './scan/scan.js';
import type { ScanOptions, ScanResult } from './scan/scan-result.js';
import { validateRelPaths } from './validate.js';
import { numstat, type CountedStats } from './git/stats.js';
import { autoReason } from './reason.js';
import { throttleProgress } from './progress.js';
import { adoptPendingNote, queuedSync, recordableOf, syncIndexLater } from './index-sync.js';
import { withdrawnError, type SnapshotControl } from './snapshot-control.js';
import { scanPathsInNode, type NodeScan } from './scan/tree-update.js';

/** The special-file walk's cache in the workspace's folder (special-files.ts). */
const SPECIALS_CACHE = 'specials.json';

/** last_touched is advisory (which workspace was used lately): rewrite it at most this often. */
const TOUCH_EVERY_MS = 60_000;

/** Rewrites the exclude file when its content changed; true if it did. */
export async function syncExcludeFile(ctx: WsContext, meta: MetaFile): Promise<boolean> {
  const wanted = buildExcludeFile(ctx.settings, meta.nested_repos);
  const current = await fs.readFile(ctx.layout.excludeFile, 'utf8').catch(() => null);
  if (current === wanted) return false;
  await writeFileAtomic(ctx.layout.excludeFile, wanted, { mode: 0o600 });
  return true;
}

export async function loadMetaOrFail(ctx: WsContext): Promise<MetaFile> {
  const meta = await readMeta(ctx.layout.metaFile);
  if (!meta) throw new ChronoscopeError('internal', `workspace metadata ${ctx.layout.metaFile} is missing or damaged`);
  return meta;
}

/**
 * Scans the disk into the private index, recording newly found nested
 * repositories. `latest` (with the index signature it was confirmed for) lets
 * an unchanged scan skip write-tree and counts the changes against its tree.
 */
export async function scanPrivateIndex(
  ctx: WsContext,
  paths: string[] | undefined,
  meta?: MetaFile,
  latest?: Head,
  withoutIndex?: ScanOptions['withoutIndex'],
  specialsOnlyIfChanged = false,
): Promise<ScanResult> {
  meta ??= await loadMetaOrFail(ctx);
  const excludesChanged = await syncExcludeFile(ctx, meta);
  const options: ScanOptions = {
    maxFileBytes: ctx.settings.max_file_mb * 1024 * 1024,
    recheckIgnored: excludesChanged,
    statsFrom: latest?.tree ?? EMPTY_TREE,
    excludeArgs: credentialExcludeArgs(ctx.settings),
    trackObjectDirs: true,
    specialsCache: path.join(ctx.layout.dir, SPECIALS_CACHE),
    specialsOnlyIfChanged,
    ...(withoutIndex ? { withoutIndex } : {}),
  };
  const indexNow = await indexSignature(ctx.layout.indexFile);
  const queued = queuedSync(ctx);
  if (latest?.index !== undefined && latest.index === indexNow) options.knownTree = latest.tree;
  // The latest checkpoint was built without the index and its sync still waits
  // for the lock we hold (a restore's safety checkpoint): the index is the tree
  // before it, and what changed since is among its paths and what ls-files finds.
  else if (latest !== undefined && queued !== null && queued.commit === latest.id && queued.indexBefore !== null && queued.indexBefore === indexNow) {
    options.pendingPaths = [...queued.seen.keys()];
    options.pendingRecordable = recordableOf(queued);
  }
  // An index that is not the latest checkpoint's may be an interrupted
  // snapshot's: the path-limited fast path adds ignored paths speculatively
  // and drops them a moment later, so apply the ignore rules again.
  else if (latest !== undefined) options.recheckIgnored = true;
  // We hold the workspace lock, so we are the only writer of the private
  // index: an index.lock is what a killed snapshot left, and would make every
  // later update-index fail.
  await fs.rm(`${ctx.layout.indexFile}.lock`, { force: true });
  const progress = ctx.onProgress ? throttleProgress(ctx.onProgress, ctx.root) : undefined;
  if (progress) options.onProgress = (hashed, total) => progress.update(hashed, total);
  let scan: ScanResult;
  try {
    scan = await scanToTree(ctx.git, ctx.root, paths ? { ...options, paths } : options);
  } catch (err) {
    if (!isIndexDamage(err)) throw err;
    // A damaged private index, or one naming objects that gc pruned after an
    // interrupted snapshot: it is only a cache, so rebuild it from the disk.
    // Other failures (a file we cannot read...) are not the index's fault:
    // throwing it away would only make the next snapshot hash everything.
    await fs.rm(ctx.layout.indexFile, { force: true });
    await fs.rm(`${ctx.layout.indexFile}.lock`, { force: true });
    delete options.knownTree;
    delete options.pendingPaths;
    delete options.pendingRecordable;
    delete options.withoutIndex;
    scan = await scanToTree(ctx.git, ctx.root, options);
  } finally {
    progress?.end();
  }
  const fresh = scan.nestedRepos.filter((p) => !meta.nested_repos.includes(p));
  if (fresh.length > 0) {
    meta.nested_repos = [...meta.nested_repos, ...fresh].sort();
    await writeMeta(ctx.layout.metaFile, meta);
    await syncExcludeFile(ctx, meta);
  }
  return scan;
}

/**
 * `internalPaths`: options.paths come from the engine itself (not re-validated).
 * `recordUnchanged` records a checkpoint even when the tree equals the latest
 * one: a restore's safety checkpoint always appears on the timeline as its own
 * marked moment, so the person sees exactly where to go back to.
 */
export async function takeSnapshot(
  ctx: WsContext,
  options: SnapshotOptions = {},
  {
    recordUnchanged = false,
    internalPaths = false,
    onTree,
    control,
  }: {
    recordUnchanged?: boolean;
    internalPaths?: boolean;
    /** Told the scanned tree before the checkpoint is written (read-only work may start on it). */
    onTree?: (tree: string) => void;
    /** A request that may be withdrawn until its ref is written (a CLI's Ctrl-C). */
    control?: SnapshotControl | undefined;
  } = {},
): Promise<SnapshotResult> {
  const trigger: Trigger = options.trigger ?? 'manual';
  if (!TRIGGERS.includes(trigger)) throw new ChronoscopeError('bad_input', `trigger '${String(trigger)}' is not one of ${TRIGGERS.join(', ')}`);
  // Paths git itself listed (a restore's touched files) are exact names, and
  // names like '-dash' or 'back\slash' are legal there: validation is for
  // outside input only. They reach git after '--' with literal pathspecs.
  const paths = options.paths === undefined ? undefined : internalPaths ? [...new Set(options.paths)] : validateRelPaths(options.paths);
  if (paths !== undefined && paths.length === 0) return { id: null, skipped: 'no paths given' };

  const [latest, meta] = await Promise.all([latestHead(ctx), loadMetaOrFail(ctx)]);
  await control?.stage?.('scanning');
  if (control?.withdrawn() === true) throw withdrawnError();
  // Every object this snapshot writes from Node, fsynced together before the ref (loose-write.ts).
  const batch = new ObjectBatch(ctx.store.gitDir);
  let result: SnapshotResult;
  try {
    result = await snapshotWith(ctx, batch, { trigger, paths, latest, meta, options, recordUnchanged, onTree, control });
  } finally {
    await batch.close();
  }
  // One pack per snapshot: once there are MERGE_AT of them the small ones are joined, in the background.
  if (batch.wrotePack) await scheduleMerge(ctx.store.gitDir);
  return result;
}

interface SnapshotInput {
  trigger: Trigger;
  paths: string[] | undefined;
  latest: Head | undefined;
  meta: MetaFile;
  options: SnapshotOptions;
  recordUnchanged: boolean;
  onTree: ((tree: string) => void) | undefined;
  control: SnapshotControl | undefined;
}

async function snapshotWith(ctx: WsContext, batch: ObjectBatch, { trigger, paths, latest, meta, options, recordUnchanged, onTree, control }: SnapshotInput): Promise<SnapshotResult> {
  // Known files edited or deleted: no git process (tree-update.ts); the index catches up afterwards.
  // Paths a checkpoint still waiting for its index sync had (a restore's safety checkpoint) count as known.
  // A sync a process that exited left to the next one (index-pending.ts): as if queued here.
  if (latest !== undefined) await adoptPendingNote(ctx, latest.id);
  const queued = latest !== undefined ? queuedSync(ctx) : null;
  const racy = ctimeRacyPaths(ctx);
  const recordable = queued !== null && queued.commit === latest?.id ? { recordable: new Set(recordableOf(queued)) } : {};
  let inNode: NodeScan | null = paths !== undefined && latest !== undefined ? await scanPathsInNode(ctx, paths, latest, meta, { batch, ...recordable }) : null;
  // A full scan that finds a few changes builds the tree the same way, from what ls-files found.
  const withoutIndex =
    latest === undefined
      ? undefined
      : async (changed: string[], recordable: ReadonlySet<string>): Promise<ScanResult | null> => (inNode = await scanPathsInNode(ctx, changed, latest, meta, { batch, recordable }));
  // A scan that finds nothing changed records nothing (unless asked to, or a chmod git cannot see may be
  // due): its special-file walk would name them in no checkpoint, so it is skipped.
  // A person's checkpoint looks at everything: the files it leaves out are named in it (newlyLeftOut).
  const quietIsNoop = !recordUnchanged && trigger !== 'manual' && (await racy).length === 0;
  const scan = inNode ?? (await scanPrivateIndex(ctx, paths, meta, latest, withoutIndex, quietIsNoop));
  // Readers of the tree (onTree) need its objects in place; the fsyncs wait for the ref.
  if (onTree) await batch.written();
  onTree?.(scan.tree);
  let result: SnapshotResult;
  // The paths whose permission bits may have changed (the Node path reports what it looked at as `seen`).
  // And those whose chmod git could not see (ctime-racy.ts).
  const racyBefore = await racy;
  const touched = [...new Set([...(scan.hashed ?? [...((inNode as NodeScan | null)?.seen.keys() ?? [])]), ...racyBefore])];
  // Same tree: a chmod alone (0644 -> 0600) still makes a checkpoint, so the next restore keeps it.
  const modes = latest && scan.tree === latest.tree && touched.length > 0 ? await modeChange(ctx, latest.id, touched) : undefined;
  const leftOut = latest && scan.tree === latest.tree && trigger === 'manual' ? await newlyLeftOut(ctx, latest.id, scan.skipped) : [];
  if (latest && scan.tree === latest.tree && !recordUnchanged && modes?.changed !== true && leftOut.length === 0) {
    // Remember that the index (as it is now) still has the latest tree.
    if (!inNode) await rememberIndex(ctx, latest);
    result = { id: null, skipped: `no changes since ${shortId(latest.id)}` };
  } else {
    // Before anything is built on the objects git just hashed: none may be an unreadable leftover (ours were read back as written).
    if (!inNode) await repairHashedObjects(ctx.git, ctx.root, scan.hashed ?? [], ctx.settings.max_file_mb * 1024 * 1024, scan.indexEntries);
    result = await recordTree(ctx, { scan, latest, trigger, options, meta, indexHasTree: inNode === null, batch, touched, control, ...(modes ? { modes: modes.modes } : {}) });
  }
  await rememberCtimeRacy(ctx, touched, racyBefore);
  if (inNode && latest) {
    const indexNow = await indexSignature(ctx.layout.indexFile);
    await syncIndexLater(ctx, { commit: result.id ?? latest.id, parent: latest.id, indexBefore: latest.index !== undefined && latest.index === indexNow ? indexNow : null, seen: (inNode as NodeScan).seen, removed: (inNode as NodeScan).removed });
  }
  return result;
}

/**
 * Files this scan left out (over the size limit, unreadable…) that the latest checkpoint did not
 * name: a person who asked for a checkpoint gets one that names them, though no recorded file changed.
 */
async function newlyLeftOut(ctx: WsContext, latestId: string, skipped: readonly SkippedFile[]): Promise<SkippedFile[]> {
  if (skipped.length === 0) return [];
  const message = await git(ctx.git, ['cat-file', 'commit', latestId]).catch(() => null);
  const before = message === null ? [] : decodeMessage(message.slice(message.indexOf('\n\n') + 2)).meta.skipped;
  const named = new Set(before.map((f) => f.path));
  return skipped.filter((f) => !named.has(f.path));
}

async function rememberIndex(ctx: WsContext, head: Head): Promise<void> {
  const index = await indexSignature(ctx.layout.indexFile);
  if (index !== null && index !== head.index) await writeHead(ctx, { ...head, index });
}

interface RecordInput {
  scan: ScanResult;
  latest: Head | undefined;
  trigger: Trigger;
  options: SnapshotOptions;
  meta: MetaFile;
  /** False when the tree was built without the index (it is synced later). */
  indexHasTree: boolean;
  /** The objects written from Node so far; the commit joins them, and all are sealed before the ref. */
  batch: ObjectBatch;
  /** Paths the scan looked at (their permission bits are recorded anew). */
  touched: readonly string[];
  /** The modes to record, when already worked out (modeChange). */
  modes?: Record<string, string> | undefined;
  control: SnapshotControl | undefined;
}

async function recordTree(ctx: WsContext, input: RecordInput): Promise<SnapshotResult> {
  const { scan, latest, trigger, options, meta: file, indexHasTree, batch, touched, control } = input;
  const { tree, skipped } = scan;
  const from = latest?.tree ?? EMPTY_TREE;
  // The scan counted against `from` when it wrote a tree; otherwise count here.
  const counted = tree === from ? { files: 0, insertions: 0, deletions: 0 } : (scan.stats ?? (await numstat(ctx.git, from, tree)));
  const { paths, ...stats }: CountedStats = counted;
  const now = Date.now();
  const meta: CheckpointMeta = { v: 1, trigger, time_ms: now, stats, skipped, prev: latest?.id ?? null };
  if (paths !== undefined) meta.paths = paths.map((p) => sanitizeLine(p, 300));
  const modes = 'modes' in input ? input.modes : (await modeChange(ctx, latest?.id, touched)).modes;
  if (modes) meta.modes = modes;
  for (const key of ['agent', 'tool', 'session', 'tool_use_id', 'prompt', 'restore_target'] as const) {
    const value = options[key];
    if (typeof value === 'string' && value.length > 0) meta[key] = sanitizeLine(value, 200);
  }
  if (options.prompt_id !== undefined && PROMPT_ID_PATTERN.test(options.prompt_id)) meta.prompt_id = options.prompt_id;
  if (options.restore_paths !== undefined && options.restore_paths.length > 0) meta.restore_paths = options.restore_paths;
  if (options.restore_of !== undefined) meta.restore_of = { ...options.restore_of, title: sanitizeLine(options.restore_of.title, 300) };
  // Decided here, against the latest as it is under the lock, not as the hook last read it.
  const changeBy = options.change_by ?? (options.call_ended_at !== undefined && options.call_ended_at === latest?.id ? 'other' : undefined);
  if (changeBy !== undefined) meta.change_by = changeBy;
  // Likewise: the call that began after the latest and took no checkpoint made this change, if nothing was checkpointed since.
  const began = options.call_began;
  if (changeBy === undefined && began !== undefined && began.checkpoint === latest?.id) {
    meta.made_by = { agent: sanitizeLine(began.agent, 200), tool: sanitizeLine(began.tool, 200), reason: sanitizeLine(began.reason) };
  }
  const reason = options.reason ?? (options.auto_reason ? autoReason(options.auto_reason.paths, stats, paths) : defaultReason(trigger));
  const message = encodeMessage(reason, meta);
  // Durable before reported: every object (ours fsynced side by side, the
  // folders git and we wrote in once each), then the ref (loose-write.ts).
  const commit = batch.put('commit', commitBody(tree, message, GIT_IDENTITY, now));
  batch.addDirs(scan.objectDirs ?? []);
  await batch.seal();
  await control?.stage?.('writing');
  // The last moment a withdrawal counts: nothing is awaited between this answer and the ref.
  if (control !== undefined && !control.commit()) throw withdrawnError();
  const refname = nextRefName(ctx, latest?.refname, now);
  await createLooseRef(ctx.store.gitDir, refname, commit);
  rememberModes(ctx, commit, modes);
  const index = indexHasTree ? await indexSignature(ctx.layout.indexFile) : null;
  await writeHead(ctx, { refname, id: commit, tree, ...(index !== null ? { index } : {}) });
  await touchMeta(ctx, file, now);

  const checkpoint = decodeCheckpoint(commit, refname, message, file.pinned.includes(commit));
  return {
    id: commit,
    files_changed: stats.files,
    insertions: stats.insertions,
    deletions: stats.deletions,
    skipped_files: skipped,
    checkpoint,
  };
}

function defaultReason(trigger: Trigger): string {
  switch (trigger) {
    case 'auto':
      return 'Files changed';
    case 'hook':
      return 'Agent tool call';
    case 'safety':
      return 'Before restore';
    case 'restore':
      return 'Restored';
    case 'baseline':
      return 'Baseline: the workspace as first seen';
    default:
      return 'Manual checkpoint';
  }
}

async function touchMeta(ctx: WsContext, meta: MetaFile, now: number): Promise<void> {
  if (now - Date.parse(meta.last_touched) < TOUCH_EVERY_MS) return;
  meta.last_touched = new Date(now).toISOString();
  await writeMeta(ctx.layout.metaFile, meta);
}
