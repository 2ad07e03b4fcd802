// chronoscope hooks install|uninstall|status <agent>: our entries in an
// agent's settings, merged in or taken out, every other setting kept; and
// what is installed where, and whether it still points at existing files.
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ChronoscopeError } from '../../../shared/errors.js';
import { workspaceDir } from '../context.js';
import {
  installClaudeCodeHook,
  installedClaudeCodeHooks,
  projectSettingsPath,
  uninstallClaudeCodeHook,
  userSettingsPath,
  type InstalledHook,
} from '../../agents/claude-code/install.js';
import { currentNodeCli } from '../../agents/core/node-command.js';
import { agentSocketPath, someoneListens } from '../../agents/core/delegate-socket.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import type { ServiceStatus } from '../../agents/core/service-control.js';
import { autoStartWanted } from '../../agents/core/autostart.js';
import { describeService, serviceStatus } from './daemon.js';
import { defaultHermesHome, hermesPluginStatus, installHermesPlugin, uninstallHermesPlugin, type HermesStatus } from '../../agents/hermes/install.js';
import { packageVersion } from '../../server/paths.js';
import { printJson, printLine, printLines } from '../output.js';
import { registerClaudeCodeMcp, unregisterClaudeCodeMcp } from '../../mcp/register.js';

interface HooksOptions {
  mcp?: boolean;
  project?: boolean;
  user?: boolean;
  workspace?: string;
  hermesHome?: string;
  json?: boolean;
}

const AGENTS = ['claude-code', 'hermes'] as const;

function checkAgent(agent: string): void {
  if (!(AGENTS as readonly string[]).includes(agent)) {
    throw new ChronoscopeError('bad_input', `unknown agent ${JSON.stringify(agent)} (known: ${AGENTS.join(', ')})`);
  }
}

function userHome(): string {
  return process.env['HOME'] || homedir();
}

function settingsPath(options: HooksOptions): string {
  if (options.project && options.user) throw new ChronoscopeError('bad_input', 'choose one of --project and --user');
  if (options.user) return userSettingsPath(userHome());
  return projectSettingsPath(workspaceDir(options));
}

/** Project settings stay inside the workspace; the user's own ~/.claude may be linked anywhere they like. */
function settingsScope(options: HooksOptions): { within?: string } {
  return options.user ? {} : { within: workspaceDir(options) };
}

function withOptions(command: Command): Command {
  return command
    .option('--project', "the workspace's .claude/settings.json (default)")
    .option('--user', "the user's ~/.claude/settings.json")
    .option('-w, --workspace <dir>', 'the workspace folder for --project (default: the current directory)')
    .option('--hermes-home <dir>', 'hermes: its home folder (default: $HERMES_HOME, else ~/.hermes)')
    .option('--json', 'print machine-readable JSON');
}

function hermesHome(options: HooksOptions): string {
  return options.hermesHome === undefined ? defaultHermesHome() : resolve(options.hermesHome);
}

function describeHermes(s: HermesStatus): string[] {
  if (!s.installed) return [`hermes: not installed in ${s.plugin}`];
  const lines = [
    `hermes: installed in ${s.plugin} (${s.enabled ? 'enabled in config.yaml' : 'NOT in plugins.enabled of config.yaml'})`,
    `  node: ${s.node ?? '?'} ${s.node_exists ? '(exists)' : '(MISSING)'}`,
    `  cli:  ${s.cli ?? '?'} ${s.cli_exists ? '(exists)' : '(MISSING)'}`,
  ];
  if (!s.current) lines.push('  the plugin was written by another version of Chronoscope');
  if (!s.node_exists || !s.cli_exists || !s.enabled || !s.current) lines.push("  → run 'chronoscope hooks install hermes' again");
  return lines;
}

interface Handoff {
  /** The store the hooks use (CHRONOSCOPE_HOME, else the platform's folder), as the hook process finds it. */
  store: string;
  socket: string;
  /** Whether an app or the background service listens there now. */
  listening: boolean;
  /** Who serves, since when, what it watches; null: nobody. */
  service: ServiceStatus | null;
  /** Whether a hook that finds nobody starts the background service (settings' "daemon", CHRONOSCOPE_DAEMON). */
  auto_start: boolean;
}

/** Whether hooks would hand their work to a running service right now (the same socket the hook process tries). */
async function handoffStatus(): Promise<Handoff> {
  const store = defaultStoreHome();
  const socket = agentSocketPath(store);
  const service = await serviceStatus(store);
  return { store, socket, listening: service !== null || (await someoneListens(socket)), service, auto_start: autoStartWanted(store) };
}

function describeHandoff(h: Handoff): string[] {
  if (h.service !== null) return [...describeService(h.store, h.service), '  hook calls hand it their checkpoints (limited to what its watcher saw change)'];
  if (h.listening) return [`hand-off: a service listens on ${h.socket}: hook calls hand it their checkpoints`];
  return [
    `background service: none runs for the store ${h.store}: each hook call that takes a checkpoint scans the whole workspace itself`,
    h.auto_start
      ? "  → the next hook call starts one ('chronoscope daemon'), and the calls after it are cheap"
      : '  → automatic start is off ("daemon": false in the settings, or CHRONOSCOPE_DAEMON=0): start it by hand with \'chronoscope daemon\', or open the app',
  ];
}

interface StatusEntry {
  agent: string;
  scope: 'project' | 'user';
  path: string;
  hooks: InstalledHook[];
}

