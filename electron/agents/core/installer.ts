// How `chronoscope hooks install|uninstall|status <agent>` reaches an agent's
// config: one installer per agent, beside its hook adapter (adapter.ts). An
// installer writes only Chronoscope's entries into the agent's config, keeping
// every other byte it can (documents edited in place, comments and order kept),
// and uninstall gives the file back as it was before install.
import type { ContainingRoot } from '../../fs/contained-write.js';
import type { NodeCli } from './node-command.js';

/** The `chronoscope mcp` server as an agent's config names it (built by the CLI, which owns MCP). */
export interface McpCommand {
  command: string;
  args: string[];
}

export interface InstallContext {
  /** The person's home folder ($HOME): where user-level configs live. */
  home: string;
  /** --project: the workspace whose project-level config to use; null: the user's config. */
  project: string | null;
  /** The Node binary and built CLI the hook command names (absolute: agents start hooks with a PATH of their own). */
  paths: NodeCli;
  /** --mcp: register (or, on uninstall, remove) this MCP server too; null: leave MCP alone. */
  mcp: McpCommand | null;
}

/** What a command prints: JSON for --json, lines for a person. */
export interface InstallReport {
  json: unknown;
  lines: string[];
}

export interface AgentInstaller {
  /** The agent's id (as in `chronoscope hook <id>` and the `agent` field). */
  readonly id: string;
  /** Where the agent keeps hooks at the project level; false: user level only (--project is refused). */
  readonly hasProjectScope: boolean;
  /** The scope used without --project/--user (Claude Code: the project; the others: the user). */
  readonly defaultScope: 'project' | 'user';
  install(ctx: InstallContext): Promise<InstallReport>;
  uninstall(ctx: InstallContext): Promise<InstallReport>;
  /** Both scopes where there are two (ctx.project is the workspace to look in). */
  status(ctx: InstallContext): Promise<InstallReport>;
}

/**
 * The folder an install's writes must stay inside: the workspace with --project, else the agent's
 * own config folder (`userDir`). A link out of it is refused (fs/contained-write.ts).
 */
export function configRoot(ctx: Pick<InstallContext, 'project'>, userDir: string, agentName: string): ContainingRoot {
  return ctx.project !== null ? { dir: ctx.project, label: 'the workspace' } : { dir: userDir, label: `${agentName}'s config folder` };
}
