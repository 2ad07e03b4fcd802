// The application service both hosts (Electron, browser) bind the router to:
// one engine store, the list of workspaces the person added, a watcher and a
// push monitor per workspace, and the event bus that feeds the renderer.
import type { EffectRecord, SnapshotOptions, SnapshotResult } from '../../shared/model.js';
import type { Settings, SettingsPatch } from '../../shared/settings.js';
import type { AppInfo, EventChannel, EventMap, WorkspaceEntry } from '../../shared/ipc.js';
import type { OpenWorkspaceOptions, Store, Workspace } from '../engine/api.js';

export interface AppService {
  readonly store: Store;
  info(): AppInfo;
  listWorkspaces(): Promise<WorkspaceEntry[]>;
  /** Registers the folder (engine refusals apply), starts watching it, remembers it. */
  addWorkspace(path: string): Promise<WorkspaceEntry>;
  /** Forgets the folder and stops watching; the store keeps its history. */
  removeWorkspace(path: string): Promise<boolean>;
  setPaused(path: string, paused: boolean): Promise<WorkspaceEntry>;
  /**
   * The engine handle for a workspace (need not be in the list: the CLI's serve --workspace adds it).
   * `{ register: false }` for readers: a folder the store does not know is not_found, never registered.
   */
  workspace(path: string, options?: OpenWorkspaceOptions): Promise<Workspace>;
  /**
   * A checkpoint asked for by a person (the window's button): for a workspace this app watches,
   * limited to what its watcher saw change since the latest checkpoint; else a full scan.
   */
  snapshot(ws: Workspace, options: SnapshotOptions): Promise<SnapshotResult>;
  effects(path: string, since?: string): Promise<EffectRecord[]>;
  /** The checkpoints the renderer shows now in this workspace (retention leaves them alone); empty: none. */
  viewing(path: string, ids: readonly string[]): void;
  settings(): Settings;
  updateSettings(patch: SettingsPatch): Promise<Settings>;
  /** Subscribe to events for the renderer; returns the unsubscribe function. */
  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void;
  /** Emit an event (used by the router after a snapshot or restore it ran). */
  emit<E extends EventChannel>(event: E, payload: EventMap[E]): void;
  /** Whether this service holds the store's agent socket (hooks hand it their work). */
  readonly servesAgentSocket: boolean;
  /** Watches a workspace agents' hooks use, without adding it to the person's list. */
  watchForAgents(path: string): Promise<void>;
  dispose(): Promise<void>;
}
