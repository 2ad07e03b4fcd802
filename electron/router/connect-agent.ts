// "Install hooks" on the app's connect-an-agent page: the installers of
// `chronoscope hooks install <agent>` (cli/agent-installers.ts), each in its
// default place, with the Node binary and built CLI the hook command will name.
import { homedir } from 'node:os';
import { ChronoscopeError } from '../../shared/errors.js';
import { executableOnPath } from '../fs/executable-on-path.js';
import type { AgentInstallResult } from '../../shared/ipc.js';
import type { InstallContext } from '../agents/core/installer.js';
import { cliEntryPath } from '../agents/core/node-command.js';
import { agentInstallers } from '../cli/agent-installers.js';

/** `workspace`: the open workspace (real path), for agents whose hooks live in the project; else the user's config. */
export async function installAgentHooks(agent: string, workspace: string | null): Promise<AgentInstallResult> {
  const all = agentInstallers({});
  const installer = all.find((i) => i.id === agent);
  if (installer === undefined) throw new ChronoscopeError('bad_input', `unknown agent ${JSON.stringify(agent)} (known: ${all.map((i) => i.id).join(', ')})`);
  const project = installer.defaultScope === 'project' && installer.hasProjectScope ? workspace : null;
  const ctx: InstallContext = { home: process.env['HOME'] || homedir(), project, paths: { node: await hookNode(), cli: cliEntryPath() }, mcp: null };
  const report = await installer.install(ctx);
  const json = (typeof report.json === 'object' && report.json !== null ? report.json : {}) as { path?: unknown; plugin?: unknown; changed?: unknown };
  const file = typeof json.path === 'string' ? json.path : typeof json.plugin === 'string' ? json.plugin : null;
  return { agent, path: file, changed: json.changed === true, lines: report.lines };
}

/**
 * The Node binary hooks run with. In the browser host it is the one running
 * us; in the desktop app process.execPath is Electron, which would start the
 * app for every tool call, so a `node` on PATH is needed there.
 */
export async function hookNode(): Promise<string> {
  if (process.versions['electron'] === undefined) return process.execPath;
  const node = await executableOnPath(['node']);
  if (node !== null) return node;
  throw new ChronoscopeError('not_found', 'no Node.js on PATH for the hooks to run with: install Node.js 20.19+, or run the command shown in a terminal');
}
