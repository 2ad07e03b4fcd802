// chronoscope hooks install|uninstall claude-code: our entries in Claude
// Code's settings.json, merged in or taken out, every other hook kept.
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { ChronoscopeError } from '../../../shared/errors.js';
import { workspaceDir } from '../context.js';
import { installClaudeCodeHook, projectSettingsPath, uninstallClaudeCodeHook, userSettingsPath } from '../../hooks/install.js';
import { printJson, printLine } from '../output.js';
import { registerClaudeCodeMcp } from '../../mcp/register.js';

interface HooksOptions {
  mcp?: boolean;
  project?: boolean;
  user?: boolean;
  workspace?: string;
  json?: boolean;
}

const AGENTS = ['claude-code'] as const;

function checkAgent(agent: string): void {
  if (!(AGENTS as readonly string[]).includes(agent)) {
    throw new ChronoscopeError('bad_input', `unknown agent ${JSON.stringify(agent)} (known: ${AGENTS.join(', ')})`);
  }
}

function settingsPath(options: HooksOptions): string {
  if (options.project && options.user) throw new ChronoscopeError('bad_input', 'choose one of --project and --user');
  if (options.user) return userSettingsPath(process.env['HOME'] || homedir());
  return projectSettingsPath(workspaceDir(options));
}

/** Project settings stay inside the workspace; the user's own ~/.claude may be linked anywhere they like. */
function settingsScope(options: HooksOptions): { within?: string } {
  return options.user ? {} : { within: workspaceDir(options) };
}

/** The built CLI this command is part of, so the hook works without a global install. */
function cliPath(): string {
  return fileURLToPath(new URL('../main.js', import.meta.url));
}

function withOptions(command: Command): Command {
  return command
    .option('--project', "the workspace's .claude/settings.json (default)")
    .option('--user', "the user's ~/.claude/settings.json")
    .option('-w, --workspace <dir>', 'the workspace folder for --project (default: the current directory)')
    .option('--json', 'print machine-readable JSON');
}

export function registerHooks(program: Command): void {
  const hooks = program.command('hooks').description("add Chronoscope's hooks to an agent's settings, or take them out");
  withOptions(hooks.command('install').argument('<agent>', 'claude-code').description("merge our PreToolUse/PostToolUse hooks into Claude Code's settings").option('--mcp', "also register the `chronoscope mcp` server (.mcp.json, or ~/.claude.json with --user)")).action(
    async (agent: string, options: HooksOptions) => {
      checkAgent(agent);
      const result = await installClaudeCodeHook(settingsPath(options), cliPath(), settingsScope(options));
      const mcp = options.mcp ? await registerClaudeCodeMcp({ user: options.user === true, home: process.env['HOME'] || homedir(), workspace: workspaceDir(options), cliPath: cliPath() }) : undefined;
      if (options.json) printJson(mcp ? { ...result, mcp } : result);
      else printLine(`${result.changed ? 'installed' : 'already installed'}: ${result.path}\n  runs: ${result.command}${mcp ? `\nMCP server ${mcp.changed ? 'registered' : 'already registered'}: ${mcp.path}` : ''}`);
    },
  );
  withOptions(hooks.command('uninstall').argument('<agent>', 'claude-code').description('remove only our hooks, keeping every other one')).action(
    async (agent: string, options: HooksOptions) => {
      checkAgent(agent);
      const result = await uninstallClaudeCodeHook(settingsPath(options), settingsScope(options));
      if (options.json) printJson(result);
      else printLine(`${result.changed ? 'removed' : 'not installed'}: ${result.path}`);
    },
  );
}
