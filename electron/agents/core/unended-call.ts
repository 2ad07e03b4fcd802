// A change found while an agent's call is still under way, or after it with
// no end noted — above all when a hook working alone ran a shell call (its
// end takes no checkpoint alone) and then:
// - the service a hook just started catches up with one full scan of what
//   changed while nobody watched, or
// - the person gives the next prompt, whose `before` must hold that call's
//   change (a restore to before the prompt must not undo the prompt before).
// What changed since the latest checkpoint is then that call's: the one a
// hook took the latest checkpoint before, or a later one that began with
// nothing changed (call-checkpoints.ts). It is taken as that call's
// checkpoint, never as a full-scan watcher entry. An end noted since (the
// call changed nothing more) leaves the options as they were.
import type { Checkpoint, SnapshotOptions } from '../../../shared/model.js';
import { precedesCall } from '../../../shared/checkpoint-words.js';
import { callBeganNote, callEndedNote } from './call-checkpoints.js';

/** The prompt the call served, where the caller knows it better than the latest checkpoint does. */
export interface CallPrompt {
  label: string;
  id: string | null;
}

/** `options` as the checkpoint of the call under way when there is one (`change_by: 'call'`); else unchanged. */
export async function asUnendedCall(home: string, workspaceId: string, latest: Checkpoint | undefined, options: SnapshotOptions, prompt?: CallPrompt | null): Promise<SnapshotOptions> {
  if (latest === undefined) return options;
  const [ended, began] = await Promise.all([callEndedNote(home, workspaceId), callBeganNote(home, workspaceId)]);
  const { auto_reason: _auto, ...rest } = options;
  void _auto;
  const labels = prompt == null ? {} : { prompt: prompt.label, ...(prompt.id === null ? {} : { prompt_id: prompt.id }) };
  // A later call that began with nothing changed since is the one under way.
  if (began !== null && began.checkpoint === latest.id && began.at_ms > (ended?.at_ms ?? 0)) {
    const ids = { ...(began.session === undefined ? {} : { session: began.session }), ...(began.tool_use_id === undefined ? {} : { tool_use_id: began.tool_use_id }) };
    return { ...rest, ...labels, trigger: 'hook', reason: began.reason, agent: began.agent, tool: began.tool, ...ids, change_by: 'call' };
  }
  if (!precedesCall(latest) || (ended !== null && ended.checkpoint === latest.id)) return options;
  const own = (['agent', 'tool', 'session', 'tool_use_id', 'prompt', 'prompt_id'] as const).flatMap((k) => (latest[k] === undefined ? [] : [[k, latest[k]] as const]));
  return { ...rest, ...Object.fromEntries(own), ...labels, trigger: 'hook', reason: latest.reason, change_by: 'call' };
}
