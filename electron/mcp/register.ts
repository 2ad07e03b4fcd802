// Registering `chronoscope mcp` with Claude Code (`hooks install claude-code
// --mcp`): the project's `.mcp.json`, or with --user the `mcpServers` of
// `~/.claude.json` (the files `claude mcp add` writes). Only our entry is
// added or replaced; every other key and server is left as it was. The file
// is edited through agents/core/config-edit.ts: the guarded write, and an
// uninstall that gives it back byte for byte, or — when Claude Code has
// rewritten it since, as it does ~/.claude.json — takes out our entry and the
// `mcpServers` key too when install added it.
import { join } from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import type { ContainingRoot } from '../fs/contained-write.js';
import { installConfigEdit, uninstallConfigEdit } from '../agents/core/config-edit.js';
import { isEmptyJson, jsonConfigText, parseJsonConfig, type Json, type JsonObject } from '../agents/core/json-config.js';

export const MCP_SERVER_NAME = 'chronoscope';

export interface McpServerEntry {
  type: 'stdio';
  command: string;
  args: string[];
}

export function projectMcpConfigPath(workspace: string): string {
  return join(workspace, '.mcp.json');
}

export function userMcpConfigPath(home: string): string {
  return join(home, '.claude.json');
}

/** node + the built CLI's absolute path; a project entry names its workspace, a user entry serves the folder Claude Code starts it in. */
export function mcpServerEntry(cliPath: string, workspace?: string): McpServerEntry {
  return { type: 'stdio', command: 'node', args: [cliPath, 'mcp', ...(workspace !== undefined ? ['--workspace', workspace] : [])] };
}

function serversOf(config: JsonObject, configPath: string): JsonObject | undefined {
  const servers = config['mcpServers'];
  if (servers === undefined) return undefined;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) throw new ChronoscopeError('bad_input', `"mcpServers" in ${configPath} is not an object; left it untouched`);
  return servers;
}

/** The config text with our server in (input: the text without it, or null for no file). */
function withServer(text: string | null, configPath: string, entry: McpServerEntry): string {
  const config = parseJsonConfig(text, configPath);
  config['mcpServers'] = { ...(serversOf(config, configPath) ?? {}), [MCP_SERVER_NAME]: entry as unknown as Json };
  return jsonConfigText(config, text);
}

/**
 * The config text without our server; null when it is not there. An `mcpServers` left empty goes
 * when the file before install had none (`original`); kept when we cannot tell, as the person may have made it.
 */
function withoutServer(text: string, configPath: string, original: string | null | undefined): string | null {
  const config = parseJsonConfig(text, configPath);
  const servers = serversOf(config, configPath);
  if (servers === undefined || !Object.hasOwn(servers, MCP_SERVER_NAME)) return null;
  delete servers[MCP_SERVER_NAME];
  const hadServers = original === undefined || (original !== null && serversOf(parseJsonConfig(original, configPath), configPath) !== undefined);
  if (Object.keys(servers).length === 0 && !hadServers) delete config['mcpServers'];
  return jsonConfigText(config, text);
}

interface McpTarget {
  root: ContainingRoot;
  file: string;
  storeHome: string;
}

function mcpTarget(options: { user: boolean; home: string; workspace: string; storeHome: string }): McpTarget {
  return options.user
    ? { root: { dir: options.home, label: 'your home folder' }, file: userMcpConfigPath(options.home), storeHome: options.storeHome }
    : { root: { dir: options.workspace, label: 'the workspace' }, file: projectMcpConfigPath(options.workspace), storeHome: options.storeHome };
}

/** What `hooks install claude-code --mcp` calls: the scope follows --user / --project like the hooks. */
export async function registerClaudeCodeMcp(options: { user: boolean; home: string; workspace: string; cliPath: string; storeHome: string }): Promise<{ path: string; changed: boolean }> {
  const t = mcpTarget(options);
  const entry = options.user ? mcpServerEntry(options.cliPath) : mcpServerEntry(options.cliPath, options.workspace);
  const { changed } = await installConfigEdit({ ...t, agent: 'claude-code-mcp', isEmpty: isEmptyJson, remove: (text, original) => withoutServer(text, t.file, original), edit: (text) => withServer(text, t.file, entry) });
  return { path: t.file, changed };
}

/** What `hooks uninstall claude-code --mcp` calls: the same scope as the install. */
export async function unregisterClaudeCodeMcp(options: { user: boolean; home: string; workspace: string; storeHome: string }): Promise<{ path: string; changed: boolean }> {
  const t = mcpTarget(options);
  const { changed } = await uninstallConfigEdit({ ...t, agent: 'claude-code-mcp', isEmpty: isEmptyJson, remove: (text, original) => withoutServer(text, t.file, original) });
  return { path: t.file, changed };
}
