// Adding our hook to Claude Code's settings.json and taking it out again,
// leaving every other key and every other hook as it was. Ours are known by
// their command containing `hook claude-code`. The file is edited through
// core/config-edit.ts (the guarded write; uninstall gives it back byte for
// byte, or removes it when install created it), in the file's own indentation.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readTextBounded } from '../../fs/bounded-read.js';
import type { ContainingRoot } from '../../fs/contained-write.js';
import { ChronoscopeError } from '../../../shared/errors.js';
import { installConfigEdit, uninstallConfigEdit } from '../core/config-edit.js';
import { isEmptyJson, jsonConfigText } from '../core/json-config.js';
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
  { event: 'Stop' },
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
  return `${hookEnvAssignments(paths)}${cliPrefix(paths)} ${OUR_MARK}`;
}

export function projectSettingsPath(workspace: string): string {
  return join(workspace, '.claude', 'settings.json');
}

export function userSettingsPath(home: string): string {
  return join(home, '.claude', 'settings.json');
}

/** The folder a settings file must stay inside: the workspace, or ~/.claude for the user's. */
export function settingsRoot(project: string | null, home: string): ContainingRoot {
  return project !== null ? { dir: project, label: 'the workspace' } : { dir: join(home, '.claude'), label: "Claude Code's config folder" };
}

/** The settings text with our hooks in (input: the text without ours, or null for no file). */
function withOurs(text: string | null, settingsPath: string, command: string): string {
  const settings = parseSettings(text, settingsPath);
  const hooks = hooksObject(settings, settingsPath);
  for (const { event, matcher } of HOOK_REGISTRATIONS) {
    const groups = eventGroups(hooks, event, settingsPath);
    groups.push({ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command, timeout: CLAUDE_TIMEOUT_S }] });
    hooks[event] = groups;
  }
  settings['hooks'] = hooks;
  return jsonConfigText(settings, text);
}

/** The settings text with ours (any version's, on any event) taken out; null when none is there. */
function withoutOurs(text: string, settingsPath: string): string | null {
  const settings = parseSettings(text, settingsPath);
  if (settings['hooks'] === undefined) return null;
  const obj = hooksObject(settings, settingsPath);
  const original = JSON.stringify(obj);
  for (const event of Object.keys(obj)) {
    const groups = groupsWithoutOurs(eventGroups(obj, event, settingsPath));
    if (groups.length === 0) delete obj[event];
    else obj[event] = groups;
  }
  if (JSON.stringify(obj) === original) return null;
  if (Object.keys(obj).length === 0) delete settings['hooks'];
  return jsonConfigText(settings, text);
}

export async function installClaudeCodeHook(settingsPath: string, paths: NodeCli, root: ContainingRoot, storeHome: string): Promise<InstallResult> {
  const command = hookCommand(paths);
  const { changed } = await installConfigEdit({ storeHome, agent: 'claude-code', root, file: settingsPath, isEmpty: isEmptyJson, remove: (t) => withoutOurs(t, settingsPath), edit: (t) => withOurs(t, settingsPath, command) });
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
  /** The store (CHRONOSCOPE_HOME) the command names; null: none, the default. */
  named_store: string | null;
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
          named_store: paths?.store ?? null,
        });
      }
    }
  }
  return found;
}

export async function uninstallClaudeCodeHook(settingsPath: string, root: ContainingRoot, storeHome: string): Promise<{ path: string; changed: boolean }> {
  const { changed } = await uninstallConfigEdit({ storeHome, agent: 'claude-code', root, file: settingsPath, isEmpty: isEmptyJson, remove: (t) => withoutOurs(t, settingsPath) });
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
  return { settings: parseSettings(text, path), before: text };
}

function parseSettings(text: string | null, path: string): JsonObject {
  if (text === null || text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ChronoscopeError('bad_input', `${path} is not valid JSON (${(err as Error).message}); left it untouched`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ChronoscopeError('bad_input', `${path} does not hold a JSON object; left it untouched`);
  }
  return parsed as JsonObject;
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
function groupsWithoutOurs(groups: Json[]): Json[] {
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
