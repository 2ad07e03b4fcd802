// Taking a checkpoint. Runs under the workspace lock (the caller holds it).
//
// Git processes per snapshot that records something: 2 ls-files side by side (what changed,
// from the stat cache), 1 update-index (hash only the changed paths), then
// write-tree and diff-index --numstat side by side (stats) = 3 on the critical
// path, 4 in all. The latest checkpoint comes from the head file (head.ts; one
// for-each-ref only when it cannot be confirmed), and the commit object and
// its ref are written from Node (loose-write.ts). A snapshot with nothing
// changed is the 2 ls-files: the head file knows the index's tree. Path-limited
// snapshots of files the latest checkpoint has run no git process: the tree is
// written from Node and the index catches up afterwards (tree-update.ts,
// index-sync.ts); with new plain files: update-index beside check-ignore,
// then write-tree beside diff-index (scan-paths.ts) = 2 on the critical path;
// other path-limited snapshots run ls-files limited to the paths.
//
// Crash safety: the ref is created (create-only) only after the commit object
// exists, so a checkpoint that was reported is never lost and a crash leaves
// at most unreferenced objects for gc; the head file is written last and is
// only trusted while the refs confirm it.
import fs from 'node:fs/promises';
import type { SnapshotOptions, SnapshotResult, Trigger } from '../../shared/model.js';
import { TRIGGERS } from '../../shared/model.js';
import { ChronoscopeError } from '../../shared/errors.js';
import { shortId, type WsContext } from './context.js';
import { buildExcludeFile, credentialExcludeArgs } from './excludes.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { GIT_IDENTITY } from './git-env.js';
import { EMPTY_TREE, GitFailure } from './git-runner.js';
import { indexSignature, latestHead, writeHead, type Head } from './head.js';
import { decodeCheckpoint, nextRefName } from './list.js';
import { commitBody, createLooseRef, syncObjectDirsSince, writeLooseObject } from './loose-write.js';
import { nextModes, recordedModes } from './file-modes.js';
import { repairHashedObjects } from './object-check.js';
import { encodeMessage, sanitizeLine, type CheckpointMeta } from './message.js';
import { readMeta, writeMeta, type MetaFile } from './meta.js';
import { scanToTree, type ScanOptions, type ScanResult } from './scan.js';
import { validateRelPaths } from './validate.js';
import { numstat } from './stats.js';
import { autoReason } from './reason.js';
import { throttleProgress } from './progress.js';
import { syncIndexLater } from './index-sync.js';
import { scanPathsInNode } from './tree-update.js';

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
export async function scanPrivateIndex(ctx: WsContext, paths: string[] | undefined, meta?: MetaFile, latest?: Head): Promise<ScanResult> {
  meta ??= await loadMetaOrFail(ctx);
  const excludesChanged = await syncExcludeFile(ctx, meta);
  const options: ScanOptions = {
    maxFileBytes: ctx.settings.max_file_mb * 1024 * 1024,
    recheckIgnored: excludesChanged,
    statsFrom: latest?.tree ?? EMPTY_TREE,
    excludeArgs: credentialExcludeArgs(ctx.settings),
  };
  if (latest?.index !== undefined && latest.index === (await indexSignature(ctx.layout.indexFile))) options.knownTree = latest.tree;
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
    if (!(err instanceof GitFailure) || !isIndexDamage(err)) throw err;
    // A damaged private index, or one naming objects that gc pruned after an
    // interrupted snapshot: it is only a cache, so rebuild it from the disk.
    // Other failures (a file we cannot read...) are not the index's fault:
    // throwing it away would only make the next snapshot hash everything.
    await fs.rm(ctx.layout.indexFile, { force: true });
    await fs.rm(`${ctx.layout.indexFile}.lock`, { force: true });
    delete options.knownTree;
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

/** Failures that mean the private index itself is unusable (damaged, or naming pruned objects). */
function isIndexDamage(err: GitFailure): boolean {
  return /index file|bad signature|bad index|corrupt|smaller than expected|invalid object|unable to read|bad object|Error building trees|missing object/i.test(err.stderr);
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
  }: {
    recordUnchanged?: boolean;
    internalPaths?: boolean;
    /** Told the scanned tree before the checkpoint is written (read-only work may start on it). */
    onTree?: (tree: string) => void;
  } = {},
): Promise<SnapshotResult> {
  const trigger: Trigger = options.trigger ?? 'manual';
  if (!TRIGGERS.includes(trigger)) throw new ChronoscopeError('bad_input', `trigger '${String(trigger)}' is not one of ${TRIGGERS.join(', ')}`);
  // Paths git itself listed (a restore's touched files) are exact names, and
  // names like '-dash' or 'back\slash' are legal there: validation is for
  // outside input only. They reach git after '--' with literal pathspecs.
  const paths = options.paths === undefined ? undefined : internalPaths ? [...new Set(options.paths)] : validateRelPaths(options.paths);
  if (paths !== undefined && paths.length === 0) return { id: null, skipped: 'no paths given' };

  const started = Date.now();
  const [latest, meta] = await Promise.all([latestHead(ctx), loadMetaOrFail(ctx)]);
  // Known files edited or deleted: no git process (tree-update.ts); the index catches up afterwards.
  const inNode = paths !== undefined && latest !== undefined ? await scanPathsInNode(ctx, paths, latest, meta) : null;
  const scan = inNode ?? (await scanPrivateIndex(ctx, paths, meta, latest));
  onTree?.(scan.tree);
  let result: SnapshotResult;
  if (latest && scan.tree === latest.tree && !recordUnchanged) {
    // Remember that the index (as it is now) still has the latest tree.
    if (!inNode) await rememberIndex(ctx, latest);
    result = { id: null, skipped: `no changes since ${shortId(latest.id)}` };
  } else {
    // Before anything is built on the objects git just hashed: none may be an unreadable leftover.
    await repairHashedObjects(ctx.store.gitDir, ctx.root, scan.hashed ?? [], ctx.settings.max_file_mb * 1024 * 1024);
    result = await recordTree(ctx, { scan, latest, trigger, options, meta, indexHasTree: inNode === null, started });
  }
  if (inNode && latest) {
    const indexNow = await indexSignature(ctx.layout.indexFile);
    syncIndexLater(ctx, { commit: result.id ?? latest.id, indexBefore: latest.index !== undefined && latest.index === indexNow ? indexNow : null, seen: inNode.seen });
  }
  return result;
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
  /** When the snapshot began: the object folders git wrote in since then are fsynced. */
  started: number;
}

