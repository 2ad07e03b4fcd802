// The IPC contract, declared once. Every invoke channel has a zod schema for
// its request (validated in the main process, whichever host carries it) and a
// response type; events flow main → renderer only. The Electron preload, the
// WebSocket host, the router and the renderer's client all derive from here.
import { z } from 'zod';
import type {
  ApprovalRequest,
  Checkpoint,
  CheckpointWhy,
  ForkResult,
  VerificationRecord,
  DiffResult,
  EffectRecord,
  FileChange,
  FileDiff,
  PathHistory,
  PromptRecord,
  ConversationView,
  RestorePreview,
  RestoreResult,
  SnapshotResult,
  StoreInfo,
  TrashEntry,
  UndoResult,
  WorkspaceHealth,
  WorkspaceMeta,
  WorkspaceState,
} from './model.js';
import { PROMPT_ID_PATTERN } from './model.js';
import type { SerializedError } from './errors.js';
import { SettingsPatchSchema, type Settings } from './settings.js';
import { CHECKPOINT_REF_PATTERN } from './refs.js';
import { AGENT_CONNECTIONS } from './agents.js';

// ---- request building blocks ----

const WorkspacePath = z.string().min(1, 'workspace path is empty').max(4096);
const CheckpointRef = z
  .string()
  .regex(CHECKPOINT_REF_PATTERN, 'not a checkpoint id (full id, hex prefix of 4+, index, "latest", or a Hermes id h + hex)');
/** A trash entry's id: the prune's time in ms, maybe with a counter (retention/trash.ts). */
const TrashEntryId = z.string().regex(/^\d{13}(-\d{1,6})?$/, 'not a trash entry id');
const DiffTarget = z.union([z.literal('workspace'), CheckpointRef]);
const RelativePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => !p.startsWith('/') && !p.startsWith('-') && !p.split('/').includes('..'), 'not a safe relative path');

export const WorkspaceRequest = z.object({ workspace: WorkspacePath }).strict();
export const RestoreRequest = z
  .object({
    workspace: WorkspacePath,
    id: CheckpointRef,
    paths: z.array(RelativePath).max(10_000).optional(),
    keep_untracked: z.boolean().optional(),
    /** "Restore to before this prompt": the prompt's id; the main process reads its words from the ledger to name the restore. */
    before_prompt: z.string().regex(PROMPT_ID_PATTERN, 'not a prompt id').optional(),
  })
  .strict();

// ---- response shapes that only the app needs ----

export interface WorkspaceEntry extends WorkspaceMeta {
  state: WorkspaceState;
  /** Watched because an agent's hooks work there, not in the person's list: shown, and removing it stops watching. */
  for_agents?: true;
}

/** What "Install hooks" on the connect-an-agent page did (as `chronoscope hooks install <agent>`). */
/** The Settings switch "Share this workspace's history" (issue 43): where it would go, and whether it is on. */
export interface ShareSwitch {
  workspace: string;
  /** false: not a git repository, or no remote to share with (`reason` says which). */
  available: boolean;
  reason: string | null;
  enabled: boolean;
  remote: string | null;
  /** Credentials masked. */
  url: string | null;
  /** refs/chronoscope/<person>/<machine>/<clone> on the remote. */
  namespace: string | null;
}

export interface AgentInstallResult {
  agent: string;
  /** The file the hooks (or plugin) were written to; null when the installer names none. */
  path: string | null;
  /** False: they were already installed there. */
  changed: boolean;
  /** What the CLI would print for the same install. */
  lines: string[];
}

export interface CheckpointDetail {
  checkpoint: Checkpoint;
  files: FileChange[];
  /** Its prompt and the call that made its change, where the agent's hooks recorded them (issue 41). */
  why?: CheckpointWhy;
}

export interface RestorePreviewWithEffects extends RestorePreview {
  /** Irreversible effects recorded since the target checkpoint: a restore won't undo them. */
  effects_since: EffectRecord[];
}

export interface AppInfo {
  host: 'electron' | 'browser' | 'daemon';
  version: string;
  store: string;
}

// ---- the channel map ----

