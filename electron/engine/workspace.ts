// One workspace: the verbs of the engine's API, each in its own module; this
// class validates inputs, takes the lock for writers, and delegates.
import { ChronoscopeError } from '../../shared/errors.js';
import {
  LARGE_VIEWER_MAX_BYTES,
  VIEWER_MAX_BYTES,
  WORKSPACE,
  type Checkpoint,
  type DiffResult,
  type FileChange,
  type FileDiff,
  type ForkResult,
  type PathHistory,
  type PruneResult,
  type TrashEntry,
  type UndoResult,
  type RestoreOptions,
  type RestorePreview,
  type RestoreResult,
  type SnapshotOptions,
  type SnapshotResult,
  type WorkspaceMeta,
  type WorkspaceStatus,
} from '../../shared/model.js';
import type { PathVersion, PruneOptions, Workspace } from './api.js';
import type { WsContext } from './layout/context.js';
import { markChecked } from './layout/check-record.js';
import { diffTrees } from './diff.js';
import { flagHiddenChanges } from './hidden-changes.js';
import { diskTree } from './scan/disk-tree.js';
import { credentialExcludeArgs } from './scan/excludes.js';
import { MISSING, sideFromDisk, sideFromTree, sidesFromTrees } from './file-diff.js';
import { EMPTY_TREE } from './git/git-runner.js';
import { forkCheckpoint, materializeCheckpoint } from './fork.js';
import { latestHead } from './head.js';
import { listCheckpoints, previousTree, resolveCheckpoint } from './foreign/lanes.js';
import { listRecords } from './list.js';
import type { CheckpointRecord } from './layout/message.js';
import { explainDamage } from './trees/tree-check.js';
import { withLock } from './support/lock.js';
import { asWriter, settleIndex } from './index-sync.js';
import { settlePackMerges } from './objects/pack-merge.js';
import { readMeta, writeMeta } from './layout/meta.js';
import { pathHistory } from './path-history.js';
import { changedFileCounts, pathVersions } from './path-versions.js';
import { previewRestore, restoreCheckpoint } from './restore.js';
import { pruneWillCompact, pruneWorkspace, withUpkeepExcluded } from './retention.js';
import { listTrash, undoTrash } from './retention/trash.js';
import { takeSnapshot } from './snapshot.js';
import { restoreOfFor } from './words.js';
import type { SnapshotControl } from './snapshot-control.js';
import { workspaceStatus } from './status.js';
import { validateRef, validateRelPath } from './validate.js';

export class WorkspaceImpl implements Workspace {
  constructor(
    readonly ctx: WsContext,
    readonly meta: WorkspaceMeta,
  ) {}

  get root(): string {
    return this.ctx.root;
  }

  private locked<T>(fn: () => Promise<T>): Promise<T> {
    // A background index sync of ours takes the same lock: never meet it there (index-sync.ts).
    return asWriter(this.ctx, () => withLock(this.ctx.layout.lockTarget, fn, { what: `workspace ${this.ctx.root}` }));
  }

  /** Resolves once the background work of this workspace's snapshots is done (index-sync.ts, pack-merge.ts). */
  async settled(): Promise<void> {
    await settleIndex(this.ctx);
    await settlePackMerges();
  }

  snapshot(options: SnapshotOptions = {}, control?: SnapshotControl): Promise<SnapshotResult> {
    return this.locked(() => takeSnapshot(this.ctx, options, { control }));
  }

  async ensureBaseline(options: Omit<SnapshotOptions, 'trigger' | 'paths'> = {}): Promise<SnapshotResult> {
    const taken: SnapshotResult = { id: null, skipped: 'the workspace already has checkpoints' };
    if (await latestHead(this.ctx)) return taken;
    return this.locked(async () => ((await latestHead(this.ctx)) ? taken : takeSnapshot(this.ctx, { ...options, trigger: 'baseline' }, { recordUnchanged: true })));
  }

