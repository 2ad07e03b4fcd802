// The agents `chronoscope hooks` knows, each an installer (agents/core/installer.ts).
// Claude Code's and Hermes' are worded here because they reach past the agents
// layer (Claude Code's MCP file is the MCP module's, Hermes' home is an option
// of this command); the others live in their own folders. Adding an agent is
// one line in INSTALLERS (and one in agents/hook-adapters.ts).
import { resolve } from 'node:path';
import type { AgentInstaller, InstallContext, InstallReport } from '../agents/core/installer.js';
import {
  HOOK_REGISTRATIONS,
  installClaudeCodeHook,
  installedClaudeCodeHooks,
  projectSettingsPath,
  settingsRoot,
  uninstallClaudeCodeHook,
  userSettingsPath,
  type InstalledHook,
} from '../agents/claude-code/install.js';
import { defaultHermesHome, hermesPluginStatus, installHermesPlugin, uninstallHermesPlugin, type HermesStatus } from '../agents/hermes/install.js';
import { codexInstaller } from '../agents/codex/install.js';
import { geminiInstaller } from '../agents/gemini/install.js';
import { copilotInstaller } from '../agents/copilot/install.js';
import { openCodeInstaller } from '../agents/opencode/install.js';
import { registerClaudeCodeMcp, unregisterClaudeCodeMcp } from '../mcp/register.js';
import { packageVersion } from '../server/paths.js';
import { defaultStoreHome } from '../engine/layout/paths.js';
import { storeWarning } from '../agents/core/install-report.js';

interface StatusEntry {
  agent: string;
  scope: 'project' | 'user';
  path: string;
  hooks: InstalledHook[];
}

function describeClaudeCode(entry: StatusEntry): string[] {
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
  if (first !== undefined && first.node !== null && first.cli !== null) {
    lines.push(...storeWarning({ node: first.node, cli: first.cli, ...(first.named_store === null ? {} : { store: first.named_store }) }, `run ${again}`));
  }
  if (broken.length > 0) lines.push(`  → the hook cannot run as installed; run ${again}`);
  // Installed before the CommonJS entry (bin.cts): it works, through the ES module loader.
  else if (first?.cli?.endsWith('main.js') === true) lines.push(`  → an earlier entry point (main.js): run ${again} for a hook that starts ~10 ms sooner`);
  // An install of an earlier version: it works, but file edits are not checkpointed as they end.
  else if (!sameRegistrations(entry.hooks)) lines.push(`  → installed by an earlier version: run ${again} so each call's change is titled by that call`);
  return lines;
}

/** Whether the installed entries are exactly the events and matchers this version registers. */
function sameRegistrations(hooks: readonly InstalledHook[]): boolean {
  const key = (event: string, matcher: string | null | undefined): string => `${event}[${matcher ?? ''}]`;
  const installed = new Set(hooks.map((h) => key(h.event, h.matcher)));
  return installed.size === HOOK_REGISTRATIONS.length && HOOK_REGISTRATIONS.every((r) => installed.has(key(r.event, r.matcher)));
}

function claudeSettings(ctx: InstallContext): string {
  return ctx.project === null ? userSettingsPath(ctx.home) : projectSettingsPath(ctx.project);
}

