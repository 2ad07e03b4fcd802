// `chronoscope hook hermes`: what the Hermes Agent plugin (plugin-files.ts)
// asks for, translated to the agent core and back. Thin on purpose, like the
// Claude Code adapter beside it: the core classifies, checkpoints, records
// and words the answers.
//
// The plugin sends one JSON object on stdin — the hook's name, the folder the
// agent works in, and the few keyword arguments that matter (never a whole
// conversation: for pre_llm_call it sends the tool-call ids still in it; with
// post_tool_call, the assistant's words before the call, its intent) —
// and gets one JSON object back: a pre_tool_call directive, a recovery hint,
// or context for the next model call. post_llm_call (the turn's end): alone,
// the last terminal call's change is checkpointed as that call's.
import type { ClassifiedEffect } from '../../../shared/model.js';
import type { CallKind, ToolCall } from '../core/call.js';
import { turnEnded, type AgentAdapter, type AgentEvent } from '../core/adapter.js';
import { parseStdinObject } from '../core/stdin-json.js';
import { responseExitCode, responseText } from '../core/tool-response.js';

export const AGENT = 'hermes';
export const HERMES_TOOLS = ['write_file', 'patch', 'terminal', 'execute_code'] as const;

export interface HermesRequest {
  event: string;
  cwd: string;
  tool_name?: string;
  args?: Record<string, unknown>;
  session_id?: string;
  tool_call_id?: string;
  /** post_tool_call: ok | error | blocked. */
  status?: string;
  /** post_tool_call: the end of the tool's result (a terminal call's is JSON: output, exit_code) and of its error message. */
  result?: string;
  error_message?: string;
  /** post_tool_call: the assistant's words before the call (from post_api_request's assistant message), at most 1,000 characters. */
  intent?: string;
  /** pre_llm_call: tool-call ids still in conversation_history. */
  present?: string[];
  /** pre_llm_call: the turn's user message (the plugin sends at most 4,000 characters; any length is taken). */
  prompt?: string;
}

/** What the plugin gets back; every field optional. */
export interface HermesAnswer {
  /** `approve`: Hermes' own approval prompt; `block`: the call is refused with the message. */
  directive?: { action: 'approve'; message: string; rule_key: string } | { action: 'block'; message: string };
  hint?: string;
  context?: string;
}

function parseRequest(text: string): HermesRequest {
  const o = parseStdinObject(text);
  const str = (key: string, required = false): void => {
    const v = o[key];
    if (v === undefined && !required) return;
    if (typeof v !== 'string' || v.length === 0 || v.length > 10_000 || v.includes('\0')) throw new Error(`unexpected request: ${key} must be a string`);
  };
  str('event', true);
  str('cwd', true);
  for (const key of ['tool_name', 'session_id', 'tool_call_id', 'status']) str(key);
  // The prompt is only a label (its first line, shortened: session-prompt.ts), so no length or
  // character makes it wrong; one that is not text is left out. Refusing the call for it would
  // lose the rest of the turn's hook too (effect memory).
  const prompt = o['prompt'];
  if (prompt !== undefined && (typeof prompt !== 'string' || prompt === '')) delete o['prompt'];
  // Words of how a call ended: kept only as text, never a reason to refuse the call.
  for (const key of ['result', 'error_message', 'intent']) if (typeof o[key] !== 'string') delete o[key];
  const args = o['args'];
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) throw new Error('unexpected request: args must be an object');
  const present = o['present'];
  if (present !== undefined && (!Array.isArray(present) || present.some((p) => typeof p !== 'string'))) throw new Error('unexpected request: present must be a list of strings');
  return o as unknown as HermesRequest;
}

/** Files a patch call changes: its `path`, or every file a V4A multi-file patch names. */
export function patchPaths(args: Record<string, unknown>): string[] {
  const paths: string[] = [];
  if (typeof args['path'] === 'string' && args['path'] !== '') paths.push(args['path']);
  const patch = args['patch'];
  if (typeof patch === 'string') {
    for (const m of patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)) {
      const p = (m[1] ?? m[2] ?? '').trim();
      if (p !== '') paths.push(p);
    }
  }
  return paths;
}