async function recordTree(ctx: WsContext, input: RecordInput): Promise<SnapshotResult> {
  const { scan, latest, trigger, options, meta: file, indexHasTree, started } = input;
  const { tree, skipped } = scan;
  const from = latest?.tree ?? EMPTY_TREE;
  // The scan counted against `from` when it wrote a tree; otherwise count here.
  const stats = tree === from ? { files: 0, insertions: 0, deletions: 0 } : (scan.stats ?? (await numstat(ctx.git, from, tree)));
  const now = Date.now();
  const meta: CheckpointMeta = { v: 1, trigger, time_ms: now, stats, skipped, prev: latest?.id ?? null };
  const modes = await nextModes(ctx.root, latest ? await recordedModes(ctx, latest.id) : {}, scan.hashed ?? []);
  if (modes) meta.modes = modes;
  for (const key of ['agent', 'tool', 'session', 'tool_use_id', 'prompt', 'restore_target'] as const) {
    const value = options[key];
    if (typeof value === 'string' && value.length > 0) meta[key] = sanitizeLine(value, 200);
  }
  if (options.restore_paths !== undefined && options.restore_paths.length > 0) meta.restore_paths = options.restore_paths;
  const reason = options.reason ?? (options.auto_reason ? autoReason(options.auto_reason.paths, stats) : defaultReason(trigger));
  const message = encodeMessage(reason, meta);
  // Durable before reported: git's objects (their folders), then the commit, then the ref (loose-write.ts).
  await syncObjectDirsSince(ctx.store.gitDir, started);
  const commit = await writeLooseObject(ctx.store.gitDir, 'commit', commitBody(tree, message, GIT_IDENTITY, now));
  const refname = nextRefName(ctx, latest?.refname, now);
  await createLooseRef(ctx.store.gitDir, refname, commit);
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
