// Each tool call as its agent's post-call event reported it, one line of the
// workspace's prompt ledger (electron/prompts/ledger.ts): its tool and reason,
// how it ended (exit code and, when it failed, the end of its output), the
// assistant's stated intent where the agent keeps a transcript, the paths it
// changed and the checkpoint holding that change when one was taken, and the
// prompt it served. Failed calls that changed nothing are recorded too: the
// app marks them on the timeline.
//
// Light: the hook process records a call that needs no engine (a shell call
// that succeeded, with no effect) straight from here; a workspace the store
// does not know yet is never registered for it.
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { registeredWorkspaces } from '../../engine/layout/registered.js';
import { storeLayout, workspaceId, workspaceLayout } from '../../engine/layout/paths.js';
import { PromptLedger } from '../../prompts/ledger.js';
import type { CallDetails, ToolCall } from './call.js';
import { callReason } from './call-reason.js';
import { promptOf } from './session-prompt.js';
import { workspaceDirFor } from './workspace-for.js';

/** What the core knows of a call's change once it ended. */
export interface CallChange {
  /** Workspace-relative paths it changed (its files, or the checkpoint's few paths). */
  paths: readonly string[];
  /** The checkpoint holding its change, when one was taken as it ended. */
  checkpoint: string | null;
  /** Its files inside the workspace (a file call's reason names them). */
  inside: readonly string[];
}

export async function recordCall(home: string, id: string, call: ToolCall, outcome: 'ok' | 'failed', details: CallDetails | undefined, change: CallChange): Promise<void> {
  const prompt = call.session === undefined ? null : await promptOf(home, call.session);
  const d = details ?? {};
  await new PromptLedger(home, id).appendCall({
    agent: call.agent,
    tool: call.tool,
    reason: callReason(call, change.inside),
    status: outcome,
    ...(prompt?.id == null ? {} : { prompt_id: prompt.id }),
    ...(call.session === undefined ? {} : { session: call.session }),
    ...(call.toolCallId === undefined ? {} : { tool_use_id: call.toolCallId }),
    ...(d.exit_code === undefined ? {} : { exit_code: d.exit_code }),
    // A build log's end only where it explains a failure: a successful call's output is not kept.
    ...(outcome === 'failed' && d.output_tail !== undefined && d.output_tail.trim() !== '' ? { output_tail: d.output_tail } : {}),
    ...(d.intent === undefined || d.intent.trim() === '' ? {} : { intent: d.intent.trim() }),
    ...(d.transcript === undefined || !isAbsolute(d.transcript) ? {} : { transcript: d.transcript }),
    ...(change.paths.length === 0 ? {} : { paths: [...change.paths] }),
    ...(change.checkpoint === null ? {} : { checkpoint: change.checkpoint }),
  });
}

/** A call that took no checkpoint, recorded in the workspace `dir` when the store knows it (never registered for it). */
export async function recordCallIn(home: string, dir: string, call: ToolCall, outcome: 'ok' | 'failed', details: CallDetails | undefined): Promise<void> {
  const id = workspaceId(dir);
  if (!existsSync(workspaceLayout(storeLayout(home), id).metaFile)) return;
  await recordCall(home, id, call, outcome, details, { paths: [], checkpoint: null, inside: [] });
}

/** The same from the hook process alone: the workspace found without the engine. */
export async function recordCallAlone(home: string, call: ToolCall, outcome: 'ok' | 'failed', details: CallDetails | undefined): Promise<void> {
  await recordCallIn(home, await workspaceDirFor(registeredWorkspaces(home), call.cwd), call, outcome, details);
}
