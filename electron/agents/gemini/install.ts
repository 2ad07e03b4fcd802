// `chronoscope hooks install|uninstall|status gemini`: our hooks in Gemini
// CLI's settings.json (~/.gemini/settings.json; --project: the workspace's
// .gemini/settings.json, which Gemini reads only in trusted folders), under
// `hooks`, in Claude Code's shape with the timeout in milliseconds; with --mcp
// also `mcpServers.chronoscope`. Every other key stays; uninstall gives the
// file back byte for byte (core/config-edit.ts), or takes out only ours.
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { appendHooks, hooksObject, isEmptyJson, jsonConfigText, parseJsonConfig, type Json, type JsonObject } from '../core/json-config.js';
import { installConfigEdit, readConfigText, uninstallConfigEdit } from '../core/config-edit.js';
import { configRoot, type AgentInstaller, type InstallContext, type InstallReport, type McpCommand } from '../core/installer.js';
import { hookTarget, hookTargetLines, installAgain, storeWarning, installedLines, mcpRegisteredLine, removedLine, scopeLine, statusScopes } from '../core/install-report.js';
import { cliPrefix, hookEnvAssignments, parseCliPrefix, type NodeCli } from '../core/node-command.js';
import { AGENT, GEMINI_TOOLS } from './hook.js';

const MARK = 'hook gemini';
const NAME = 'chronoscope';
/** Gemini's limit for our command, in milliseconds; our budget (5 s by default) ends well before. */
const TIMEOUT_MS = 30_000;

export const GEMINI_REGISTRATIONS: readonly { event: string; matcher?: string }[] = [
  { event: 'BeforeTool', matcher: GEMINI_TOOLS.join('|') },
  { event: 'AfterTool', matcher: GEMINI_TOOLS.join('|') },
  { event: 'BeforeAgent' },
  { event: 'AfterAgent' },
];

export function geminiSettingsPath(ctx: Pick<InstallContext, 'home' | 'project'>): string {
  return ctx.project === null ? path.join(ctx.home, '.gemini', 'settings.json') : path.join(ctx.project, '.gemini', 'settings.json');
}

function geminiRoot(ctx: Pick<InstallContext, 'home' | 'project'>) {
  return configRoot(ctx, path.join(ctx.home, '.gemini'), 'Gemini');
}

export function geminiHookCommand(paths: NodeCli): string {
  return `${hookEnvAssignments(paths)}${cliPrefix(paths)} ${MARK}`;
}

function isOurs(hook: Json): boolean {
  return typeof hook === 'object' && hook !== null && !Array.isArray(hook) && typeof hook['command'] === 'string' && hook['command'].includes(MARK);
}

/** The settings with our hooks (and MCP entry) taken out; null when none of ours is there. */
function removeOurs(text: string, file: string): string | null {
  const settings = parseJsonConfig(text, file);
  const hooks = hooksObject(settings, file);
  let found = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept: Json[] = [];
    for (const g of groups) {
      const list = typeof g === 'object' && g !== null && !Array.isArray(g) ? g['hooks'] : undefined;
      if (!Array.isArray(list) || !list.some(isOurs)) {
        kept.push(g);
        continue;
      }
      found = true;
      const rest = list.filter((h) => !isOurs(h));
      if (rest.length > 0) kept.push({ ...(g as JsonObject), hooks: rest });
    }
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (found) {
    if (Object.keys(hooks).length === 0) delete settings['hooks'];
    else settings['hooks'] = hooks;
  }
  const servers = settings['mcpServers'];
  if (typeof servers === 'object' && servers !== null && !Array.isArray(servers) && isOurMcp(servers[NAME])) {
    found = true;
    delete servers[NAME];
    if (Object.keys(servers).length === 0) delete settings['mcpServers'];
  }
  return found ? jsonConfigText(settings, text) : null;
}

function isOurMcp(entry: Json | undefined): boolean {
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry) && Array.isArray(entry['args']) && entry['args'].includes('mcp') && entry['trust'] !== undefined;
}

