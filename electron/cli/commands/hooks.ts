// chronoscope hooks install|uninstall|status <agent>: our entries in an
// agent's settings, merged in or taken out, every other setting kept; and
// what is installed where, and whether it still points at existing files.
// Each agent is an installer (agents/core/installer.ts, listed in ../agent-installers.ts).
import { homedir } from 'node:os';
import type { Command } from 'commander';
import { ChronoscopeError } from '../../../shared/errors.js';
import { workspaceDir } from '../context.js';
import { currentNodeCli } from '../../agents/core/node-command.js';
import type { AgentInstaller, InstallContext } from '../../agents/core/installer.js';
import { agentSocketPath, someoneListens } from '../../agents/core/delegate-socket.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import type { ServiceStatus } from '../../agents/core/service-control.js';
import { autoStartWanted } from '../../agents/core/autostart.js';
import { describeService, serviceStatus } from './daemon.js';
import { printJson, printLines } from '../output.js';
import { mcpServerEntry } from '../../mcp/register.js';
import { agentInstallers } from '../agent-installers.js';

interface HooksOptions {
  mcp?: boolean;
  project?: boolean;
  user?: boolean;
  workspace?: string;
  hermesHome?: string;
  json?: boolean;
}

function installerFor(agent: string, options: HooksOptions): AgentInstaller {
  const all = agentInstallers(options);
  const found = all.find((i) => i.id === agent);
  if (found === undefined) throw new ChronoscopeError('bad_input', `unknown agent ${JSON.stringify(agent)} (known: ${all.map((i) => i.id).join(', ')})`);
  return found;
}

function userHome(): string {
  return process.env['HOME'] || homedir();
}

/** --project / --user, else the agent's own default; a project scope the agent does not have is refused. */
function context(installer: AgentInstaller, options: HooksOptions): InstallContext {
  if (options.project && options.user) throw new ChronoscopeError('bad_input', 'choose one of --project and --user');
  const scope = options.user ? 'user' : options.project ? 'project' : installer.defaultScope;
  if (scope === 'project' && !installer.hasProjectScope && options.project) {
    throw new ChronoscopeError('bad_input', `${installer.id} has no project-level hooks; leave out --project`);
  }
  const paths = currentNodeCli();
  const project = scope === 'project' && installer.hasProjectScope ? workspaceDir(options) : null;
  const mcp = options.mcp ? mcpServerEntry(paths.cli, project ?? undefined) : null;
  return { home: userHome(), project, paths, mcp: mcp === null ? null : { command: mcp.command, args: mcp.args } };
}

function withOptions(command: Command): Command {
  return command
    .option('--project', "the workspace's project-level config (default for claude-code: .claude/settings.json)")
    .option('--user', "the user's config (default for the other agents)")
    .option('-w, --workspace <dir>', 'the workspace folder for --project (default: the current directory)')
    .option('--hermes-home <dir>', 'hermes: its home folder (default: $HERMES_HOME, else ~/.hermes)')
    .option('--json', 'print machine-readable JSON');
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

function agentList(): string {
  return agentInstallers({}).map((i) => i.id).join(' | ');
}

export function registerHooks(program: Command): void {
  const hooks = program.command('hooks').description("add Chronoscope's hooks to an agent's settings, take them out, or show them");
  withOptions(
    hooks
      .command('install')
      .argument('<agent>', agentList())
      .description("merge our hooks into the agent's settings (Hermes: write its plugin)")
      .option('--mcp', "also register the `chronoscope mcp` server in the agent's config (claude-code: .mcp.json, or ~/.claude.json with --user)"),
  ).action(async (agent: string, options: HooksOptions) => {
    const installer = installerFor(agent, options);
    const report = await installer.install(context(installer, options));
    if (options.json) printJson(report.json);
    else printLines(report.lines);
  });
  withOptions(
    hooks
      .command('uninstall')
      .argument('<agent>', agentList())
      .description('remove only what we added, keeping everything else')
      .option('--mcp', 'also take out the `chronoscope mcp` server entry (the same file install --mcp wrote)'),
  ).action(async (agent: string, options: HooksOptions) => {
    const installer = installerFor(agent, options);
    const report = await installer.uninstall(context(installer, options));
    if (options.json) printJson(report.json);
    else printLines(report.lines);
  });
  hooks
    .command('status')
    .argument('[agent]', `${agentList()} (default: every agent)`)
    .description('what is installed where, and whether it still points at existing files')
    .option('-w, --workspace <dir>', 'the workspace whose project settings to look at (default: the current directory)')
    .option('--hermes-home <dir>', 'hermes: its home folder (default: $HERMES_HOME, else ~/.hermes)')
    .option('--json', 'print machine-readable JSON')
    .action(async (agent: string | undefined, options: HooksOptions) => {
      const chosen = agent === undefined ? agentInstallers(options) : [installerFor(agent, options)];
      const ctx: InstallContext = { home: userHome(), project: workspaceDir(options), paths: currentNodeCli(), mcp: null };
      const reports = [];
      for (const installer of chosen) reports.push({ id: installer.id, report: await installer.status(ctx) });
      const handoff = await handoffStatus();
      if (options.json) printJson(agent === undefined ? { ...Object.fromEntries(reports.map((r) => [r.id, r.report.json])), handoff } : reports[0]?.report.json);
      else printLines([...reports.flatMap((r) => r.report.lines), ...describeHandoff(handoff)]);
    });
}
