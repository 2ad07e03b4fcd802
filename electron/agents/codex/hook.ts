// `chronoscope hook codex`: Codex CLI's hooks (0.171) as an adapter of the
// agent core. Codex's payload is Claude Code's in shape: session_id, turn_id,
// transcript_path, cwd, hook_event_name, tool_name, tool_input, tool_use_id,
// tool_response after; the prompt on UserPromptSubmit.
//
// PreToolUse: `Bash` (tool_input.command) and `apply_patch` (tool_input.command
//   holds the patch; the files are the ones it names) get a checkpoint first.
// PostToolUse: the ledger's outcome (a failed call also gets a recovery hint).
// UserPromptSubmit: the prompt labels the session's lane.
// Stop (the turn's end): alone, the last shell call's change is checkpointed
//   as that call's (core/work.ts turnEnd).
//
// Codex has no JSON "ask" (an `ask` or `allow` marks the hook failed and the
// tool runs), so before an irreversible command the hook denies it with a
// reason telling the model to ask the person first and, once they agreed, to
// run the same command again: the same command in the same session after the
// person has spoken again (a later turn) goes through (asked-before.ts).
import { parseStdinObject } from '../core/stdin-json.js';
import type { ToolCall } from '../core/call.js';
import { callIds, turnEnded, type AgentAdapter, type AgentEvent } from '../core/adapter.js';
import { patchFilePaths, responseExitCode, responseSucceeded, responseText } from '../core/tool-response.js';
import { codexIntent } from './intent.js';
import { askOnce } from './asked-before.js';
import { outcomeInRollout } from './call-outcome.js';

export const AGENT = 'codex';
export const CODEX_TOOLS = ['Bash', 'apply_patch'] as const;

export interface CodexPayload {
  session_id?: string;
  turn_id?: string;
  cwd: string;
  hook_event_name: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  tool_response?: unknown;
  prompt?: string;
  /** The session's rollout file: a shell call's status (call-outcome.ts). */
  transcript_path?: string;
}

export interface CodexOutput {
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: 'deny';
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
}

function parse(text: string): CodexPayload {
  const o = parseStdinObject(text);
  for (const key of ['cwd', 'hook_event_name']) {
    const v = o[key];
    if (typeof v !== 'string' || v === '' || v.length > 10_000 || v.includes('\0')) throw new Error(`unexpected hook payload: ${key} must be a non-empty string`);
  }
  for (const key of ['session_id', 'turn_id', 'tool_name', 'tool_use_id', 'prompt', 'transcript_path']) {
    if (o[key] !== undefined && typeof o[key] !== 'string') throw new Error(`unexpected hook payload: ${key} must be a string`);
  }
  const input = o['tool_input'];
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) throw new Error('unexpected hook payload: tool_input must be an object');
  return o as unknown as CodexPayload;
}

function toolCall(payload: CodexPayload): ToolCall | null {
  const tool = payload.tool_name ?? '';
  const command = payload.tool_input?.['command'];
  if (typeof command !== 'string') return null;
  const ids = callIds(payload.session_id, payload.tool_use_id);
  if (tool === 'apply_patch') return { agent: AGENT, tool, kind: 'file', cwd: payload.cwd, files: patchFilePaths(command), command: null, ...ids };
  if (tool === 'Bash') return { agent: AGENT, tool, kind: 'shell', cwd: payload.cwd, files: [], command, ...ids };
  return null;
}

async function event(payload: CodexPayload): Promise<AgentEvent | null> {
  const name = payload.hook_event_name;
  if (name === 'UserPromptSubmit') {
    return { kind: 'prompt', cwd: payload.cwd, ...(payload.session_id === undefined ? {} : { session: payload.session_id }), ...(payload.prompt === undefined ? {} : { prompt: payload.prompt }) };
  }
  if (name === 'Stop') return turnEnded(payload.cwd, payload.session_id);
  const call = toolCall(payload);
  if (call === null) return null;
  if (name === 'PreToolUse') return { kind: 'before', call };
  if (name === 'PostToolUse') {
    // Its response is the output alone: a shell call's failure is read from the session's rollout file.
    const rollout = call.kind === 'shell' ? await outcomeInRollout(payload.transcript_path, payload.tool_use_id) : null;
    const failed = !responseSucceeded(payload.tool_response) || rollout?.failed === true;
    return {
      kind: 'after',
      call,
      outcome: failed ? 'failed' : 'ok',
      output: responseText(payload.tool_response),
      exitCode: rollout?.exit_code ?? responseExitCode(payload.tool_response),
      intent: () => codexIntent(payload.transcript_path, payload.tool_use_id),
      ...(typeof payload.transcript_path === 'string' ? { transcript: payload.transcript_path } : {}),
    };
  }
  return null;
}

const ASK_PERSON =
  'Do not run it yet: ask the person whether to go ahead, and only when they agree run exactly the same command again (it will then go through). Do not look for another way to do it.';

export const codexAdapter: AgentAdapter<CodexPayload, CodexOutput> = {
  id: AGENT,
  parse,
  event,
  answers: {
    async ask(text, _effects, payload) {
      const command = payload.tool_input?.['command'];
      if (typeof command !== 'string') return null;
      // Asked in an earlier turn of this session and the person has spoken since: they agreed.
      if (!(await askOnce(payload.session_id, payload.turn_id, command))) return null;
      return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: `${text}. ${ASK_PERSON}` } };
    },
    refuse: (text) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text } }),
    denies: (output) => output.hookSpecificOutput.permissionDecision === 'deny',
    hint: (text) => ({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } }),
  },
};
