// The events main → renderer, split from ipc.ts only so that importing the
// list at run time (the sandboxed Electron preload does) does not pull in zod
// and the request schemas. ipc.ts re-exports everything here.
import type { EffectRecord, Checkpoint, RestoreResult } from './model.js';
import type { SerializedError } from './errors.js';
import type { WorkspaceState } from './ipc.js';

export interface EventMap {
  'checkpoint:added': { workspace: string; checkpoint: Checkpoint };
  'restore:done': { workspace: string; result: RestoreResult };
  'effect:recorded': { workspace: string; effect: EffectRecord };
  'workspace:state': { workspace: string; state: WorkspaceState; message?: string };
  progress: { workspace: string; message: string };
  error: { workspace?: string; error: SerializedError };
  /**
   * A request from the host's chrome (the tray's "Show in timeline" on an
   * effect notification): select this workspace and the moment of the effect
   * (its `checkpoint`, else the checkpoint nearest `time_ms`).
   */
  'ui:focusEffect': { workspace: string; effect: EffectRecord };
}
export type EventChannel = keyof EventMap;
export const EVENT_CHANNELS: readonly EventChannel[] = [
  'checkpoint:added',
  'restore:done',
  'effect:recorded',
  'workspace:state',
  'progress',
  'error',
  'ui:focusEffect',
];

