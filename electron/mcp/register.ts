// Registering `chronoscope mcp` with Claude Code (`hooks install claude-code
// --mcp`): the project's `.mcp.json`, or with --user the `mcpServers` of
// `~/.claude.json` (the files `claude mcp add` writes). Only our entry is
// added or replaced; every other key and server is left as it was, and the
// file is written through a temporary file and a rename.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ChronoscopeError } from '../../shared/errors.js';
import { writeFileAtomic } from '../fs/atomic-file.js';

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

interface McpConfig {
  /** The file as it was ('' or null: empty or absent). */
  before: string | null;
  config: Record<string, unknown>;
  servers: Record<string, unknown>;
}

/** The config file read and checked; anything that is not ours to judge is refused and left untouched. */
async function readMcpConfig(configPath: string): Promise<McpConfig> {
  let before: string | null = null;
  let config: Record<string, unknown> = {};
  try {
    before = await readFile(configPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new ChronoscopeError('internal', `cannot read ${configPath}: ${(err as Error).message}`);
  }
  if (before !== null && before.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(before);
    } catch (err) {
      throw new ChronoscopeError('bad_input', `${configPath} is not valid JSON (${(err as Error).message}); left it untouched`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new ChronoscopeError('bad_input', `${configPath} does not hold a JSON object; left it untouched`);
    config = parsed as Record<string, unknown>;
  }
  const servers = config['mcpServers'] ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) throw new ChronoscopeError('bad_input', `"mcpServers" in ${configPath} is not an object; left it untouched`);
  return { before, config, servers: servers as Record<string, unknown> };
}

async function writeMcpConfig(configPath: string, before: string | null, next: Record<string, unknown>): Promise<{ path: string; changed: boolean }> {
  const text = `${JSON.stringify(next, null, 2)}\n`;
  if (text === before) return { path: configPath, changed: false };
  await writeFileAtomic(configPath, text, { createDir: true });
  return { path: configPath, changed: true };
}

export async function registerMcpServer(configPath: string, entry: McpServerEntry): Promise<{ path: string; changed: boolean }> {
  const { before, config, servers } = await readMcpConfig(configPath);
  return writeMcpConfig(configPath, before, { ...config, mcpServers: { ...servers, [MCP_SERVER_NAME]: entry } });
}

/** Takes out only our entry (an `mcpServers` left empty stays, as the person may have made it). */
export async function unregisterMcpServer(configPath: string): Promise<{ path: string; changed: boolean }> {
  const { before, config, servers } = await readMcpConfig(configPath);
  if (before === null || !Object.hasOwn(servers, MCP_SERVER_NAME)) return { path: configPath, changed: false };
  const { [MCP_SERVER_NAME]: _ours, ...others } = servers;
  void _ours;
  return writeMcpConfig(configPath, before, { ...config, mcpServers: others });
}

/** What `hooks install claude-code --mcp` calls: the scope follows --user / --project like the hooks. */
export async function registerClaudeCodeMcp(options: { user: boolean; home: string; workspace: string; cliPath: string }): Promise<{ path: string; changed: boolean }> {
  return options.user
    ? registerMcpServer(userMcpConfigPath(options.home), mcpServerEntry(options.cliPath))
    : registerMcpServer(projectMcpConfigPath(options.workspace), mcpServerEntry(options.cliPath, options.workspace));
}

/** What `hooks uninstall claude-code --mcp` calls: the same scope as the install. */
export async function unregisterClaudeCodeMcp(options: { user: boolean; home: string; workspace: string }): Promise<{ path: string; changed: boolean }> {
  return unregisterMcpServer(options.user ? userMcpConfigPath(options.home) : projectMcpConfigPath(options.workspace));
}