const claudeCode: AgentInstaller = {
  id: 'claude-code',
  hasProjectScope: true,
  defaultScope: 'project',
  async install(ctx): Promise<InstallReport> {
    const result = await installClaudeCodeHook(claudeSettings(ctx), ctx.paths, settingsRoot(ctx.project, ctx.home), defaultStoreHome());
    const mcp = ctx.mcp ? await registerClaudeCodeMcp({ user: ctx.project === null, home: ctx.home, workspace: ctx.project ?? process.cwd(), cliPath: ctx.paths.cli, storeHome: defaultStoreHome() }) : undefined;
    return {
      json: mcp ? { ...result, mcp } : result,
      lines: [`${result.changed ? 'installed' : 'already installed'}: ${result.path}\n  node: ${result.node}\n  runs: ${result.command}${mcp ? `\nMCP server ${mcp.changed ? 'registered' : 'already registered'}: ${mcp.path}` : ''}`],
    };
  },
  async uninstall(ctx): Promise<InstallReport> {
    // The MCP entry first: a config file we must refuse then leaves the hooks as they were too.
    const mcp = ctx.mcp ? await unregisterClaudeCodeMcp({ user: ctx.project === null, home: ctx.home, workspace: ctx.project ?? process.cwd(), storeHome: defaultStoreHome() }) : undefined;
    const result = await uninstallClaudeCodeHook(claudeSettings(ctx), settingsRoot(ctx.project, ctx.home), defaultStoreHome());
    return {
      json: mcp ? { ...result, mcp } : result,
      lines: [`${result.changed ? 'removed' : 'not installed'}: ${result.path}${mcp ? `\nMCP server ${mcp.changed ? 'removed' : 'not registered'}: ${mcp.path}` : ''}`],
    };
  },
  async status(ctx): Promise<InstallReport> {
    const entries: StatusEntry[] = [];
    for (const scope of ['project', 'user'] as const) {
      const path = scope === 'user' ? userSettingsPath(ctx.home) : projectSettingsPath(ctx.project ?? process.cwd());
      entries.push({ agent: 'claude-code', scope, path, hooks: await installedClaudeCodeHooks(path) });
    }
    return { json: entries, lines: entries.flatMap(describeClaudeCode) };
  },
};

function describeHermes(s: HermesStatus): string[] {
  if (!s.installed) return [`hermes: not installed in ${s.plugin}`];
  const lines = [
    `hermes: installed in ${s.plugin} (${s.enabled ? 'enabled in config.yaml' : 'NOT in plugins.enabled of config.yaml'})`,
    `  node: ${s.node ?? '?'} ${s.node_exists ? '(exists)' : '(MISSING)'}`,
    `  cli:  ${s.cli ?? '?'} ${s.cli_exists ? '(exists)' : '(MISSING)'}`,
  ];
  if (s.node !== null && s.cli !== null) lines.push(...storeWarning({ node: s.node, cli: s.cli, ...(s.named_store === null ? {} : { store: s.named_store }) }, "run 'chronoscope hooks install hermes' again"));
  if (!s.current) lines.push('  the plugin was written by another version of Chronoscope');
  if (!s.node_exists || !s.cli_exists || !s.enabled || !s.current) lines.push("  → run 'chronoscope hooks install hermes' again");
  return lines;
}

function hermes(hermesHomeOption: string | undefined): AgentInstaller {
  const home = (): string => (hermesHomeOption === undefined ? defaultHermesHome() : resolve(hermesHomeOption));
  return {
    id: 'hermes',
    hasProjectScope: false,
    defaultScope: 'user',
    async install(ctx): Promise<InstallReport> {
      const r = await installHermesPlugin(home(), ctx.paths, packageVersion());
      return { json: r, lines: [`${r.changed ? 'installed' : 'already installed'}: ${r.plugin}\n  enabled in: ${r.config}\n  node: ${r.node}`] };
    },
    async uninstall(): Promise<InstallReport> {
      const r = await uninstallHermesPlugin(home());
      return { json: r, lines: [`${r.changed ? 'removed' : 'not installed'}: ${r.plugin}`] };
    },
    async status(): Promise<InstallReport> {
      const s = await hermesPluginStatus(home());
      return { json: s, lines: describeHermes(s) };
    },
  };
}

export interface InstallerOptions {
  hermesHome?: string;
}

/** Every agent `chronoscope hooks` can connect, in the order `hooks status` shows them. */
export function agentInstallers(options: InstallerOptions): AgentInstaller[] {
  return [claudeCode, hermes(options.hermesHome), codexInstaller, geminiInstaller, copilotInstaller, openCodeInstaller];
}
