// A full scan the watcher takes while an agent's call is under way — above
// all the catch-up of a service a hook just started: the session's first
// call's PreToolUse took the checkpoint before it alone, the call changed
// files, and the service came up and scanned before (or without) the call's
// end being handed to it. What that scan finds came after the checkpoint a
// hook took before the call, and no call has ended since: it is that call's
// change (the words of a hook checkpoint say as much without a service), so
// it is taken as that call's checkpoint, never as a full-scan watcher entry.
import type { Checkpoint, SnapshotOptions } from '../../../shared/model.js';
import { precedesCall } from '../../../shared/checkpoint-words.js';
import { callBeganNote, callEndedNote } from './call-checkpoints.js';

/** The options of the watcher's full scan `options`, as the checkpoint of the call under way when there is one. */
export async function asUnendedCall(home: string, workspaceId: string, latest: Checkpoint | undefined, options: SnapshotOptions): Promise<SnapshotOptions> {
  if (latest === undefined || !precedesCall(latest)) return options;
  const ended = await callEndedNote(home, workspaceId);
  if (ended !== null && ended.checkpoint === latest.id) return options;
  const { auto_reason: _auto, ...rest } = options;
  void _auto;
  // A later call that began with nothing changed since is the one under way (call-checkpoints.ts).
  const began = await callBeganNote(home, workspaceId);
  if (began !== null && began.checkpoint === latest.id && began.at_ms > (ended?.at_ms ?? 0)) {
    return { ...rest, trigger: 'hook', reason: began.reason, agent: began.agent, tool: began.tool, change_by: 'call' };
  }
  const own = (['agent', 'tool', 'session', 'tool_use_id', 'prompt', 'prompt_id'] as const).flatMap((k) => (latest[k] === undefined ? [] : [[k, latest[k]] as const]));
  return { ...rest, ...Object.fromEntries(own), trigger: 'hook', reason: latest.reason, change_by: 'call' };
}
