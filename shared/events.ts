// The events main → renderer, split from ipc.ts only so that importing the
// list at run time (the sandboxed Electron preload does) does not pull in zod
// and the request schemas. ipc.ts re-exports everything here.
import type { ApprovalRequest, BisectResult, EffectRecord, Checkpoint, RestoreResult, VerificationRecord, WorkspaceState } from './model.js';
import type { SerializedError } from './errors.js';

export interface EventMap {
  'checkpoint:added': { workspace: string; checkpoint: Checkpoint };
  'restore:done': { workspace: string; result: RestoreResult };
  /** Retention moved these checkpoints into the trash (the service applies it by itself when quiet); `trash`: the entry that undoes it. */
  'checkpoints:pruned': { workspace: string; removed: string[]; trash: string | null };
  /** An undo brought these checkpoints back from the trash. */
  'checkpoints:restored': { workspace: string; restored: string[] };
  /** A pull brought teammates' checkpoints (electron/share/pull-timer.ts): `updated` share logs moved. */
  'checkpoints:shared': { workspace: string; updated: number };
  'effect:recorded': { workspace: string; effect: EffectRecord };
  'workspace:state': { workspace: string; state: WorkspaceState; message?: string };
  /** `hashed`/`total`: a long snapshot's files hashed so far (its message says the same in words). */
  progress: { workspace: string; message: string; hashed?: number; total?: number };
  error: { workspace?: string; error: SerializedError };
  /**
   * A request from the host's chrome (the tray's "Show in timeline" on an
   * effect notification): select this workspace and the moment of the effect
   * (its `checkpoint`, else the checkpoint nearest `time_ms`).
   */
  'ui:focusEffect': { workspace: string; effect: EffectRecord };
  /** A verifier run finished and was recorded (app, CLI or an agent through MCP). */
  'verify:recorded': { workspace: string; record: VerificationRecord };
  /** A background bisect moved on: `message` is for people; `id`/`passed` is the run. */
  'bisect:progress': { workspace: string; job: string; message: string; runs: number; remaining_at_most: number };
  /** A background bisect ended: a result, an error, or cancelled. */
  'bisect:done': { workspace: string; job: string; result?: BisectResult; error?: SerializedError; cancelled?: boolean };
  /** The restore requests agents filed that wait for a person, whenever that list changes. */
  'approvals:changed': { pending: ApprovalRequest[] };
}
export type EventChannel = keyof EventMap;
export const EVENT_CHANNELS: readonly EventChannel[] = [
  'checkpoint:added',
  'checkpoints:pruned',
  'checkpoints:restored',
  'checkpoints:shared',
  'restore:done',
  'effect:recorded',
  'workspace:state',
  'progress',
  'error',
  'ui:focusEffect',
  'verify:recorded',
  'bisect:progress',
  'bisect:done',
  'approvals:changed',
];