function addOurs(text: string | null, file: string, command: string, mcp: McpCommand | null): string {
  const settings = parseJsonConfig(text, file);
  appendHooks(
    settings,
    file,
    GEMINI_REGISTRATIONS.map((r) => ({ event: r.event, entry: { ...(r.matcher === undefined ? {} : { matcher: r.matcher }), hooks: [{ type: 'command', name: NAME, command, timeout: TIMEOUT_MS }] } })),
  );
  if (mcp !== null) {
    const servers = settings['mcpServers'] ?? {};
    if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) throw new ChronoscopeError('bad_input', `"mcpServers" in ${file} is not an object; left it untouched`);
    if (servers[NAME] !== undefined) throw new ChronoscopeError('bad_input', `${file} already has an mcpServers.${NAME} of its own; left it untouched`);
    // trust: the server is our own CLI, so its tool calls need no confirmation of their own.
    servers[NAME] = { command: mcp.command, args: mcp.args, trust: true };
    settings['mcpServers'] = servers;
  }
  return jsonConfigText(settings, text);
}

export const geminiInstaller: AgentInstaller = {
  id: AGENT,
  hasProjectScope: true,
  defaultScope: 'user',
  async install(ctx): Promise<InstallReport> {
    const file = geminiSettingsPath(ctx);
    const command = geminiHookCommand(ctx.paths);
    const { changed } = await installConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: geminiRoot(ctx), file, isEmpty: isEmptyJson, remove: (t) => removeOurs(t, file), edit: (t) => addOurs(t, file, command, ctx.mcp) });
    const lines = installedLines(changed, file, ctx.paths.node, command);
    if (ctx.project !== null) lines.push("  Gemini reads a project's .gemini/settings.json only in trusted folders, and asks once before running its hooks");
    if (ctx.mcp) lines.push(mcpRegisteredLine(changed, file, `(mcpServers.${NAME})`));
    return { json: { path: file, changed, command, node: ctx.paths.node, ...(ctx.mcp ? { mcp: { path: file, changed } } : {}) }, lines };
  },
  async uninstall(ctx): Promise<InstallReport> {
    const file = geminiSettingsPath(ctx);
    const { changed } = await uninstallConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: geminiRoot(ctx), file, isEmpty: isEmptyJson, remove: (t) => removeOurs(t, file) });
    return { json: { path: file, changed }, lines: [removedLine(changed, file)] };
  },
  async status(ctx): Promise<InstallReport> {
    const entries = [];
    const lines: string[] = [];
    for (const { project, scope } of statusScopes(ctx.project)) {
      const file = geminiSettingsPath({ home: ctx.home, project });
      const hooks = hooksObject(parseJsonConfig(await readConfigText(file), file), file);
      const events: string[] = [];
      let command: string | null = null;
      for (const [event, groups] of Object.entries(hooks)) {
        if (!Array.isArray(groups)) continue;
        for (const g of groups) {
          const list = typeof g === 'object' && g !== null && !Array.isArray(g) ? g['hooks'] : undefined;
          const ours = Array.isArray(list) ? list.find(isOurs) : undefined;
          if (ours === undefined) continue;
          events.push(event);
          command = String((ours as JsonObject)['command']);
        }
      }
      const paths = command === null ? null : parseCliPrefix(command);
      const target = hookTarget(paths);
      entries.push({ scope, path: file, events, ...target });
      if (events.length === 0) {
        lines.push(scopeLine(AGENT, scope, 'not installed', file));
        continue;
      }
      lines.push(scopeLine(AGENT, scope, 'installed', file), `  events: ${events.join(', ')}`);
      lines.push(...hookTargetLines(paths), ...storeWarning(paths, installAgain(AGENT, scope)));
      if (!target.runnable) lines.push(`  → the hook cannot run as installed; ${installAgain(AGENT, scope)}`);
    }
    return { json: entries, lines };
  },
};
