// The engine's public surface: what the CLI, the hooks, the watcher and the
// IPC router call. Implementations live beside this file, one verb a module.
// Everything here runs under plain Node (no Electron).
import type {
  Checkpoint,
  DiffResult,
  FileDiff,
  PruneResult,
  TrashEntry,
  UndoResult,
  RestoreOptions,
  RestorePreview,
  RestoreResult,
  SnapshotOptions,
  SnapshotResult,
  WorkspaceMeta,
  WorkspaceStatus,
  FileChange,
  ForkResult,
  PathHistory,
} from '../../shared/model.js';
import type { Settings } from '../../shared/settings.js';
import type { SnapshotControl } from './snapshot-control.js';

export type { SnapshotControl, SnapshotStage } from './snapshot-control.js';

/** One version of a file (Workspace.pathVersions, path-versions.ts). */
export interface PathVersion {
  checkpoint: Checkpoint;
  /** The file's blob id there; null: no file at the path (deleted, or a folder). */
  oid: string | null;
  /** Its text; null when absent, over the size limit, or binary (a NUL in it). */
  text: string | null;
  /** Why text is null although the file exists there. */
  unreadable?: 'too_large' | 'binary';
}

export interface StoreOptions {
  /** Store root; default $CHRONOSCOPE_HOME, else the platform app-data dir. */
  home?: string;
  /** Overrides on top of <home>/config.json. */
  settings?: Partial<Settings>;
  /** Told how hashing goes in a snapshot that takes over a second (progress.ts). */
  onProgress?: (progress: SnapshotProgress) => void;
}

export interface SnapshotProgress {
  /** The workspace's real path. */
  root: string;
  hashed: number;
  total: number;
  /** The last report of this snapshot. */
  done: boolean;
}

export interface OpenWorkspaceOptions {
  /**
   * false: only a workspace already known to the store opens (a reader must
   * not register a folder); any other throws ChronoscopeError('not_found').
   */
  register?: boolean;
}

export interface Store {
  readonly home: string;
  readonly settings: Settings;
  /**
   * Open (and on first use register) a workspace. Resolves the real path and
   * refuses /, the home directory or any folder containing it, the store
   * itself and anything inside the store, with a ChronoscopeError('refused').
   */
  workspace(dir: string, options?: OpenWorkspaceOptions): Promise<Workspace>;
  /** Every workspace that has a metadata file in this store. */
  listWorkspaces(): Promise<WorkspaceMeta[]>;
  /** Total bytes of the store on disk. */
  sizeBytes(): Promise<number>;
  /** git gc --prune=now of the shared object database, holding the store lock and every workspace's lock (see retention.ts for why). */
  compact(): Promise<void>;
}

/** What a prune does (retention.ts). */
export interface PruneOptions {
  compact?: boolean;
  /** Ids this pass must not remove (one the person is looking at, one an effect or a pending approval names). */
  keep?: ReadonlySet<string>;
  /** Say what would go, change nothing (`prune` without --yes). */
  preview?: boolean;
  /** A pass the service makes on its own: it also spares what the person brought back by undo. */
  automatic?: boolean;
}

export interface Workspace {
  readonly meta: WorkspaceMeta;
  readonly root: string;
  /** `control`: a request that may be withdrawn until its checkpoint is written (snapshot-control.ts). */
  snapshot(options?: SnapshotOptions, control?: SnapshotControl): Promise<SnapshotResult>;
  /**
   * The workspace as first seen (trigger 'baseline'), if it has no checkpoint
   * yet: taken when a workspace is added, served, watched or met by a hook,
   * so the original of the first edit is always recorded. A no-op otherwise.
   * `options` (reason, agent, tool…) describe who met it first; the trigger is always 'baseline'.
   */
  ensureBaseline(options?: Omit<SnapshotOptions, 'trigger' | 'paths'>): Promise<SnapshotResult>;
  /**
   * Newest first. Chronoscope's own checkpoints; with `lanes`, Hermes Agent's
   * /rollback checkpoints of the workspace (origin 'hermes') merged in by time,
   * as the timeline and `chronoscope list` show them (indexes count in that
   * list). A Hermes store that cannot be read leaves its lane out and says why
   * through onWarning, never an error.
   */
  list(options?: { limit?: number; lanes?: boolean; onWarning?: (message: string) => void }): Promise<Checkpoint[]>;
  /** Resolve an outside reference (full id, prefix ≥ 4, index, 'latest', a Hermes id 'h…') to a checkpoint. */
  resolve(ref: string): Promise<Checkpoint>;
  show(ref: string): Promise<{ checkpoint: Checkpoint; files: FileChange[] }>;
  /** `to` is a checkpoint ref or 'workspace'; default: the checkpoint before `from`... see diff.ts. */
  diff(from: string, to: string): Promise<DiffResult>;
  /** `oldPath`: for a rename, where the file was in `from`. */
  /** `large`: text over VIEWER_MAX_BYTES is read too, up to LARGE_VIEWER_MAX_BYTES. */
  fileDiff(from: string, to: string, path: string, oldPath?: string, options?: { large?: boolean }): Promise<FileDiff>;
  /** The checkpoints that changed what sits at a path (file or folder), newest first. */
  pathHistory(path: string): Promise<PathHistory>;
  /** Every version of one file among this workspace's own checkpoints, oldest first, with its text up to maxBytes (path-versions.ts). */
  pathVersions(path: string, maxBytes: number): Promise<PathVersion[]>;
  /** For pairs [from, to] of full checkpoint ids (from null: nothing before), how many files differ; null for an unknown id. */
  changedFileCounts(pairs: readonly (readonly [string | null, string])[]): Promise<(number | null)[]>;
  previewRestore(ref: string, options?: RestoreOptions): Promise<RestorePreview>;
  restore(ref: string, options?: RestoreOptions): Promise<RestoreResult>;
  status(): Promise<WorkspaceStatus>;
  pin(ref: string, pinned: boolean): Promise<Checkpoint>;
  /** Apply retention, moving what goes into the trash (retention.ts); `compact` also runs git gc on the store (never inside snapshot/restore); `preview` changes nothing. */
  prune(options?: PruneOptions): Promise<PruneResult>;
  /** Brings back every checkpoint of a trash entry (default: the last prune's). */
  undoPrune(entry?: string): Promise<UndoResult>;
  /** What the trash holds for this workspace, newest first (kept 14 days). */
  trash(): Promise<TrashEntry[]>;
  /** Write a checkpoint's files into a new folder (default `<root>-fork-<short id>`); never over anything that exists (fork.ts). */
  fork(ref: string, options?: { to?: string }): Promise<ForkResult>;
  /** Write a checkpoint's files into `dir`, an existing folder outside the workspace (a verifier's scratch copy). Returns the full id. */
  materialize(ref: string, dir: string): Promise<string>;
}

export type OpenStore = (options?: StoreOptions) => Promise<Store>;
