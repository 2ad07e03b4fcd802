// `chronoscope hook gemini`: Gemini CLI's hooks (0.61) as an adapter of the
// agent core. Stdin: session_id, transcript_path, cwd, hook_event_name,
// timestamp, tool_name, tool_input (+ tool_response after); BeforeAgent has
// the prompt. Gemini runs hooks with a cleaned environment (no PATH to count
// on): the installed command names absolute Node and CLI paths.
//
// BeforeTool (write_file, replace, run_shell_command): a checkpoint first;
//   before an irreversible command, `decision: "ask"` with the effects, which
//   Gemini puts to the person as its own confirmation — or, when Gemini runs
//   headless and nobody could answer (headless.ts), a deny whose reason tells
//   the model to leave the command to the person.
// AfterTool: the ledger's outcome; a failed call gets a recovery hint.
// BeforeAgent: the prompt labels the session's lane.
// AfterAgent (the turn's end): alone, the last shell call's change is
//   checkpointed as that call's (core/work.ts turnEnd), as Claude Code's Stop.
import { contentCallId, inputString, parseClaudeStylePayload } from '../core/claude-style-payload.js';
import type { ToolCall } from '../core/call.js';
import { callIds, turnEnded, type AgentAdapter, type AgentEvent } from '../core/adapter.js';
import { responseExitCode, responseText } from '../core/tool-response.js';
import { geminiIntent } from './intent.js';
import { geminiIsHeadless } from './headless.js';

export const AGENT = 'gemini';
export const GEMINI_FILE_TOOLS = ['write_file', 'replace'] as const;
export const GEMINI_TOOLS = [...GEMINI_FILE_TOOLS, 'run_shell_command'] as const;

export interface GeminiPayload {
  session_id?: string;
  cwd: string;
  hook_event_name: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_response?: unknown;
  prompt?: string;
  /** The session's file (JSON Lines): the assistant's words before a call (intent.ts). */
  transcript_path?: string;
}

export type GeminiOutput =
  | { decision: 'ask' | 'deny'; reason: string; systemMessage: string }
  | { hookSpecificOutput: { hookEventName: string; additionalContext: string } };

function parse(text: string): GeminiPayload {
  const o = parseClaudeStylePayload(text);
  return o as unknown as GeminiPayload;
}

function toolCall(payload: GeminiPayload): ToolCall | null {
  const tool = payload.tool_name ?? '';
  const input = payload.tool_input;
  const ids = callIds(payload.session_id, contentCallId(AGENT, payload.session_id, payload.tool_name, payload.tool_input));
  if ((GEMINI_FILE_TOOLS as readonly string[]).includes(tool)) {
    const file = inputString(input, 'file_path') ?? inputString(input, 'absolute_path') ?? inputString(input, 'path');
    return { agent: AGENT, tool, kind: 'file', cwd: payload.cwd, files: file === null ? [] : [file], command: null, ...ids };
  }
  if (tool === 'run_shell_command') {
    const command = inputString(input, 'command');
    if (command === null) return null;
    // A command may run in a folder of the workspace (dir_path, relative to it).
    const dir = inputString(input, 'dir_path') ?? inputString(input, 'directory');
    const cwd = dir === null ? payload.cwd : dir.startsWith('/') ? dir : `${payload.cwd.replace(/\/$/, '')}/${dir}`;
    return { agent: AGENT, tool, kind: 'shell', cwd, files: [], command, ...ids };
  }
  return null;
}

/** Gemini's AfterTool response: `error` set (or a non-zero exit code in the text) when the call failed. */
function succeeded(response: unknown): boolean {
  if (typeof response !== 'object' || response === null) return true;
  const o = response as Record<string, unknown>;
  if (o['error'] !== undefined && o['error'] !== null && o['error'] !== '') return false;
  const text = responseText(response);
  const exit = /^Exit Code: (-?\d+)$/m.exec(text);
  return exit === null || exit[1] === '0';
}

function event(payload: GeminiPayload): AgentEvent | null {
  const name = payload.hook_event_name;
  if (name === 'BeforeAgent') {
    return { kind: 'prompt', cwd: payload.cwd, ...(payload.session_id === undefined ? {} : { session: payload.session_id }), ...(payload.prompt === undefined ? {} : { prompt: payload.prompt }) };
  }
  if (name === 'AfterAgent') return turnEnded(payload.cwd, payload.session_id);
  const call = toolCall(payload);
  if (call === null) return null;
  if (name === 'BeforeTool') return { kind: 'before', call };
  if (name === 'AfterTool') {
    const transcript = typeof payload.transcript_path === 'string' ? payload.transcript_path : undefined;
    return {
      kind: 'after',
      call,
      outcome: succeeded(payload.tool_response) ? 'ok' : 'failed',
      output: responseText(payload.tool_response),
      exitCode: responseExitCode(payload.tool_response),
      intent: () => geminiIntent(transcript, payload.tool_name, payload.tool_input),
      ...(transcript === undefined ? {} : { transcript }),
    };
  }
  return null;
}

const HEADLESS_DENY = 'Nobody can confirm it in this run: do not run it, and do not look for another way to do it; tell the person the exact command so they can run it themselves.';

export const geminiAdapter: AgentAdapter<GeminiPayload, GeminiOutput> = {
  id: AGENT,
  parse,
  event,
  answers: {
    ask: (text) =>
      geminiIsHeadless()
        ? { decision: 'deny', reason: `${text}. ${HEADLESS_DENY}`, systemMessage: `${text} (denied: Gemini runs headless, nobody could confirm it)` }
        : { decision: 'ask', reason: text, systemMessage: text },
    refuse: (text) => ({ decision: 'deny', reason: text, systemMessage: text }),
    denies: (output) => 'decision' in output && output.decision === 'deny',
    hint: (text) => ({ hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: text } }),
  },
};
