// `chronoscope hook opencode`: OpenCode's calls as an adapter of the agent
// core. OpenCode has no command hooks; its plugins run inside it. Our plugin
// (plugin-file.ts, placed by `hooks install opencode`) hands each call to this
// hook process as one JSON object — the fields OpenCode 1.18 gives a plugin
// (captured in tests/agents/fixtures/opencode-1.18.33-plugin.jsonl):
//   { event: 'prompt', session, cwd, prompt }                from chat.message
//   { event: 'before', session, call_id, tool, args, cwd }    tool.execute.before
//   { event: 'after', …, output, exit, intent }               tool.execute.after
//   { event: 'turn_end', session, cwd }                      session.idle, after a turn with a call
// (`intent`: the assistant's last words before the call, which the plugin
// heard go by; OpenCode's own store is a SQLite database we do not open.)
// and reads one JSON answer back: { deny: reason } makes the plugin throw,
// which OpenCode reports to the model as the call's error (it does not run).
//
// before (write, edit, patch, bash): a checkpoint first; before an
//   irreversible command, a deny whose reason tells the model to leave it to
//   the person (a plugin cannot ask the person anything).
// after: the ledger's outcome (a shell's exit code, when OpenCode gives it).
// turn_end: alone, the last shell call's change is checkpointed as that
//   call's (core/work.ts turnEnd).
import { parseStdinObject } from '../core/stdin-json.js';
import { inputString } from '../core/claude-style-payload.js';
import type { ToolCall } from '../core/call.js';
import { callIds, turnEnded, type AgentAdapter, type AgentEvent } from '../core/adapter.js';

export const AGENT = 'opencode';
const FILE_TOOLS = ['write', 'edit'];
/** The calls the plugin hands over (plugin-file.ts): the others change nothing we record. */
export const OPENCODE_HOOKED_TOOLS = [...FILE_TOOLS, 'patch', 'apply_patch', 'bash'] as const;

export interface OpenCodePayload {
  event: 'prompt' | 'before' | 'after' | 'turn_end';
  cwd: string;
  session?: string;
  call_id?: string;
  tool?: string;
  args?: Record<string, unknown>;
  prompt?: string;
  output?: string;
  exit?: number;
  intent?: string;
}

/** What the plugin does with an answer: `deny` blocks the call (it throws); `hint` is added to the failed call's output, which the model reads. */
export type OpenCodeOutput = { deny: string } | { hint: string };

function parse(text: string): OpenCodePayload {
  const o = parseStdinObject(text);
  if (!['prompt', 'before', 'after', 'turn_end'].includes(o['event'] as string)) throw new Error('unexpected hook payload: event must be prompt, before, after or turn_end');
  const cwd = o['cwd'];
  if (typeof cwd !== 'string' || cwd === '' || cwd.length > 10_000 || cwd.includes('\0')) throw new Error('unexpected hook payload: cwd must be a non-empty string');
  for (const key of ['session', 'call_id', 'tool', 'prompt', 'output', 'intent']) {
    if (o[key] !== undefined && typeof o[key] !== 'string') throw new Error(`unexpected hook payload: ${key} must be a string`);
  }
  const args = o['args'];
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) throw new Error('unexpected hook payload: args must be an object');
  if (typeof o['exit'] !== 'number') delete o['exit'];
  return o as unknown as OpenCodePayload;
}

/** The files a patch names ("*** Update File: a/b.ts", "*** Add File: …", "*** Delete File: …"), relative to cwd. */
function patchFiles(text: string, cwd: string): string[] {
  const files = [...text.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => m[1]!.trim());
  return files.map((f) => (f.startsWith('/') ? f : `${cwd.replace(/\/$/, '')}/${f}`));
}

function toolCall(p: OpenCodePayload): ToolCall | null {
  const tool = p.tool ?? '';
  const ids = callIds(p.session, p.call_id);
  if (FILE_TOOLS.includes(tool)) {
    const file = inputString(p.args, 'filePath');
    return { agent: AGENT, tool, kind: 'file', cwd: p.cwd, files: file === null ? [] : [file], command: null, ...ids };
  }
  if (tool === 'patch' || tool === 'apply_patch') {
    const text = inputString(p.args, 'patchText') ?? inputString(p.args, 'patch') ?? '';
    const files = patchFiles(text, p.cwd);
    // A patch whose files cannot be read is treated as able to change anything.
    return { agent: AGENT, tool, kind: files.length > 0 ? 'file' : 'code', cwd: p.cwd, files, command: null, ...ids };
  }
  if (tool === 'bash') {
    const command = inputString(p.args, 'command');
    if (command === null) return null;
    const dir = inputString(p.args, 'workdir');
    return { agent: AGENT, tool, kind: 'shell', cwd: dir ?? p.cwd, files: [], command, ...ids };
  }
  return null;
}

function event(p: OpenCodePayload): AgentEvent | null {
  if (p.event === 'prompt') {
    // `opencode run "…"` sends the message wrapped in quotes (seen in 1.18.33): the label goes without them.
    const prompt = p.prompt?.replace(/^"([^]*)"$/, '$1');
    return { kind: 'prompt', cwd: p.cwd, ...(p.session === undefined ? {} : { session: p.session }), ...(prompt === undefined ? {} : { prompt }) };
  }
  if (p.event === 'turn_end') return turnEnded(p.cwd, p.session);
  const call = toolCall(p);
  if (call === null) return null;
  if (p.event === 'before') return { kind: 'before', call };
  const intent = p.intent;
  return { kind: 'after', call, outcome: p.exit === undefined || p.exit === 0 ? 'ok' : 'failed', output: p.output ?? '', exitCode: p.exit ?? null, ...(intent === undefined ? {} : { intent: () => Promise.resolve(intent) }) };
}

export const openCodeAdapter: AgentAdapter<OpenCodePayload, OpenCodeOutput> = {
  id: AGENT,
  parse,
  event,
  answers: {
    ask: (text) => ({ deny: `${text}. Do not run it: ask the person to run it themselves if they want it. Do not look for another way to do it.` }),
    refuse: (text) => ({ deny: text }),
    denies: () => true,
    hint: (text) => ({ hint: text }),
  },
};