interface ChannelDef<Req extends z.ZodType, Res> {
  request: Req;
  /** Phantom: carries the response type, never read at run time. */
  response?: Res;
}
const channel = <Req extends z.ZodType>(request: Req) => ({
  returns: <Res>(): ChannelDef<Req, Res> => ({ request }),
});
const empty = z.object({}).strict();

export const INVOKE = {
  'app:info': channel(empty).returns<AppInfo>(),
  'workspaces:list': channel(empty).returns<WorkspaceEntry[]>(),
  'workspaces:add': channel(WorkspaceRequest).returns<WorkspaceEntry>(),
  'workspaces:remove': channel(WorkspaceRequest).returns<{ removed: boolean }>(),
  /** Native folder dialog; the browser host answers { path: null, supported: false }. */
  'workspaces:pick': channel(empty).returns<{ path: string | null; supported: boolean }>(),
  'workspaces:setPaused': channel(z.object({ workspace: WorkspacePath, paused: z.boolean() }).strict()).returns<WorkspaceEntry>(),
  'checkpoints:list': channel(
    z.object({ workspace: WorkspacePath, limit: z.number().int().min(1).max(100_000).optional() }).strict(),
  ).returns<Checkpoint[]>(),
  'checkpoints:show': channel(z.object({ workspace: WorkspacePath, id: CheckpointRef }).strict()).returns<CheckpointDetail>(),
  'checkpoints:diff': channel(
    z.object({ workspace: WorkspacePath, from: CheckpointRef, to: DiffTarget }).strict(),
  ).returns<DiffResult>(),
  'checkpoints:fileDiff': channel(
    // large: a text file over the viewer's limit, asked for by the person (up to LARGE_VIEWER_MAX_BYTES).
    z.object({ workspace: WorkspacePath, from: CheckpointRef, to: DiffTarget, path: RelativePath, old_path: RelativePath.optional(), large: z.boolean().optional() }).strict(),
  ).returns<FileDiff>(),
  /** The checkpoints that changed one path (file or folder), newest first. */
  'checkpoints:pathHistory': channel(z.object({ workspace: WorkspacePath, path: RelativePath }).strict()).returns<PathHistory>(),
  'checkpoints:snapshot': channel(
    z.object({ workspace: WorkspacePath, reason: z.string().max(500).optional() }).strict(),
  ).returns<SnapshotResult>(),
  'checkpoints:pin': channel(
    z.object({ workspace: WorkspacePath, id: CheckpointRef, pinned: z.boolean() }).strict(),
  ).returns<Checkpoint>(),
  /** The prompts given to agents in the workspace, newest first, each with its checkpoints (electron/prompts/listing.ts). */
  'prompts:list': channel(WorkspaceRequest).returns<PromptRecord[]>(),
  /** The messages around the call that made checkpoint `id`'s change, read from the agent's transcript while it is there. */
  'prompts:conversation': channel(z.object({ workspace: WorkspacePath, id: CheckpointRef }).strict()).returns<ConversationView>(),
  'restore:preview': channel(RestoreRequest).returns<RestorePreviewWithEffects>(),
  'restore:run': channel(RestoreRequest).returns<RestoreResult>(),
  'effects:list': channel(
    z.object({ workspace: WorkspacePath, since: CheckpointRef.optional() }).strict(),
  ).returns<EffectRecord[]>(),
  'settings:get': channel(empty).returns<Settings>(),
  'settings:set': channel(SettingsPatchSchema).returns<Settings>(),
  // ---- fork, verify, bisect, agents' restore requests (issue 13) ----
  'verify:list': channel(WorkspaceRequest).returns<VerificationRecord[]>(),
  /** Runs the verifier the person set for this workspace (settings key `verifier`); no command crosses IPC. */
  'verify:run': channel(z.object({ workspace: WorkspacePath, id: CheckpointRef }).strict()).returns<VerificationRecord>(),
  'fork:run': channel(z.object({ workspace: WorkspacePath, id: CheckpointRef }).strict()).returns<ForkResult>(),
  /** Starts in the background; progress and the end arrive as bisect:progress / bisect:done. */
  'bisect:start': channel(z.object({ workspace: WorkspacePath, good: CheckpointRef, bad: CheckpointRef }).strict()).returns<{ job: string }>(),
  'bisect:cancel': channel(z.object({ job: z.string().min(1).max(100) }).strict()).returns<{ cancelled: boolean }>(),
  'approvals:list': channel(empty).returns<ApprovalRequest[]>(),
  /** What the workspace's last check found (damaged checkpoints that still exist, the files they lost). */
  'health:get': channel(WorkspaceRequest).returns<WorkspaceHealth>(),
  /** Checks the workspace's checkpoints now (`chronoscope check`), then answers as health:get. */
  'health:check': channel(WorkspaceRequest).returns<WorkspaceHealth>(),
  /** The checkpoints the person is looking at now (selected, compared with): retention leaves them alone. */
  'timeline:viewing': channel(z.object({ workspace: WorkspacePath, ids: z.array(z.string().regex(/^[0-9a-f]{40}$/, 'not a full checkpoint id')).max(10) }).strict()).returns<{ ok: true }>(),
  /** The store's size, its last compression and last prune (Settings). */
  'store:info': channel(empty).returns<StoreInfo>(),
  /** Compresses the store now (upkeep, forced; never holds a workspace lock), then answers as store:info. */
  'store:compact': channel(empty).returns<StoreInfo>(),
  /**
   * Installs one agent's hooks in its default place (`chronoscope hooks install <agent>`): the
   * workspace's project config for Claude Code (the user's when no workspace is open), the user's for the others.
   */
  'agents:install': channel(
    z
      .object({
        agent: z.string().refine((id) => AGENT_CONNECTIONS.some((a) => a.id === id), 'not an agent Chronoscope connects'),
        workspace: WorkspacePath.optional(),
      })
      .strict(),
  ).returns<AgentInstallResult>(),
  'approvals:answer': channel(z.object({ id: z.string().min(1).max(100), approve: z.boolean() }).strict()).returns<ApprovalRequest>(),
  /** What retention moved into the workspace's trash (kept 14 days), newest first: Settings' "Recently removed". */
  'retention:trash': channel(WorkspaceRequest).returns<TrashEntry[]>(),
  /** Brings back every checkpoint of a trash entry (default: the last prune's); then checkpoints:restored. */
  /** Sharing of the workspace's history over its git remote (`chronoscope share status`); `enabled` turns it on or off (share enable/disable). */
  'share:get': channel(WorkspaceRequest).returns<ShareSwitch>(),
  'share:set': channel(z.object({ workspace: WorkspacePath, enabled: z.boolean() }).strict()).returns<ShareSwitch>(),
  'retention:undo': channel(z.object({ workspace: WorkspacePath, entry: TrashEntryId.optional() }).strict()).returns<UndoResult>(),
} as const;