  async list(options: { limit?: number; lanes?: boolean; onWarning?: (message: string) => void } = {}): Promise<Checkpoint[]> {
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new ChronoscopeError('bad_input', `limit ${String(limit)} must be a positive whole number`);
    // Those the last `check` found damaged are marked for display only (check-record.ts): what is intact in them still shows and restores.
    if (options.lanes !== true) return markChecked(this.ctx.layout.dir, (await listRecords(this.ctx, limit)).map((r) => r.checkpoint));
    return markChecked(this.ctx.layout.dir, await listCheckpoints(this.ctx, limit, options.onWarning));
  }

  async resolve(ref: string): Promise<Checkpoint> {
    return (await resolveCheckpoint(this.ctx, ref)).checkpoint;
  }

  async show(ref: string): Promise<{ checkpoint: Checkpoint; files: FileChange[] }> {
    const record = await resolveCheckpoint(this.ctx, ref, { objects: true, previous: true });
    const previous = await previousTree(this.ctx, record);
    const from = previous ?? EMPTY_TREE;
    const files = await explainDamage(this.ctx.git, this.ctx.layout.dir, [record], async () => flagHiddenChanges(this.ctx.git, from, record.tree, await diffTrees(this.ctx.git, from, record.tree)));
    return { checkpoint: record.checkpoint, files };
  }

  /** Tree and display id of one side of a comparison: a checkpoint ref or 'workspace'. */
  private async side(ref: string): Promise<{ id: string; tree: string | null; record?: CheckpointRecord }> {
    if (ref === WORKSPACE) return { id: WORKSPACE, tree: null };
    const record = await resolveCheckpoint(this.ctx, ref, { objects: true });
    return { id: record.checkpoint.id, tree: record.tree, record };
  }

  /** A comparison of two sides; git's failure on a damaged object names the damaged checkpoint (tree-check.ts). */
  private compare<T>(sides: { record?: CheckpointRecord }[], run: () => Promise<T>): Promise<T> {
    return explainDamage(this.ctx.git, this.ctx.layout.dir, sides.flatMap((side) => (side.record ? [side.record] : [])), run);
  }

  private checkSides(from: string, to: string): void {
    if (from !== WORKSPACE) validateRef(from);
    if (to !== WORKSPACE) validateRef(to);
  }

  async diff(from: string, to: string): Promise<DiffResult> {
    this.checkSides(from, to);
    const [a, b] = await Promise.all([this.side(from), this.side(to)]);
    const disk = a.tree === null || b.tree === null ? (await diskTree(this.ctx)).tree : null;
    const left = a.tree ?? disk ?? EMPTY_TREE;
    const right = b.tree ?? disk ?? EMPTY_TREE;
    const files = await this.compare([a, b], async () => flagHiddenChanges(this.ctx.git, left, right, await diffTrees(this.ctx.git, left, right)));
    return { from: a.id, to: b.id, files };
  }

  async fileDiff(from: string, to: string, rawPath: string, rawOldPath?: string, options: { large?: boolean } = {}): Promise<FileDiff> {
    const limit = options.large ? LARGE_VIEWER_MAX_BYTES : VIEWER_MAX_BYTES;
    this.checkSides(from, to);
    const rel = validateRelPath(rawPath);
    // A rename: the old side is read where the file was, so its edits show as edits.
    const oldRel = rawOldPath === undefined ? rel : validateRelPath(rawOldPath);
    const [a, b] = await Promise.all([this.side(from), this.side(to)]);
    const read = (tree: string | null, p: string) =>
      tree === null ? sideFromDisk(this.ctx.git, this.ctx.root, p, credentialExcludeArgs(this.ctx.settings), limit) : sideFromTree(this.ctx.git, tree, p, limit);
    const [oldSide, newSide] = await this.compare([a, b], async () =>
      a.tree !== null && b.tree !== null && oldRel === rel ? sidesFromTrees(this.ctx.git, a.tree, b.tree, rel, limit) : Promise.all([read(a.tree, oldRel), read(b.tree, rel)]),
    );
    const diff: FileDiff = { path: rel, from: a.id, to: b.id, old: oldSide ?? MISSING, new: newSide ?? MISSING };
    if (oldRel !== rel) diff.old_path = oldRel;
    return diff;
  }

