// `chronoscope hooks install|uninstall|status opencode`: our plugin file
// (plugin-file.ts) in OpenCode's global plugin folder
// ($XDG_CONFIG_HOME/opencode/plugin/, by default ~/.config/opencode/plugin/),
// or with --project in the workspace's .opencode/plugin/. No config file is
// edited: OpenCode loads every module of that folder. Uninstall removes the
// file (only when it is ours) and the folder when install made it and it is
// empty again. With --mcp, also our MCP server in OpenCode's config file
// (mcp-config.ts; with --project, the workspace's opencode.json), given back
// byte for byte by uninstall --mcp.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { removeContained, removeEmptyFolders, type ContainingRoot } from '../../fs/contained-write.js';
import { configRoot, type AgentInstaller, type InstallContext, type InstallReport } from '../core/installer.js';
import { hookTarget, hookTargetLines, installAgain, storeWarning, installedLines, mcpRegisteredLine, mcpRemovedLine, removedLine, scopeLine, statusScopes } from '../core/install-report.js';
import { installConfigEdit, readConfigText, uninstallConfigEdit } from '../core/config-edit.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { AGENT } from './hook.js';
import { addOurMcp, openCodeConfigPath, removeOurMcp } from './mcp-config.js';
import { openCodePlugin, openCodePluginPaths, PLUGIN_MARK } from './plugin-file.js';

const FILE = 'chronoscope.js';
/** Left by earlier versions beside the plugin while install had made its folder (now the store's note says so). */
const MADE_DIR = '.chronoscope-made-this-folder';

export function openCodePluginDir(ctx: Pick<InstallContext, 'home' | 'project'>, env: NodeJS.ProcessEnv = process.env): string {
  if (ctx.project !== null) return path.join(ctx.project, '.opencode', 'plugin');
  const xdg = env['XDG_CONFIG_HOME'];
  return path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(ctx.home, '.config'), 'opencode', 'plugin');
}

/** The workspace, or OpenCode's config folder (the plugin folder's parent). */
function openCodeRoot(ctx: Pick<InstallContext, 'home' | 'project'>): ContainingRoot {
  return configRoot(ctx, path.dirname(openCodePluginDir({ home: ctx.home, project: null })), 'OpenCode');
}

/** The plugin without ours: nothing (the file is ours alone); null when it is not ours. */
function removePlugin(text: string): string | null {
  return text.startsWith(PLUGIN_MARK) ? '' : null;
}

function pluginText(current: string | null, file: string, text: string): string {
  if (current !== null && current !== '') throw new ChronoscopeError('bad_input', `${file} exists and is not Chronoscope's plugin; left it untouched`);
  return text;
}

export const openCodeInstaller: AgentInstaller = {
  id: AGENT,
  hasProjectScope: true,
  defaultScope: 'user',
  async install(ctx): Promise<InstallReport> {
    const dir = openCodePluginDir(ctx);
    const { mcp } = ctx;
    const configFile = openCodeConfigPath(ctx.project ?? path.dirname(dir));
    // The config first: a file we must leave untouched refuses before the plugin is placed.
    const mcpChanged = mcp === null ? null : (await installConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: openCodeRoot(ctx), file: configFile, remove: (t) => removeOurMcp(t, configFile), edit: (t) => addOurMcp(t, configFile, mcp) })).changed;
    const file = path.join(dir, FILE);
    const { changed } = await installConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: openCodeRoot(ctx), file, ownFile: true, remove: removePlugin, edit: (t) => pluginText(t, file, openCodePlugin(ctx.paths)) });
    const lines = installedLines(changed, file, ctx.paths.node);
    if (mcpChanged !== null) lines.push(mcpRegisteredLine(mcpChanged, configFile, '(mcp.chronoscope)'));
    return { json: { path: file, changed, node: ctx.paths.node, ...(mcpChanged === null ? {} : { mcp: { path: configFile, changed: mcpChanged } }) }, lines };
  },
  async uninstall(ctx): Promise<InstallReport> {
    const dir = openCodePluginDir(ctx);
    const file = path.join(dir, FILE);
    // The reverse of install's order: the plugin (and its folder) first, so the config edit,
    // which made the folders above it, finds them empty and takes them too.
    const root = openCodeRoot(ctx);
    const { changed } = await uninstallConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root, file, ownFile: true, remove: removePlugin });
    // An earlier version's mark that install made the folder: it goes, and the folder if nothing else is in it.
    if (changed && (await readdir(dir).catch(() => [] as string[])).every((n) => n === MADE_DIR) && (await removeContained(root, path.join(dir, MADE_DIR)))) await removeEmptyFolders(root, [dir]);
    const mcpLines: string[] = [];
    if (ctx.mcp !== null) {
      const configFile = openCodeConfigPath(ctx.project ?? path.dirname(dir));
      const r = await uninstallConfigEdit({ storeHome: defaultStoreHome(), agent: AGENT, root: openCodeRoot(ctx), file: configFile, remove: (t) => removeOurMcp(t, configFile) });
      mcpLines.push(mcpRemovedLine(r.changed, configFile));
    }
    return { json: { path: file, changed }, lines: [removedLine(changed, file), ...mcpLines] };
  },
  async status(ctx): Promise<InstallReport> {
    const json = [];
    const lines: string[] = [];
    for (const { project, scope } of statusScopes(ctx.project)) {
      const file = path.join(openCodePluginDir({ home: ctx.home, project }), FILE);
      const text = await readConfigText(file);
      const ours = text !== null && text.startsWith(PLUGIN_MARK);
      const paths = text === null ? null : openCodePluginPaths(text);
      const target = hookTarget(paths);
      json.push({ scope, path: file, installed: ours, ...target });
      if (!ours) {
        lines.push(scopeLine(AGENT, scope, 'not installed', file));
        continue;
      }
      lines.push(scopeLine(AGENT, scope, 'plugin installed', file), ...hookTargetLines(paths), ...storeWarning(paths, installAgain(AGENT, scope)));
      if (!target.runnable) lines.push(`  → the plugin cannot run as installed; ${installAgain(AGENT, scope)}`);
    }
    return { json, lines };
  },
};
