// The words `chronoscope hooks install|uninstall|status <agent>` prints that
// are the same for every agent whose hook (or plugin) runs our node command:
// one place for them, so the agents' reports read alike, line for line.
import { existsSync } from 'node:fs';
import { defaultStoreHome } from '../../engine/layout/paths.js';
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

/**
 * The store an installed hook writes to: the CHRONOSCOPE_HOME written into it, else the default one
 * (as an agent without the variable finds it); null where none is installed.
 */
export function hookStore(paths: NodeCli | null): string | null {
  if (paths === null) return null;
  return paths.store ?? defaultStoreHome({ ...process.env, CHRONOSCOPE_HOME: undefined });
}

/** The node and CLI an installed hook names (null where none is installed), whether both are there to run, and its store. */
export function hookTarget(paths: NodeCli | null): { node: string | null; cli: string | null; runnable: boolean; store: string | null; same_store: boolean | null } {
  const store = hookStore(paths);
  return { node: paths?.node ?? null, cli: paths?.cli ?? null, runnable: paths !== null && existsSync(paths.node) && existsSync(paths.cli), store, same_store: store === null ? null : store === defaultStoreHome() };
}

/**
 * Status's warning when an installed hook writes to another store than this CLI uses now (its
 * checkpoints would not show here, and a second service would run there); none when they agree.
 * `again`: the command that installs it for this CLI's store.
 */
export function storeWarning(paths: NodeCli | null, again: string): string[] {
  const store = hookStore(paths);
  const current = defaultStoreHome();
  if (store === null || store === current) return [];
  const names = paths?.store !== undefined ? `writes to the store ${store}` : `names no store, so it writes to the default one, ${store}`;
  return [`  → this hook ${names}, but this CLI uses ${current}: its checkpoints will not show here; ${again} with CHRONOSCOPE_HOME as it is now`];
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
