// Taking a checkpoint. Runs under the workspace lock (the caller holds it).
//
// Git processes per snapshot that records something: 1 for-each-ref (latest),
// 1 ls-files (what changed, from the stat cache), 1 update-index (hash only
// the changed paths; skipped when nothing changed), 1 write-tree, 1 diff-tree
// --numstat (stats), 1 commit-tree, 1 update-ref = 7. A snapshot with nothing
// changed stops after write-tree: 3 (4 if stat data changed but contents did
// not). Path-limited snapshots run the same processes, with ls-files limited
// to the paths, so their cost follows the paths.
//
// Crash safety: the ref is written (create-only, expected old value = none)
// only after the commit object exists, so a checkpoint that was reported is
// never lost and a crash leaves at most unreferenced objects for gc.
import fs from 'node:fs/promises';
import type { SkippedFile, SnapshotOptions, SnapshotResult, Trigger } from '../../shared/model.js';
import { TRIGGERS } from '../../shared/model.js';
import { ChronoscopeError } from '../../shared/errors.js';
import { shortId, type WsContext } from './context.js';
import { buildExcludeFile } from './excludes.js';
import { writeFileAtomic } from './fsutil.js';
import { EMPTY_TREE, git, GitFailure, ZERO_OID } from './git-runner.js';
import { decodeCheckpoint, latestRecord, nextRefName, type CheckpointRecord } from './list.js';
import { encodeMessage, sanitizeLine, type CheckpointMeta } from './message.js';
import { readMeta, writeMeta, type MetaFile } from './meta.js';
import { scanToTree, type ScanResult } from './scan.js';
import { validateRelPaths } from './validate.js';
import { numstat } from './stats.js';

/** Rewrites the exclude file when its content changed; true if it did. */
export async function syncExcludeFile(ctx: WsContext, meta: MetaFile): Promise<boolean> {
  const wanted = buildExcludeFile(ctx.settings, meta.nested_repos);
  const current = await fs.readFile(ctx.layout.excludeFile, 'utf8').catch(() => null);
  if (current === wanted) return false;
  await writeFileAtomic(ctx.layout.excludeFile, wanted);
  return true;
}

export async function loadMetaOrFail(ctx: WsContext): Promise<MetaFile> {
  const meta = await readMeta(ctx.layout.metaFile);
  if (!meta) throw new ChronoscopeError('internal', `workspace metadata ${ctx.layout.metaFile} is missing or damaged`);
  return meta;
}

/** Scans the disk into the private index, recording newly found nested repositories. */
export async function scanPrivateIndex(ctx: WsContext, paths: string[] | undefined): Promise<ScanResult> {
  const meta = await loadMetaOrFail(ctx);
  const excludesChanged = await syncExcludeFile(ctx, meta);
  const options = { maxFileBytes: ctx.settings.max_file_mb * 1024 * 1024, recheckIgnored: excludesChanged };
  let scan: ScanResult;
  try {
    scan = await scanToTree(ctx.git, ctx.root, paths ? { ...options, paths } : options);
  } catch (err) {
    if (!(err instanceof GitFailure)) throw err;
    // A damaged private index, or one naming objects that gc pruned after an
    // interrupted snapshot: it is only a cache, so rebuild it from the disk.
    await fs.rm(ctx.layout.indexFile, { force: true });
    scan = await scanToTree(ctx.git, ctx.root, options);
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
 * `recordUnchanged` records a checkpoint even when the tree equals the latest
 * one: a restore's safety checkpoint always appears on the timeline as its own
 * marked moment, so the person sees exactly where to go back to.
 */
export async function takeSnapshot(
  ctx: WsContext,
  options: SnapshotOptions = {},
  { recordUnchanged = false }: { recordUnchanged?: boolean } = {},
): Promise<SnapshotResult> {
  const trigger: Trigger = options.trigger ?? 'manual';
  if (!TRIGGERS.includes(trigger)) throw new ChronoscopeError('bad_input', `trigger '${String(trigger)}' is not one of ${TRIGGERS.join(', ')}`);
  const paths = options.paths === undefined ? undefined : validateRelPaths(options.paths);
  if (paths !== undefined && paths.length === 0) return { id: null, skipped: 'no paths given' };

  // Independent reads: run the ref lookup and the scan side by side.
  const [latest, scan] = await Promise.all([latestRecord(ctx), scanPrivateIndex(ctx, paths)]);
  if (latest && scan.tree === latest.tree && !recordUnchanged) {
    return { id: null, skipped: `no changes since ${shortId(latest.checkpoint.id)}` };
  }
  return recordTree(ctx, { tree: scan.tree, skipped: scan.skipped, latest, trigger, options });
}

interface RecordInput {
  tree: string;
  skipped: SkippedFile[];
  latest: CheckpointRecord | undefined;
  trigger: Trigger;
  options: SnapshotOptions;
}

async function recordTree(ctx: WsContext, input: RecordInput): Promise<SnapshotResult> {
  const { tree, skipped, latest, trigger, options } = input;
  const stats = await numstat(ctx.git, latest?.tree ?? EMPTY_TREE, tree);
  const now = Date.now();
  const meta: CheckpointMeta = { v: 1, trigger, time_ms: now, stats, skipped, prev: latest?.checkpoint.id ?? null };
  for (const key of ['agent', 'tool', 'session', 'tool_use_id', 'restore_target'] as const) {
    const value = options[key];
    if (typeof value === 'string' && value.length > 0) meta[key] = sanitizeLine(value, 200);
  }
  const message = encodeMessage(options.reason ?? defaultReason(trigger), meta);
  const commit = (await git(ctx.git, ['commit-tree', tree, '-m', message])).trim();
  const refname = nextRefName(ctx, latest?.refname, now);
  await git(ctx.git, ['update-ref', refname, commit, ZERO_OID]);
  await touchMeta(ctx);

  const pinned = (await readMeta(ctx.layout.metaFile))?.pinned ?? [];
  const checkpoint = decodeCheckpoint(commit, refname, message, pinned.includes(commit));
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
    default:
      return 'Manual checkpoint';
  }
}

async function touchMeta(ctx: WsContext): Promise<void> {
  const meta = await readMeta(ctx.layout.metaFile);
  if (!meta) return;
  meta.last_touched = new Date().toISOString();
  await writeMeta(ctx.layout.metaFile, meta);
}

