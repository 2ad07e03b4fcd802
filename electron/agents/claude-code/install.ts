// Adding our hook to Claude Code's settings.json and taking it out again,
// leaving every other key and every other hook as it was. Ours are known by
// their command containing `hook claude-code`. Writes go through a temporary
// file and a rename, so the settings file is always whole.
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { readTextBounded } from '../../fs/bounded-read.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import { ChronoscopeError } from '../../../shared/errors.js';
import { cliPrefix, hookEnvAssignments, parseCliPrefix, type NodeCli } from '../core/node-command.js';
import { FILE_TOOLS, HOOKED_TOOLS } from './payload.js';

/**
 * The events we register and for which tools. PostToolUse for file tools too: with the service
 * running it takes the checkpoint of what the call changed, so its title is exactly that call's
 * (alone it has nothing to do and loads no engine). Events without a matcher fire once per batch or turn.
 */
export const HOOK_REGISTRATIONS: readonly { event: string; matcher?: string }[] = [
  { event: 'PreToolUse', matcher: HOOKED_TOOLS.join('|') },
  { event: 'PostToolUse', matcher: HOOKED_TOOLS.join('|') },
  { event: 'PostToolUseFailure', matcher: [...FILE_TOOLS, 'Bash'].join('|') },
  { event: 'PostToolBatch' },
  { event: 'UserPromptSubmit' },
  { event: 'SessionStart' },
];
export const OUR_MARK = 'hook claude-code';
/** Claude Code's own limit for our command, in seconds; our budget (5 s by default) ends well before. */
const CLAUDE_TIMEOUT_S = 30;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface InstallResult {
  path: string;
  changed: boolean;
  command: string;
  /** The Node binary the command names (the one that ran the installer). */
  node: string;
}

/** The command line Claude Code runs: absolute Node and CLI paths, so it works with any PATH. */
export function hookCommand(paths: NodeCli): string {
  return `${hookEnvAssignments()}${cliPrefix(paths)} ${OUR_MARK}`;
}

export function projectSettingsPath(workspace: string): string {
  return join(workspace, '.claude', 'settings.json');
}

export function userSettingsPath(home: string): string {
  return join(home, '.claude', 'settings.json');
}

export interface SettingsScope {
  /** The folder the settings file must stay inside (the workspace, for project settings). */
  within?: string;
}

/**
 * Project settings are written inside the workspace only: a `.claude` folder
 * (or settings file) that is a symlink to somewhere else is refused, or the
 * write would land outside.
 */
async function checkWithin(settingsPath: string, scope: SettingsScope): Promise<void> {
  if (scope.within === undefined) return;
  const root = await realpath(scope.within);
  for (const p of [dirname(settingsPath), settingsPath]) {
    const real = await realpath(p).catch(() => null);
    if (real === null) continue; // not there yet: created as a real folder or file
    const rel = relative(root, real);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new ChronoscopeError('refused', `${p} leads outside the workspace (to ${real}); refusing to write Claude Code's settings there`);
    }
  }
}

export async function installClaudeCodeHook(settingsPath: string, paths: NodeCli, scope: SettingsScope = {}): Promise<InstallResult> {
  await checkWithin(settingsPath, scope);
  const { settings, before } = await readSettings(settingsPath);
  const command = hookCommand(paths);
  const hooks = hooksObject(settings, settingsPath);
  // Ours from an earlier install (other events, an older command) go first, wherever they are.
  for (const event of Object.keys(hooks)) {
    const groups = withoutOurs(eventGroups(hooks, event, settingsPath));
    if (groups.length === 0) delete hooks[event];
    else hooks[event] = groups;
  }
  for (const { event, matcher } of HOOK_REGISTRATIONS) {
    const groups = eventGroups(hooks, event, settingsPath);
    groups.push({ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command, timeout: CLAUDE_TIMEOUT_S }] });
    hooks[event] = groups;
  }
  settings['hooks'] = hooks;
  const changed = await writeIfChanged(settingsPath, settings, before);
  return { path: settingsPath, changed, command, node: paths.node };
}

export interface InstalledHook {
  event: string;
  matcher: string | null;
  command: string;
  /** The Node binary and CLI the command names, and whether they still exist. */
  node: string | null;
  cli: string | null;
  node_exists: boolean;
  cli_exists: boolean;
}

