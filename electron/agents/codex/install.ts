// `chronoscope hooks install|uninstall|status codex`: our hooks in Codex's
// config.toml (~/.codex/config.toml, $CODEX_HOME moves it; --project: the
// workspace's .codex/config.toml, which Codex reads only in trusted projects).
//
// The TOML is edited surgically, not re-serialised: one block between two
// marker comments, appended at the end, holds our [[hooks.…]] tables, their
// [hooks.state."<file>:<event>:<i>:<j>"] trusted_hash entries (Codex runs only
// hooks it trusts, and skips the others silently), and with --mcp our
// [mcp_servers.chronoscope]. Every other byte — comments, order, spacing —
// stays as the person wrote it, so no TOML library is needed (none in the
// project keeps formatting on a round trip). Uninstall gives the file back
// byte for byte (core/config-edit.ts), or cuts out just the block.
//
// The trust hash is Codex's own (codex-rs hooks, 0.171): "sha256:" + hex
// SHA-256 of the compact JSON, keys sorted, of the hook's identity
// {event_name, hooks: [{async: false, command, timeout, type: "command"}], matcher}.
// `hooks status codex` checks it against `codex app-server`'s hooks/list when
// a codex binary is found, else by recomputing it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { installConfigEdit, readConfigText, uninstallConfigEdit } from '../core/config-edit.js';
import { configRoot, type AgentInstaller, type InstallContext, type InstallReport, type McpCommand } from '../core/installer.js';
import { hookTarget, hookTargetLines, installAgain, storeWarning, installedLines, mcpRegisteredLine, removedLine, scopeLine, statusScopes } from '../core/install-report.js';
import { cliPrefix, hookEnvAssignments, parseCliPrefix, type NodeCli } from '../core/node-command.js';
import { AGENT } from './hook.js';

const BEGIN = "# >>> chronoscope: added by 'chronoscope hooks install codex'; 'chronoscope hooks uninstall codex' takes it out >>>";
const END = '# <<< chronoscope <<<';
/** Codex's limit for our command, in seconds; our budget (5 s by default) ends well before. */
const TIMEOUT_S = 30;

/** Our registrations: Codex event, its key in hooks.state, and the matcher (none: every turn). */
export const CODEX_REGISTRATIONS: readonly { event: string; key: string; matcher?: string }[] = [
  { event: 'PreToolUse', key: 'pre_tool_use', matcher: 'Bash|apply_patch' },
  { event: 'PostToolUse', key: 'post_tool_use', matcher: 'Bash|apply_patch' },
  { event: 'UserPromptSubmit', key: 'user_prompt_submit' },
  { event: 'Stop', key: 'stop' },
];

export function codexHome(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['CODEX_HOME'];
  return fromEnv ? path.resolve(fromEnv) : path.join(home, '.codex');
}

export function codexConfigPath(ctx: Pick<InstallContext, 'home' | 'project'>): string {
  return ctx.project === null ? path.join(codexHome(ctx.home), 'config.toml') : path.join(ctx.project, '.codex', 'config.toml');
}

function codexRoot(ctx: Pick<InstallContext, 'home' | 'project'>) {
  return configRoot(ctx, codexHome(ctx.home), 'Codex');
}

export function codexHookCommand(paths: NodeCli): string {
  return `${hookEnvAssignments(paths)}${cliPrefix(paths)} hook codex`;
}

/** Codex's trust hash of one command hook (see the file's head). */
export function codexTrustHash(eventKey: string, command: string, timeout: number, matcher: string | undefined): string {
  const identity = { event_name: eventKey, hooks: [{ async: false, command, timeout, type: 'command' }], ...(matcher === undefined ? {} : { matcher }) };
  return `sha256:${createHash('sha256').update(JSON.stringify(identity)).digest('hex')}`;
}

/** A TOML basic string (JSON's escapes are TOML's for the characters a path or command holds). */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** How many [[hooks.<Event>]] groups the text already has (ours go after them: their index is in the trust key). */
function groupsBefore(text: string, event: string): number {
  const inline = new RegExp(`^\\s*(?:hooks\\.)?${event}\\s*=`, 'm');
  if (inline.test(text)) throw new ChronoscopeError('bad_input', `the Codex config defines ${event} hooks as an inline list; add ours by hand or move yours to [[hooks.${event}]] tables; left it untouched`);
  return (text.match(new RegExp(`^\\s*\\[\\[\\s*hooks\\.${event}\\s*\\]\\]`, 'gm')) ?? []).length;
}

function block(file: string, text: string, command: string, mcp: McpCommand | null): string {
  const lines = [BEGIN];
  const state: string[] = [];
  for (const r of CODEX_REGISTRATIONS) {
    const index = groupsBefore(text, r.event);
    lines.push(`[[hooks.${r.event}]]`);
    if (r.matcher !== undefined) lines.push(`matcher = ${tomlString(r.matcher)}`);
    lines.push(`[[hooks.${r.event}.hooks]]`, 'type = "command"', `command = ${tomlString(command)}`, `timeout = ${TIMEOUT_S}`, '');
    state.push(`[hooks.state.${tomlString(`${file}:${r.key}:${index}:0`)}]`, `trusted_hash = ${tomlString(codexTrustHash(r.key, command, TIMEOUT_S, r.matcher))}`, '');
  }
  lines.push(...state);
  if (mcp !== null) lines.push('[mcp_servers.chronoscope]', `command = ${tomlString(mcp.command)}`, `args = [${mcp.args.map(tomlString).join(', ')}]`, '');
  while (lines[lines.length - 1] === '') lines.pop();
  lines.push(END, '');
  return lines.join('\n');
}

