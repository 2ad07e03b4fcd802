// The OpenCode plugin `hooks install opencode` writes: a small ES module that
// OpenCode loads from its plugin folder and that hands each call to
// `chronoscope hook opencode` (hook.ts) as one JSON object on stdin. It names
// Node and the CLI by absolute path (OpenCode's PATH may have no node), and
// never stops OpenCode: a hook that fails or says nothing lets the call run;
// only a `deny` answer makes it throw, which blocks that one call.
import { hookEnv, type NodeCli } from '../core/node-command.js';
import { OPENCODE_HOOKED_TOOLS } from './hook.js';

/** The words kept per session for the next call's intent (the ledger keeps INTENT_MAX of their end). */
const INTENT_KEEP = 1000;

/** The first line of our plugin: how status and uninstall know the file is ours. */
export const PLUGIN_MARK = '// chronoscope: hands OpenCode tool calls to `chronoscope hook opencode`';

/** The Node, CLI and store a written plugin names (for `hooks status`); null if it is not ours. */
export function openCodePluginPaths(text: string): NodeCli | null {
  if (!text.startsWith(PLUGIN_MARK)) return null;
  try {
    const node = JSON.parse(/^const NODE = (".*");$/m.exec(text)?.[1] ?? 'null') as unknown;
    const cli = JSON.parse(/^const CLI = (".*");$/m.exec(text)?.[1] ?? 'null') as unknown;
    const env = JSON.parse(/^const ENV = (\{.*\});$/m.exec(text)?.[1] ?? '{}') as Record<string, unknown>;
    if (typeof node !== 'string' || typeof cli !== 'string') return null;
    const store = env['CHRONOSCOPE_HOME'];
    return { node, cli, ...(typeof store === 'string' ? { store } : {}) };
  } catch {
    return null;
  }
}

export function openCodePlugin(paths: NodeCli): string {
  return `${PLUGIN_MARK}
// Written by \`chronoscope hooks install opencode\`; \`chronoscope hooks uninstall opencode\` removes it.
import { spawn } from 'node:child_process';

// Only calls that can change files or run a command: a read or a search starts no process.
const TOOLS = new Set(${JSON.stringify(OPENCODE_HOOKED_TOOLS)});
const NODE = ${JSON.stringify(paths.node)};
const CLI = ${JSON.stringify(paths.cli)};
const ENV = ${JSON.stringify(hookEnv(paths))};

function hook(payload) {
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn(NODE, [CLI, 'hook', 'opencode'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...ENV } });
    } catch {
      resolve(null);
      return;
    }
    child.stdout.on('data', (d) => (out += d));
    child.on('error', () => resolve(null));
    child.on('close', () => {
      try {
        resolve(out.trim() === '' ? null : JSON.parse(out));
      } catch {
        resolve(null);
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(payload));
  });
}

// The assistant's intent for a call: its last words in the turn before it. OpenCode keeps its
// sessions in a database we do not open; the plugin sees the words go by (a text part's
// message.part.delta events as it streams, message.part.updated once whole) and keeps only each
// session's last text, cut to INTENT_KEEP, never more.
const INTENT_KEEP = ${INTENT_KEEP};
const said = new Map(); // session id -> { part, text }: the assistant's last text in the current turn
const assistantMessages = new Map(); // recent assistant message ids (a prompt's own text parts are not intent)
const intents = new Map(); // call id -> the words said before it started

function heard(event) {
  const props = event?.properties ?? {};
  if (event?.type === 'message.updated' && props.info?.role === 'assistant') {
    assistantMessages.set(props.info.id, true);
    if (assistantMessages.size > 256) assistantMessages.delete(assistantMessages.keys().next().value);
  }
  if (event?.type === 'message.part.delta' && props.field === 'text' && typeof props.delta === 'string' && assistantMessages.has(props.messageID)) {
    const before = said.get(props.sessionID);
    const text = before?.part === props.partID ? before.text + props.delta : props.delta;
    said.set(props.sessionID, { part: props.partID, text: text.slice(-INTENT_KEEP) });
  }
  const part = props.part;
  if (event?.type !== 'message.part.updated' || part?.type !== 'text' || part.synthetic || !assistantMessages.has(part.messageID)) return;
  if (typeof part.text === 'string' && part.text.trim() !== '') said.set(part.sessionID, { part: part.id, text: part.text.slice(-INTENT_KEEP) });
}

// Sessions whose current turn made a call we hand over: at its end (session.idle) the hook takes what
// the last shell call left unchecked; a turn that only read or talked starts no process.
const calledInTurn = new Set();

export const Chronoscope = async ({ directory }) => ({
  event: async ({ event }) => {
    heard(event);
    const session = event?.properties?.sessionID;
    if (event?.type === 'session.idle' && calledInTurn.delete(session)) await hook({ event: 'turn_end', cwd: directory, session });
  },
  'chat.message': async (input, output) => {
    said.delete(input.sessionID); // a new turn: earlier words are not its calls' intent
    const prompt = (output?.parts ?? []).filter((p) => p.type === 'text' && !p.synthetic).map((p) => p.text).join('\\n');
    if (prompt !== '') await hook({ event: 'prompt', cwd: directory, session: input.sessionID, prompt });
  },
  'tool.execute.before': async (input, output) => {
    if (!TOOLS.has(input.tool)) return;
    calledInTurn.add(input.sessionID);
    const words = said.get(input.sessionID)?.text.trim();
    if (words) intents.set(input.callID, words);
    const answer = await hook({ event: 'before', cwd: directory, session: input.sessionID, call_id: input.callID, tool: input.tool, args: output?.args ?? {} });
    if (answer !== null && typeof answer.deny === 'string') {
      intents.delete(input.callID);
      throw new Error(answer.deny);
    }
  },
  'tool.execute.after': async (input, output) => {
    if (!TOOLS.has(input.tool)) return;
    const exit = output?.metadata?.exit;
    const intent = intents.get(input.callID);
    intents.delete(input.callID);
    const answer = await hook({ event: 'after', cwd: directory, session: input.sessionID, call_id: input.callID, tool: input.tool, args: input.args ?? {}, output: String(output?.output ?? ''), ...(typeof exit === 'number' ? { exit } : {}), ...(intent === undefined ? {} : { intent }) });
    // A failed call: how to see and undo what it did, where the model reads the call's output.
    if (answer !== null && typeof answer.hint === 'string' && output) output.output = \`\${String(output.output ?? '')}\\n\\n\${answer.hint}\`;
  },
});
`;
}
