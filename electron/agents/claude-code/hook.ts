// `chronoscope hook claude-code`: Claude Code's hook protocol as an adapter of
// the agent core (core/adapter.ts). Thin on purpose: the core classifies,
// checkpoints, records and words the answers; this file only maps events.
//
// PreToolUse (Write, Edit, MultiEdit, NotebookEdit, Bash): a checkpoint first
//   (a full scan when alone, see core/local.ts); for a Bash command with
//   irreversible effects, `permissionDecision: "ask"` naming each effect and
//   its compensation. The ask is worked out from the command before the store
//   is touched, and given even when the checkpoint fails or runs past the budget.
// PostToolUse: the intended effects happened — or, for a push whose output
//   says "Everything up-to-date", sent nothing; and, where the service runs,
//   the checkpoint of what the call changed (core/work.ts).
// PostToolUseFailure: they failed; and a recovery hint for the model — the
//   checkpoint just before the call and the commands to see and undo.
// PostToolBatch: calls that got neither PostToolUse nor PostToolUseFailure
//   (refused by the person at our ask, or by a rule) never ran: denied.
// Stop (the turn's end): alone, the last shell call's change is checkpointed
//   as that call's (its end took none), so its prompt holds it and a
//   person's edit after the turn is told apart.
// UserPromptSubmit, SessionStart: effect memory — effects of this work whose
//   tool call the conversation no longer shows (rewound, cleared, compacted)
//   are named once, with their compensation.
//
// It fails open: any failure of ours means exit 0 and, past the ask, no output.
import { classifyCommand } from '../../effects/classify.js';
import type { CallKind, ToolCall } from '../core/call.js';
import { callIds, turnEnded, type AgentAdapter, type AgentEvent } from '../core/adapter.js';
import { FILE_TOOLS, HOOKED_TOOLS, bashCommand, batchCalls, parsePayload, toolFilePaths, toolSucceeded, type ClaudeCodePayload, type HookOutput } from './payload.js';
import { conversationToolUseIds } from './transcript.js';
import { responseExitCode, responseText } from '../core/tool-response.js';
import { claudeCodeIntent } from './intent.js';

export const AGENT = 'claude-code';

function toolCall(payload: ClaudeCodePayload, tool: string): ToolCall | null {
  const isFile = (FILE_TOOLS as readonly string[]).includes(tool);
  const command = tool === 'Bash' ? bashCommand(payload.tool_input) : null;
  if (!isFile && command === null) return null;
  const kind: CallKind = isFile ? 'file' : 'shell';
  return { agent: AGENT, tool, kind, cwd: payload.cwd, files: isFile ? toolFilePaths(payload.tool_input) : [], command, ...callIds(payload.session_id, payload.tool_use_id) };
}

function context(event: string, text: string): HookOutput {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

function event(payload: ClaudeCodePayload): AgentEvent | null {
  const name = payload.hook_event_name;
  if (name === 'UserPromptSubmit' || name === 'SessionStart') {
    const transcript = payload.transcript_path;
    return {
      kind: 'prompt',
      cwd: payload.cwd,
      ...(payload.session_id === undefined ? {} : { session: payload.session_id }),
      ...(name === 'UserPromptSubmit' && payload.prompt !== undefined ? { prompt: payload.prompt } : {}),
      ...(transcript === undefined ? {} : { present: () => conversationToolUseIds(transcript) }),
    };
  }
  // The turn's end: a shell call's change, alone, is taken then as that call's (core/work.ts turnEnd).
  if (name === 'Stop') return turnEnded(payload.cwd, payload.session_id);
  if (name === 'PostToolBatch') {
    // A call of the batch that got neither PostToolUse nor PostToolUseFailure never ran: refused at
    // our ask or by a rule. Claude Code (2.1.197) then gives only the refusal's text, in wording we
    // cannot count on, so what decides is that its effects are still intended: the core marks only
    // those denied, and a PostToolUse that comes after the batch still makes them happened. Only
    // calls that can have recorded effects are sent, so most batches never open the store.
    const ids = batchCalls(payload.tool_calls)
      .filter((c) => c.refused || (c.command !== null && classifyCommand(c.command).length > 0))
      .map((c) => c.id);
    return { kind: 'denied', cwd: payload.cwd, toolCallIds: ids };
  }
  const tool = payload.tool_name ?? '';
  if (!(HOOKED_TOOLS as readonly string[]).includes(tool)) return null;
  const call = toolCall(payload, tool);
  if (call === null) return null;
  if (name === 'PreToolUse') return { kind: 'before', call };
  if (name === 'PostToolUse' || name === 'PostToolUseFailure') {
    // A failure's words are in `error` ("Exit code 1", then stderr and stdout), not in a tool_response.
    const output = [responseText(payload.tool_response), payload.error ?? ''].filter((t) => t !== '').join('\n');
    const transcript = payload.transcript_path;
    return {
      kind: 'after',
      call,
      outcome: toolSucceeded(payload) ? 'ok' : 'failed',
      output,
      exitCode: responseExitCode(payload.tool_response, payload.error),
      intent: () => claudeCodeIntent(transcript, payload.tool_use_id),
      ...(transcript === undefined ? {} : { transcript }),
    };
  }
  return null;
}

export const claudeCodeAdapter: AgentAdapter<ClaudeCodePayload, HookOutput> = {
  id: AGENT,
  parse: parsePayload,
  event,
  answers: {
    ask: (text) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: text } }),
    refuse: (text) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: text } }),
    hint: (text, payload) => context(payload.hook_event_name, text),
    reminder: (text, payload) => context(payload.hook_event_name, text),
  },
};
