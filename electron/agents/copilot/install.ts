// `chronoscope hooks install|uninstall|status copilot`: our hooks in GitHub
// Copilot CLI's user settings ($COPILOT_HOME/settings.json, by default
// ~/.copilot/settings.json), under `hooks`, one entry per PascalCase event
// (those get Claude-style payloads: hook.ts). Every other key stays; uninstall
// gives the file back byte for byte (core/config-edit.ts), or takes out only
// ours. --project: the workspace's .github/hooks/chronoscope.json, a file of
// our own, which Copilot reads only in folders the person trusts (it asks the
// first time it runs there; `trusted_folders` in its config.json). With --mcp,
// also our server in $COPILOT_HOME/mcp-config.json (user level either way), in
// the shape `copilot mcp add` writes.
import { readFileSync } from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import type { ContainingRoot } from '../../fs/contained-write.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { installConfigEdit, readConfigText, uninstallConfigEdit } from '../core/config-edit.js';
import { configRoot, type AgentInstaller, type InstallContext, type InstallReport, type McpCommand } from '../core/installer.js';
import { hookTarget, hookTargetLines, installAgain, storeWarning, installedLines, mcpRegisteredLine, mcpRemovedLine, removedLine, scopeLine, statusScopes } from '../core/install-report.js';
import { appendHooks, hooksObject, isEmptyJson, isJsonObject, jsonConfigText, parseJsonConfig, type Json, type JsonObject } from '../core/json-config.js';
import { cliPrefix, hookEnvAssignments, parseCliPrefix, type NodeCli } from '../core/node-command.js';
import { AGENT, COPILOT_EVENTS } from './hook.js';
import { copilotHome } from './home.js';

const MARK = 'hook copilot';
/** Copilot's limit for our command, in seconds; our budget (5 s by default) ends well before. */
const TIMEOUT_S = 30;

export function copilotSettingsPath(home: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(copilotHome(home, env), 'settings.json');
}

/** Where our hooks go: the user's settings.json, or the project's own hooks file. */
export function copilotHooksPath(ctx: Pick<InstallContext, 'home' | 'project'>): string {
  return ctx.project === null ? copilotSettingsPath(ctx.home) : path.join(ctx.project, '.github', 'hooks', 'chronoscope.json');
}

/** Whether Copilot trusts `folder` (its config.json's trusted_folders, a folder or one above it); null: cannot tell. */
function copilotTrusts(home: string, folder: string): boolean | null {
  let text: string;
  try {
    text = readFileSync(path.join(copilotHome(home), 'config.json'), 'utf8');
  } catch {
    return false;
  }
  // Copilot writes comment lines at the top of this file.
  const config = parseJsonc(text) as { trusted_folders?: unknown } | undefined;
  if (config === undefined || config === null || typeof config !== 'object') return null;
  const trusted = Array.isArray(config.trusted_folders) ? config.trusted_folders.filter((f): f is string => typeof f === 'string') : [];
  return trusted.some((t) => folder === t || folder.startsWith(`${t.replace(/\/$/, '')}/`));
}

function copilotRoot(ctx: Pick<InstallContext, 'home' | 'project'>): ContainingRoot {
  return configRoot(ctx, copilotHome(ctx.home), 'Copilot');
}

export function copilotMcpPath(home: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(copilotHome(home, env), 'mcp-config.json');
}

const MCP_NAME = 'chronoscope';

function isOurMcp(entry: Json | undefined): boolean {
  return isJsonObject(entry) && Array.isArray(entry['args']) && entry['args'].includes('mcp') && entry['type'] === 'local';
}

/** mcp-config.json without our server; null when it is not there. */
function removeOurMcp(text: string, file: string): string | null {
  const config = parseJsonConfig(text, file);
  const servers = config['mcpServers'];
  if (!isJsonObject(servers) || !isOurMcp(servers[MCP_NAME])) return null;
  delete servers[MCP_NAME];
  return jsonConfigText(config, text);
}

function addOurMcp(text: string | null, file: string, mcp: McpCommand): string {
  const config = parseJsonConfig(text, file);
  const servers = config['mcpServers'] ?? {};
  if (!isJsonObject(servers)) throw new ChronoscopeError('bad_input', `"mcpServers" in ${file} is not an object; left it untouched`);
  if (servers[MCP_NAME] !== undefined) throw new ChronoscopeError('bad_input', `${file} already has an mcpServers.${MCP_NAME} of its own; left it untouched`);
  servers[MCP_NAME] = { tools: ['*'], type: 'local', command: mcp.command, args: mcp.args };
  config['mcpServers'] = servers;
  return jsonConfigText(config, text);
}

export function copilotHookCommand(paths: NodeCli): string {
  return `${hookEnvAssignments(paths)}${cliPrefix(paths)} ${MARK}`;
}

function isOurs(hook: Json): boolean {
  return isJsonObject(hook) && [hook['bash'], hook['command']].some((c) => typeof c === 'string' && c.includes(MARK));
}