function toolCall(request: HermesRequest): ToolCall | null {
  const tool = request.tool_name ?? '';
  if (!(HERMES_TOOLS as readonly string[]).includes(tool)) return null;
  const args = request.args ?? {};
  const workdir = typeof args['workdir'] === 'string' && args['workdir'] !== '' ? args['workdir'] : null;
  let kind: CallKind = 'code';
  let files: string[] = [];
  let command: string | null = null;
  if (tool === 'write_file') {
    kind = 'file';
    files = typeof args['path'] === 'string' ? [args['path']] : [];
  } else if (tool === 'patch') {
    kind = 'file';
    files = patchPaths(args);
  } else if (tool === 'terminal') {
    kind = 'shell';
    command = typeof args['command'] === 'string' ? args['command'] : null;
    if (command === null) return null;
  }
  return {
    agent: AGENT,
    tool,
    kind,
    // A terminal call may run elsewhere (workdir); relative paths of file tools are the agent's folder's.
    cwd: workdir !== null && tool === 'terminal' ? workdir : request.cwd,
    files,
    command,
    ...(request.session_id === undefined ? {} : { session: request.session_id }),
    ...(request.tool_call_id === undefined ? {} : { toolCallId: request.tool_call_id }),
  };
}

/** "allow for this session" in Hermes remembers this key: one per effect kind and target, never the bare tool name. */
export function ruleKey(effects: readonly ClassifiedEffect[]): string {
  return [...new Set(effects.map((e) => `chronoscope:${e.kind}:${e.target}`))].sort().join('+');
}

/** A result Hermes' terminal tool gives as JSON ({output, exit_code, error}); any other result is its output. */
function resultOf(result: string | undefined): { output: string; exitCode: number | null } {
  if (result === undefined) return { output: '', exitCode: null };
  try {
    const o = JSON.parse(result) as unknown;
    if (typeof o === 'object' && o !== null && !Array.isArray(o)) return { output: responseText(o) || (typeof (o as Record<string, unknown>)['error'] === 'string' ? String((o as Record<string, unknown>)['error']) : ''), exitCode: responseExitCode(o) };
  } catch {
    // not JSON: the text itself
  }
  return { output: result, exitCode: null };
}

function event(request: HermesRequest): AgentEvent | null {
  if (request.event === 'pre_llm_call') {
    // The prompt labels this session's next checkpoints, as Claude Code's UserPromptSubmit does.
    const present = request.present;
    return {
      kind: 'prompt',
      cwd: request.cwd,
      ...(request.session_id === undefined ? {} : { session: request.session_id }),
      ...(request.prompt === undefined ? {} : { prompt: request.prompt }),
      ...(present === undefined ? {} : { present: () => Promise.resolve(present) }),
    };
  }
  if (request.event === 'post_llm_call') return turnEnded(request.cwd, request.session_id);
  const call = toolCall(request);
  if (call === null) return null;
  if (request.event === 'pre_tool_call') return { kind: 'before', call };
  if (request.event === 'post_tool_call') {
    if (request.status === 'blocked') return { kind: 'denied', cwd: call.cwd, toolCallIds: call.toolCallId === undefined ? [] : [call.toolCallId] };
    const ended = resultOf(request.result);
    const output = [ended.output, request.error_message ?? ''].filter((t) => t !== '').join('\n');
    const intent = request.intent;
    return { kind: 'after', call, outcome: request.status === 'error' ? 'failed' : 'ok', output, exitCode: ended.exitCode, ...(intent === undefined ? {} : { intent: () => Promise.resolve(intent) }) };
  }
  return null;
}

export const hermesAdapter: AgentAdapter<HermesRequest, HermesAnswer> = {
  id: AGENT,
  parse: parseRequest,
  event,
  answers: {
    // The approval does not wait for the checkpoint: it is given even if the store fails or is slow.
    ask: (text, effects) => ({ directive: { action: 'approve', message: text, rule_key: ruleKey(effects) } }),
    refuse: (text) => ({ directive: { action: 'block', message: text } }),
    hint: (text) => ({ hint: text }),
    reminder: (text) => ({ context: text }),
  },
  none: {},
};
