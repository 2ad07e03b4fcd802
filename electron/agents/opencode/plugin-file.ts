// The OpenCode plugin `hooks install opencode` writes: a small ES module that
// OpenCode loads from its plugin folder and that hands each call to
// `chronoscope hook opencode` (hook.ts) as one JSON object on stdin. It names
// Node and the CLI by absolute path (OpenCode's PATH may have no node), and
// never stops OpenCode: a hook that fails or says nothing lets the call run;
// only a `deny` answer makes it throw, which blocks that one call.
import { hookEnv, type NodeCli } from '../core/node-command.js';
import { OPENCODE_HOOKED_TOOLS } from './hook.js';

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

export const Chronoscope = async ({ directory }) => ({
  'chat.message': async (input, output) => {
    const prompt = (output?.parts ?? []).filter((p) => p.type === 'text' && !p.synthetic).map((p) => p.text).join('\\n');
    if (prompt !== '') await hook({ event: 'prompt', cwd: directory, session: input.sessionID, prompt });
  },
  'tool.execute.before': async (input, output) => {
    if (!TOOLS.has(input.tool)) return;
    const answer = await hook({ event: 'before', cwd: directory, session: input.sessionID, call_id: input.callID, tool: input.tool, args: output?.args ?? {} });
    if (answer !== null && typeof answer.deny === 'string') throw new Error(answer.deny);
  },
  'tool.execute.after': async (input, output) => {
    if (!TOOLS.has(input.tool)) return;
    const exit = output?.metadata?.exit;
    const answer = await hook({ event: 'after', cwd: directory, session: input.sessionID, call_id: input.callID, tool: input.tool, args: input.args ?? {}, output: String(output?.output ?? ''), ...(typeof exit === 'number' ? { exit } : {}) });
    // A failed call: how to see and undo what it did, where the model reads the call's output.
    if (answer !== null && typeof answer.hint === 'string' && output) output.output = \`\${String(output.output ?? '')}\\n\\n\${answer.hint}\`;
  },
});
`;
}