/** The settings with our hooks taken out; null when none of ours is there. */
function removeOurs(text: string, file: string): string | null {
  const settings = parseJsonConfig(text, file);
  const hooks = hooksObject(settings, file);
  let found = false;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list) || !list.some(isOurs)) continue;
    found = true;
    const rest = list.filter((h) => !isOurs(h));
    if (rest.length === 0) delete hooks[event];
    else hooks[event] = rest;
  }
  if (!found) return null;
  if (Object.keys(hooks).length === 0) delete settings['hooks'];
  else settings['hooks'] = hooks;
  return jsonConfigText(settings, text);
}

/** A hooks file with nothing left in it: no keys, or only the `version` a project file carries. */
function isEmptyHooksFile(text: string): boolean {
  if (isEmptyJson(text)) return true;
  try {
    const v = JSON.parse(text) as unknown;
    return isJsonObject(v as Json) && Object.keys(v as JsonObject).every((k) => k === 'version');
  } catch {
    return false;
  }
}

function addOurs(text: string | null, file: string, command: string, project: boolean): string {
  // A project hooks file is ours alone and carries the format's version.
  const settings = text === null && project ? { version: 1 } : parseJsonConfig(text, file);
  // `bash` is what Copilot runs on Linux and macOS; `command` the same for its other readers.
  appendHooks(settings, file, COPILOT_EVENTS.map((event) => ({ event, entry: { type: 'command', bash: command, command, timeoutSec: TIMEOUT_S } })));
  return jsonConfigText(settings, text);
}

export const copilotInstaller: AgentInstaller = {
  id: AGENT,
  hasProjectScope: true,
  defaultScope: 'user',
  async install(ctx): Promise<InstallReport> {
    const file = copilotHooksPath(ctx);
    const command = copilotHookCommand(ctx.paths);
    const { mcp } = ctx;
    const mcpFile = copilotMcpPath(ctx.home);
    // The MCP file first: a file there that we must leave untouched refuses before any hook is written.
    const mcpChanged = mcp === null ? null : (await installConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: copilotRoot({ ...ctx, project: null }), file: mcpFile, isEmpty: isEmptyJson, remove: (t) => removeOurMcp(t, mcpFile), edit: (t) => addOurMcp(t, mcpFile, mcp) })).changed;
    const { changed } = await installConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: copilotRoot(ctx), file, isEmpty: isEmptyHooksFile, remove: (t) => removeOurs(t, file), edit: (t) => addOurs(t, file, command, ctx.project !== null) });
    const lines = installedLines(changed, file, ctx.paths.node, command);
    if (ctx.project !== null && copilotTrusts(ctx.home, ctx.project) !== true) lines.push('  Copilot runs a project\'s hooks only in folders you trust: it asks the first time you run it here');
    if (mcpChanged !== null) lines.push(mcpRegisteredLine(mcpChanged, mcpFile, `(mcpServers.${MCP_NAME})`));
    return { json: { path: file, changed, command, node: ctx.paths.node, ...(mcpChanged === null ? {} : { mcp: { path: mcpFile, changed: mcpChanged } }) }, lines };
  },
  async uninstall(ctx): Promise<InstallReport> {
    const file = copilotHooksPath(ctx);
    const { changed } = await uninstallConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: copilotRoot(ctx), file, isEmpty: isEmptyHooksFile, remove: (t) => removeOurs(t, file) });
    const lines = [removedLine(changed, file)];
    if (ctx.mcp !== null) {
      const mcpFile = copilotMcpPath(ctx.home);
      const r = await uninstallConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: copilotRoot({ ...ctx, project: null }), file: mcpFile, isEmpty: isEmptyJson, remove: (t) => removeOurMcp(t, mcpFile) });
      lines.push(mcpRemovedLine(r.changed, mcpFile));
    }
    return { json: { path: file, changed }, lines };
  },
  async status(ctx): Promise<InstallReport> {
    const json = [];
    const lines: string[] = [];
    for (const { project, scope } of statusScopes(ctx.project)) {
      const file = copilotHooksPath({ home: ctx.home, project });
      const hooks = hooksObject(parseJsonConfig(await readConfigText(file), file), file);
      const events: string[] = [];
      let command: string | null = null;
      for (const [event, list] of Object.entries(hooks)) {
        const ours = Array.isArray(list) ? list.find(isOurs) : undefined;
        if (ours === undefined) continue;
        events.push(event);
        const o = ours as JsonObject;
        command = String(o['bash'] ?? o['command']);
      }
      const paths = command === null ? null : parseCliPrefix(command);
      const target = hookTarget(paths);
      const trusted = project === null ? null : copilotTrusts(ctx.home, project);
      json.push({ scope, path: file, events, ...target, ...(project === null ? {} : { trusted }) });
      if (events.length === 0) {
        lines.push(scopeLine(AGENT, scope, 'not installed', file));
        continue;
      }
      lines.push(scopeLine(AGENT, scope, 'installed', file), `  events: ${events.join(', ')}`);
      lines.push(...hookTargetLines(paths), ...storeWarning(paths, installAgain(AGENT, scope)));
      if (project !== null) lines.push(trusted === true ? '  Copilot trusts this folder: it runs these hooks' : "  Copilot does not trust this folder yet: it asks the first time you run it here, and runs these hooks only once you trust it");
      if (!target.runnable) lines.push(`  → the hook cannot run as installed; ${installAgain(AGENT, scope)}`);
    }
    return { json, lines };
  },
};