  async pathHistory(rawPath: string): Promise<PathHistory> {
    return pathHistory(this.ctx, validateRelPath(rawPath));
  }

  async pathVersions(rawPath: string, maxBytes: number): Promise<PathVersion[]> {
    return pathVersions(this.ctx, validateRelPath(rawPath), maxBytes);
  }

  changedFileCounts(pairs: readonly (readonly [string | null, string])[]): Promise<(number | null)[]> {
    return changedFileCounts(this.ctx, pairs);
  }

  previewRestore(ref: string, options: RestoreOptions = {}): Promise<RestorePreview> {
    return previewRestore(this.ctx, ref, options);
  }

  async restore(ref: string, options: RestoreOptions = {}): Promise<RestoreResult> {
    validateRef(ref);
    // Named once, as the person sees it now: its title goes into the restore's checkpoints (restore titles never nest).
    const target = await this.resolve(ref).catch(() => null);
    if (target === null) return this.locked(() => restoreCheckpoint(this.ctx, ref, options)); // its error says why
    // Back to before a prompt: named by the prompt (the person remembers what they asked, not the checkpoint before it).
    const restoreOf = options.before_prompt !== undefined ? { title: options.before_prompt, time_ms: target.time_ms, before_prompt: true as const } : await restoreOfFor(this, target);
    return this.locked(() => restoreCheckpoint(this.ctx, target.id, options, {}, restoreOf));
  }

  status(): Promise<WorkspaceStatus> {
    return workspaceStatus(this.ctx, this.meta);
  }

  async pin(ref: string, pinned: boolean): Promise<Checkpoint> {
    const record = await resolveCheckpoint(this.ctx, ref);
    if (record.hermes) throw new ChronoscopeError('bad_input', "Hermes' checkpoints are kept (and pruned) by Hermes: they cannot be pinned here");
    const id = record.checkpoint.id;
    await this.locked(async () => {
      const meta = await readMeta(this.ctx.layout.metaFile);
      if (!meta) throw new ChronoscopeError('internal', `workspace metadata ${this.ctx.layout.metaFile} is missing`);
      const set = new Set(meta.pinned);
      if (pinned) set.add(id);
      else set.delete(id);
      meta.pinned = [...set];
      await writeMeta(this.ctx.layout.metaFile, meta);
    });
    return { ...record.checkpoint, pinned };
  }

  async prune(options: PruneOptions = {}): Promise<PruneResult> {
    if (!(await pruneWillCompact(this.ctx, options))) return this.locked(() => pruneWorkspace(this.ctx, options));
    // Compaction needs the upkeep and store locks: taken before the workspace lock (retention.ts).
    return withUpkeepExcluded(this.ctx.store, () =>
      withLock(this.ctx.store.storeLockTarget, () => this.locked(() => pruneWorkspace(this.ctx, { ...options, storeLocked: true })), { what: 'the store' }),
    );
  }

  undoPrune(entry?: string): Promise<UndoResult> {
    return this.locked(() => undoTrash(this.ctx, entry));
  }

  trash(): Promise<TrashEntry[]> {
    return listTrash(this.ctx);
  }

  fork(ref: string, options: { to?: string } = {}): Promise<ForkResult> {
    validateRef(ref);
    return forkCheckpoint(this.ctx, ref, options.to);
  }

  materialize(ref: string, dir: string): Promise<string> {
    validateRef(ref);
    return materializeCheckpoint(this.ctx, ref, dir);
  }
}