/** Our entries in a settings file (none when it is absent or holds no hooks of ours). */
export async function installedClaudeCodeHooks(settingsPath: string): Promise<InstalledHook[]> {
  const { settings } = await readSettings(settingsPath);
  const hooks = hooksObject(settings, settingsPath);
  const found: InstalledHook[] = [];
  for (const event of Object.keys(hooks)) {
    for (const group of eventGroups(hooks, event, settingsPath)) {
      if (typeof group !== 'object' || group === null || Array.isArray(group)) continue;
      const list = group['hooks'];
      if (!Array.isArray(list)) continue;
      for (const hook of list) {
        if (!isOurs(hook)) continue;
        const command = String((hook as JsonObject)['command']);
        const paths = parseCliPrefix(command);
        const matcher = group['matcher'];
        found.push({
          event,
          matcher: typeof matcher === 'string' ? matcher : null,
          command,
          node: paths?.node ?? null,
          cli: paths?.cli ?? null,
          node_exists: paths !== null && isAbsolute(paths.node) && existsSync(paths.node),
          cli_exists: paths !== null && existsSync(paths.cli),
        });
      }
    }
  }
  return found;
}

export async function uninstallClaudeCodeHook(settingsPath: string, scope: SettingsScope = {}): Promise<{ path: string; changed: boolean }> {
  await checkWithin(settingsPath, scope);
  const { settings, before } = await readSettings(settingsPath);
  if (before === null) return { path: settingsPath, changed: false };
  const hooks = settings['hooks'];
  if (hooks === undefined) return { path: settingsPath, changed: false };
  const obj = hooksObject(settings, settingsPath);
  const original = JSON.stringify(obj);
  for (const event of Object.keys(obj)) {
    const groups = withoutOurs(eventGroups(obj, event, settingsPath));
    if (groups.length === 0) delete obj[event];
    else obj[event] = groups;
  }
  // Nothing of ours there: leave the file byte for byte as it was.
  if (JSON.stringify(obj) === original) return { path: settingsPath, changed: false };
  if (Object.keys(obj).length === 0) delete settings['hooks'];
  const changed = await writeIfChanged(settingsPath, settings, before);
  return { path: settingsPath, changed };
}

async function readSettings(path: string): Promise<{ settings: JsonObject; before: string | null }> {
  let text: string;
  try {
    text = await readTextBounded(path, 4 * 1024 * 1024);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { settings: {}, before: null };
    throw new ChronoscopeError('internal', `cannot read ${path}: ${(err as Error).message}`);
  }
  if (text.trim() === '') return { settings: {}, before: text };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ChronoscopeError('bad_input', `${path} is not valid JSON (${(err as Error).message}); left it untouched`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ChronoscopeError('bad_input', `${path} does not hold a JSON object; left it untouched`);
  }
  return { settings: parsed as JsonObject, before: text };
}

function hooksObject(settings: JsonObject, path: string): JsonObject {
  const hooks = settings['hooks'];
  if (hooks === undefined) return {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) {
    throw new ChronoscopeError('bad_input', `"hooks" in ${path} is not an object; left it untouched`);
  }
  return hooks;
}

function eventGroups(hooks: JsonObject, event: string, path: string): Json[] {
  const groups = hooks[event];
  if (groups === undefined) return [];
  if (!Array.isArray(groups)) throw new ChronoscopeError('bad_input', `"hooks.${event}" in ${path} is not a list; left it untouched`);
  return groups;
}

function isOurs(hook: Json): boolean {
  if (typeof hook !== 'object' || hook === null || Array.isArray(hook)) return false;
  const command = hook['command'];
  return typeof command === 'string' && command.includes(OUR_MARK);
}

/** The groups with our hooks taken out; a group left with no hooks goes too. Others stay as they were. */
function withoutOurs(groups: Json[]): Json[] {
  const out: Json[] = [];
  for (const group of groups) {
    if (typeof group !== 'object' || group === null || Array.isArray(group)) {
      out.push(group);
      continue;
    }
    const list = group['hooks'];
    if (!Array.isArray(list) || !list.some(isOurs)) {
      out.push(group);
      continue;
    }
    const rest = list.filter((h) => !isOurs(h));
    if (rest.length > 0) out.push({ ...group, hooks: rest });
  }
  return out;
}

async function writeIfChanged(path: string, settings: JsonObject, before: string | null): Promise<boolean> {
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  if (text === before) return false;
  await writeFileAtomic(path, text, { createDir: true });
  return true;
}