/** The text with our block cut out (and the newline install put before it); null: no block. */
export function withoutBlock(text: string): string | null {
  const start = text.indexOf(`${BEGIN}\n`);
  if (start === -1 || (start > 0 && text[start - 1] !== '\n')) return null;
  const end = text.indexOf(`\n${END}`, start);
  if (end === -1) return null;
  let stop = end + END.length + 1;
  if (text[stop] === '\n') stop += 1;
  // Install separates the block by a blank line: that goes too.
  const cut = start >= 2 && text.slice(start - 2, start) === '\n\n' ? start - 1 : start;
  return text.slice(0, cut) + text.slice(stop);
}

function withBlock(text: string | null, file: string, command: string, mcp: McpCommand | null): string {
  const base = text ?? '';
  if (mcp !== null && /^\s*\[\s*mcp_servers\.chronoscope\s*\]/m.test(base)) throw new ChronoscopeError('bad_input', `${file} already has an [mcp_servers.chronoscope] of its own; left it untouched`);
  const sep = base === '' ? '' : base.endsWith('\n\n') ? '' : base.endsWith('\n') ? '\n' : '\n\n';
  return `${base}${sep}${block(file, base, command, mcp)}`;
}

export interface CodexHookState {
  event: string;
  key: string;
  command: string;
  trusted: boolean;
}

/** Our hooks in the file as Codex would key them, and whether each has a matching trusted_hash. */
export function ourCodexHooks(text: string, file: string): CodexHookState[] {
  const start = text.indexOf(BEGIN);
  if (start === -1) return [];
  const body = text.slice(start, text.indexOf(END, start) === -1 ? undefined : text.indexOf(END, start));
  const before = text.slice(0, start);
  const commandMatch = /^command = (".*")$/m.exec(body);
  if (commandMatch === null) return [];
  const command = JSON.parse(commandMatch[1] ?? '""') as string;
  return CODEX_REGISTRATIONS.map((r) => {
    const key = `${file}:${r.key}:${(before.match(new RegExp(`^\\s*\\[\\[\\s*hooks\\.${r.event}\\s*\\]\\]`, 'gm')) ?? []).length}:0`;
    const hash = codexTrustHash(r.key, command, TIMEOUT_S, r.matcher);
    const trusted = body.includes(`[hooks.state.${tomlString(key)}]\ntrusted_hash = ${tomlString(hash)}`);
    return { event: r.event, key, command, trusted };
  });
}

export const codexInstaller: AgentInstaller = {
  id: AGENT,
  hasProjectScope: true,
  defaultScope: 'user',
  async install(ctx): Promise<InstallReport> {
    const file = codexConfigPath(ctx);
    const command = codexHookCommand(ctx.paths);
    const { changed } = await installConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: codexRoot(ctx), file, remove: withoutBlock, edit: (text) => withBlock(text, file, command, ctx.mcp) });
    const json = { path: file, changed, command, node: ctx.paths.node, trusted: true, ...(ctx.mcp ? { mcp: { path: file, changed } } : {}) };
    const lines = [...installedLines(changed, file, ctx.paths.node, command), '  trusted: yes (hooks.state entries written beside them)'];
    if (ctx.project !== null) lines.push(`  Codex reads a project's .codex/config.toml only when the project is trusted ([projects."${ctx.project}"] trust_level = "trusted" in ~/.codex/config.toml)`);
    if (ctx.mcp) lines.push(mcpRegisteredLine(changed, file, '[mcp_servers.chronoscope]'));
    return { json, lines };
  },
  async uninstall(ctx): Promise<InstallReport> {
    const file = codexConfigPath(ctx);
    const { changed } = await uninstallConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: codexRoot(ctx), file, remove: withoutBlock });
    return { json: { path: file, changed }, lines: [removedLine(changed, file)] };
  },
  async status(ctx): Promise<InstallReport> {
    const entries = [];
    const lines: string[] = [];
    for (const { project, scope } of statusScopes(ctx.project)) {
      const file = codexConfigPath({ home: ctx.home, project });
      const text = await readConfigText(file);
      const hooks = text === null ? [] : ourCodexHooks(text, file);
      const paths = hooks[0] === undefined ? null : parseCliPrefix(hooks[0].command);
      const target = hookTarget(paths);
      const willRun = hooks.length > 0 && hooks.every((h) => h.trusted) && target.runnable;
      entries.push({ scope, path: file, hooks, ...target, will_run: willRun });
      if (hooks.length === 0) {
        lines.push(scopeLine(AGENT, scope, 'not installed', file));
        continue;
      }
      lines.push(scopeLine(AGENT, scope, 'installed', file), `  events: ${hooks.map((h) => `${h.event}${h.trusted ? '' : ' (NOT trusted)'}`).join(', ')}`);
      lines.push(...hookTargetLines(paths), ...storeWarning(paths, installAgain(AGENT, scope)));
      lines.push(willRun ? '  Codex will run them (each hook has its trusted_hash)' : `  → Codex will NOT run them as they are: ${installAgain(AGENT, scope)}`);
    }
    return { json: entries, lines };
  },
};