function describe(entry: StatusEntry): string[] {
  if (entry.hooks.length === 0) return [`${entry.agent} (${entry.scope}): not installed in ${entry.path}`];
  const first = entry.hooks[0];
  const broken = entry.hooks.filter((h) => !h.node_exists || !h.cli_exists);
  const lines = [
    `${entry.agent} (${entry.scope}): installed in ${entry.path}`,
    `  events: ${entry.hooks.map((h) => (h.matcher === null ? h.event : `${h.event}[${h.matcher}]`)).join(', ')}`,
  ];
  if (first !== undefined) {
    lines.push(`  node: ${first.node ?? '?'} ${first.node_exists ? '(exists)' : first.node !== null && !first.node.includes('/') && !first.node.includes('\\') ? '(not an absolute path: depends on the PATH the agent gives its hooks)' : '(MISSING)'}`);
    lines.push(`  cli:  ${first.cli ?? '?'} ${first.cli_exists ? '(exists)' : '(MISSING)'}`);
  }
  const again = `'chronoscope hooks install ${entry.agent}${entry.scope === 'user' ? ' --user' : ''}' again`;
  if (broken.length > 0) lines.push(`  → the hook cannot run as installed; run ${again}`);
  // Installed before the CommonJS entry (bin.cts): it works, through the ES module loader.
  else if (first?.cli?.endsWith('main.js') === true) lines.push(`  → an earlier entry point (main.js): run ${again} for a hook that starts ~10 ms sooner`);
  return lines;
}

export function registerHooks(program: Command): void {
  const hooks = program.command('hooks').description("add Chronoscope's hooks to an agent's settings, take them out, or show them");
  withOptions(hooks.command('install').argument('<agent>', 'claude-code | hermes').description("merge our hooks into Claude Code's settings, or write the Hermes plugin").option('--mcp', "claude-code: also register the `chronoscope mcp` server (.mcp.json, or ~/.claude.json with --user)")).action(
    async (agent: string, options: HooksOptions) => {
      checkAgent(agent);
      const paths = currentNodeCli();
      if (agent === 'hermes') {
        const r = await installHermesPlugin(hermesHome(options), paths, packageVersion());
        if (options.json) printJson(r);
        else printLine(`${r.changed ? 'installed' : 'already installed'}: ${r.plugin}\n  enabled in: ${r.config}\n  node: ${r.node}`);
        return;
      }
      const result = await installClaudeCodeHook(settingsPath(options), paths, settingsScope(options));
      const mcp = options.mcp ? await registerClaudeCodeMcp({ user: options.user === true, home: process.env['HOME'] || homedir(), workspace: workspaceDir(options), cliPath: paths.cli }) : undefined;
      if (options.json) printJson(mcp ? { ...result, mcp } : result);
      else printLine(`${result.changed ? 'installed' : 'already installed'}: ${result.path}\n  node: ${result.node}\n  runs: ${result.command}${mcp ? `\nMCP server ${mcp.changed ? 'registered' : 'already registered'}: ${mcp.path}` : ''}`);
    },
  );
  withOptions(
    hooks
      .command('uninstall')
      .argument('<agent>', 'claude-code | hermes')
      .description('remove only what we added, keeping everything else')
      .option('--mcp', 'claude-code: also take out the `chronoscope mcp` server entry (.mcp.json, or ~/.claude.json with --user)'),
  ).action(
    async (agent: string, options: HooksOptions) => {
      checkAgent(agent);
      if (agent === 'hermes') {
        const r = await uninstallHermesPlugin(hermesHome(options));
        if (options.json) printJson(r);
        else printLine(`${r.changed ? 'removed' : 'not installed'}: ${r.plugin}`);
        return;
      }
      // The MCP entry first: a config file we must refuse then leaves the hooks as they were too.
      const mcp = options.mcp ? await unregisterClaudeCodeMcp({ user: options.user === true, home: userHome(), workspace: workspaceDir(options) }) : undefined;
      const result = await uninstallClaudeCodeHook(settingsPath(options), settingsScope(options));
      if (options.json) printJson(mcp ? { ...result, mcp } : result);
      else printLine(`${result.changed ? 'removed' : 'not installed'}: ${result.path}${mcp ? `\nMCP server ${mcp.changed ? 'removed' : 'not registered'}: ${mcp.path}` : ''}`);
    },
  );
  hooks
    .command('status')
    .argument('[agent]', 'claude-code | hermes (default: every agent)')
    .description('what is installed where, and whether it still points at existing files')
    .option('-w, --workspace <dir>', 'the workspace whose project settings to look at (default: the current directory)')
    .option('--hermes-home <dir>', 'hermes: its home folder (default: $HERMES_HOME, else ~/.hermes)')
    .option('--json', 'print machine-readable JSON')
    .action(async (agent: string | undefined, options: HooksOptions) => {
      if (agent !== undefined) checkAgent(agent);
      const entries: StatusEntry[] = [];
      if (agent !== 'hermes') {
        for (const scope of ['project', 'user'] as const) {
          const path = scope === 'user' ? userSettingsPath(userHome()) : projectSettingsPath(workspaceDir(options));
          entries.push({ agent: 'claude-code', scope, path, hooks: await installedClaudeCodeHooks(path) });
        }
      }
      const hermes = agent === 'claude-code' ? null : await hermesPluginStatus(hermesHome(options));
      const handoff = await handoffStatus();
      if (options.json) printJson(agent === 'hermes' ? hermes : agent === 'claude-code' ? entries : { 'claude-code': entries, hermes, handoff });
      else printLines([...entries.flatMap(describe), ...(hermes === null ? [] : describeHermes(hermes)), ...describeHandoff(handoff)]);
    });
}
