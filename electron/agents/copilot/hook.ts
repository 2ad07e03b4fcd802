// `chronoscope hook copilot`: GitHub Copilot CLI's hooks (1.0.102) as an
// adapter of the agent core. Installed under the PascalCase event names,
// which get a Claude-compatible stdin (captured from the real CLI in
// tests/agents/fixtures/copilot-1.0.102-hooks.jsonl): hook_event_name,
// session_id, cwd, timestamp, tool_name (Write for create, Edit, Bash),
// tool_input (+ tool_result {result_type, text_result_for_llm} after);
// UserPromptSubmit has the prompt. No tool-call id and no transcript path:
// the intent is read from its session's events.jsonl (intent.ts), whose path
// the call record keeps for "Open conversation".
//
// PreToolUse (Write/Edit/Bash): a checkpoint first; before an irreversible
//   command, a deny whose reason tells the model to ask the person (Copilot
//   has no "ask" answer in -p mode that we could verify).
// PostToolUse: the ledger's outcome (a shell's exit code is in the text;
//   result_type says "success" even when the command failed) and the intent.
// UserPromptSubmit: the prompt labels the session's lane.
// Stop (agentStop, the turn's end): alone, the last shell call's change is
//   checkpointed as that call's (core/work.ts turnEnd).
import { contentCallId, inputString, parseClaudeStylePayload } from '../core/claude-style-payload.js';
import type { ToolCall } from '../core/call.js';
import { callIds, turnEnded, type AgentAdapter, type AgentEvent } from '../core/adapter.js';
import { copilotEventsPath, copilotIntent } from './intent.js';

export const AGENT = 'copilot';
export const COPILOT_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop'] as const;
const FILE_TOOLS = ['Write', 'Edit', 'create', 'edit'];
const SHELL_TOOLS = ['Bash', 'bash'];

export interface CopilotPayload {
  session_id?: string;
  cwd: string;
  hook_event_name: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_result?: { result_type?: string; text_result_for_llm?: string };
  prompt?: string;
}

export interface CopilotOutput {
  permissionDecision: 'deny';
  permissionDecisionReason: string;
  hookSpecificOutput: { hookEventName: 'PreToolUse'; permissionDecision: 'deny'; permissionDecisionReason: string };
}

function parse(text: string): CopilotPayload {
  const o = parseClaudeStylePayload(text);
  const result = o['tool_result'];
  if (result !== undefined && (typeof result !== 'object' || result === null)) delete o['tool_result'];
  return o as unknown as CopilotPayload;
}

function toolCall(payload: CopilotPayload): ToolCall | null {
  const tool = payload.tool_name ?? '';
  const input = payload.tool_input;
  const ids = callIds(payload.session_id, contentCallId(AGENT, payload.session_id, payload.tool_name, payload.tool_input));
  if (FILE_TOOLS.includes(tool)) {
    const file = inputString(input, 'path') ?? inputString(input, 'file_path');
    return { agent: AGENT, tool, kind: 'file', cwd: payload.cwd, files: file === null ? [] : [file], command: null, ...ids };
  }
  if (SHELL_TOOLS.includes(tool)) {
    const command = inputString(input, 'command');
    if (command === null) return null;
    return { agent: AGENT, tool, kind: 'shell', cwd: payload.cwd, files: [], command, ...ids };
  }
  return null;
}

/** A shell's result text ends "<shellId: N completed with exit code X>"; result_type "failure" otherwise. */
function succeeded(result: CopilotPayload['tool_result']): boolean {
  if (result === undefined) return true;
  if (result.result_type !== undefined && result.result_type !== 'success') return false;
  const exit = exitCodeOf(result.text_result_for_llm ?? '');
  return exit === null || exit === 0;
}

function exitCodeOf(text: string): number | null {
  const exit = /completed with exit code (-?\d+)>\s*$/.exec(text);
  return exit === null ? null : Number(exit[1]);
}

function event(payload: CopilotPayload): AgentEvent | null {
  const name = payload.hook_event_name;
  if (name === 'UserPromptSubmit') {
    return { kind: 'prompt', cwd: payload.cwd, ...(payload.session_id === undefined ? {} : { session: payload.session_id }), ...(payload.prompt === undefined ? {} : { prompt: payload.prompt }) };
  }
  if (name === 'Stop') return turnEnded(payload.cwd, payload.session_id);
  const call = toolCall(payload);
  if (call === null) return null;
  if (name === 'PreToolUse') return { kind: 'before', call };
  if (name === 'PostToolUse') {
    const output = payload.tool_result?.text_result_for_llm ?? '';
    const transcript = copilotEventsPath(payload.session_id);
    return {
      kind: 'after',
      call,
      outcome: succeeded(payload.tool_result) ? 'ok' : 'failed',
      output,
      exitCode: exitCodeOf(output),
      intent: () => copilotIntent(payload.session_id, payload.tool_input),
      // The session's events.jsonl: "Open conversation" reads the messages around the call there.
      ...(transcript === undefined ? {} : { transcript }),
    };
  }
  return null;
}

function deny(reason: string): CopilotOutput {
  return { permissionDecision: 'deny', permissionDecisionReason: reason, hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
}

export const copilotAdapter: AgentAdapter<CopilotPayload, CopilotOutput> = {
  id: AGENT,
  parse,
  event,
  answers: {
    ask: (text) => deny(`${text}. Do not run it: ask the person to run it themselves if they want it. Do not look for another way to do it.`),
    refuse: (text) => deny(text),
    denies: () => true,
  },
};
