// The words `chronoscope hooks install|uninstall|status <agent>` prints that
// are the same for every agent whose hook (or plugin) runs our node command:
// one place for them, so the agents' reports read alike, line for line.
import { existsSync } from 'node:fs';
import type { NodeCli } from './node-command.js';

export type Scope = 'user' | 'project';

/** The scopes status reports on, the user's first: each with the project to look in (null: the user's config). */
export function statusScopes(project: string | null): { project: string | null; scope: Scope }[] {
  return [null, project].map((p) => ({ project: p, scope: p === null ? 'user' : 'project' }));
}

/** `<agent> (<scope>): <state> in <file>`: status's first line for a scope. */
export function scopeLine(agent: string, scope: Scope, state: string, file: string): string {
  return `${agent} (${scope}): ${state} in ${file}`;
}

/** The node and CLI an installed hook names (null where none is installed), and whether both are there to run. */
export function hookTarget(paths: NodeCli | null): { node: string | null; cli: string | null; runnable: boolean } {
  return { node: paths?.node ?? null, cli: paths?.cli ?? null, runnable: paths !== null && existsSync(paths.node) && existsSync(paths.cli) };
}

/** Status's lines for the node and CLI an installed hook names: each path, and whether it exists. */
export function hookTargetLines(paths: NodeCli | null): string[] {
  return [`  node: ${paths?.node ?? '?'} ${paths !== null && existsSync(paths.node) ? '(exists)' : '(MISSING)'}`, `  cli:  ${paths?.cli ?? '?'} ${paths !== null && existsSync(paths.cli) ? '(exists)' : '(MISSING)'}`];
}

/** What to run when what is installed in `scope` cannot run as it is. */
export function installAgain(agent: string, scope: Scope): string {
  return `run 'chronoscope hooks install ${agent}${scope === 'project' ? ' --project' : ''}' again`;
}

/** Install's first lines: the file, the node the hook names and (where there is one) the command it runs. */
export function installedLines(changed: boolean, file: string, node: string, command?: string): string[] {
  return [`${changed ? 'installed' : 'already installed'}: ${file}`, `  node: ${node}`, ...(command === undefined ? [] : [`  runs: ${command}`])];
}

/** Uninstall's line for the file. */
export function removedLine(changed: boolean, file: string): string {
  return `${changed ? 'removed' : 'not installed'}: ${file}`;
}

/** Install --mcp's line: the file and `entry`, where in it the server is. */
export function mcpRegisteredLine(changed: boolean, file: string, entry: string): string {
  return `MCP server ${changed ? 'registered' : 'already registered'}: ${file} ${entry}`;
}

/** Uninstall --mcp's line. */
export function mcpRemovedLine(changed: boolean, file: string): string {
  return `MCP server ${changed ? 'removed' : 'not registered'}: ${file}`;
}