export type InvokeChannel = keyof typeof INVOKE;
export type InvokeRequest<C extends InvokeChannel> = z.input<(typeof INVOKE)[C]['request']>;
export type InvokeResponse<C extends InvokeChannel> = NonNullable<(typeof INVOKE)[C]['response']>;
export const INVOKE_CHANNELS = Object.keys(INVOKE) as InvokeChannel[];

// ---- events: main → renderer ----
// Declared in events.ts, which has no zod: the Electron preload bundles it.
export { EVENT_CHANNELS, type EventChannel, type EventMap } from './events.js';
import type { EventChannel, EventMap } from './events.js';

// ---- the envelope every invoke answer travels in (both hosts) ----
// Electron's ipcMain.handle drops custom error fields, so errors travel as data.

export type InvokeResult<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

// ---- the WebSocket wire format of the browser host ----
// (A long ServerMessage travels in slices: ipc-frames.ts.)

export type ClientMessage = { type: 'invoke'; id: number; channel: InvokeChannel; payload: unknown };
export type ServerMessage =
  | { type: 'result'; id: number; result: InvokeResult<unknown> }
  | { type: 'event'; channel: EventChannel; payload: unknown };

/** What every component talks to; the transport (preload or WebSocket) is chosen once at start. */
export interface ChronoscopeClient {
  invoke<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<InvokeResponse<C>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void;
}

/** The API the Electron preload exposes on window.chronoscope. */
export interface PreloadApi {
  invoke(channel: InvokeChannel, request: unknown): Promise<InvokeResult<unknown>>;
  on(event: EventChannel, listener: (payload: unknown) => void): () => void;
}
