// `chronoscope hooks install|uninstall|status hermes`: the plugin folder in
// $HERMES_HOME/plugins/chronoscope/, and `chronoscope` in `plugins.enabled`
// of $HERMES_HOME/config.yaml — edited through the yaml package's Document
// API, which keeps every other key and every comment as it was. What install
// added to config.yaml is noted in the plugin folder (install.json), so
// uninstall takes out exactly that, and nothing the person had before.
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { ChronoscopeError } from '../../../shared/errors.js';
import { checkContained, removeContained, removeEmptyFolders, writeContained, type ContainingRoot } from '../../fs/contained-write.js';
import type { NodeCli } from '../core/node-command.js';
import { PLUGIN_NAME, pluginManifest, pluginModule, pluginPaths } from './plugin-files.js';

export function defaultHermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['HERMES_HOME'];
  return fromEnv ? resolve(fromEnv) : join(env['HOME'] || homedir(), '.hermes');
}

/** Every write of ours stays inside Hermes' home: a link out of it is refused. */
function hermesRoot(hermesHome: string): ContainingRoot {
  return { dir: hermesHome, label: "Hermes' home folder" };
}

async function checkHermesPaths(hermesHome: string): Promise<void> {
  for (const p of [join(hermesHome, 'config.yaml'), join(pluginDir(hermesHome), 'install.json')]) await checkContained(hermesRoot(hermesHome), p);
}

export function pluginDir(hermesHome: string): string {
  return join(hermesHome, 'plugins', PLUGIN_NAME);
}

interface InstallNote {
  version: 1;
  /** What install added to config.yaml (uninstall takes out exactly this). */
  created_config: boolean;
  created_plugins: boolean;
  created_enabled: boolean;
  added_entry: boolean;
  /** Folders install created (Hermes' home, plugins/): uninstall removes them once empty. */
  made_dirs: string[];
}

export interface HermesInstallResult {
  plugin: string;
  config: string;
  changed: boolean;
  node: string;
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ChronoscopeError('internal', `cannot read ${path}: ${(err as Error).message}`);
  }
}

async function readConfig(path: string): Promise<{ doc: Document; before: string | null }> {
  const before = await readText(path);
  const doc = parseDocument(before ?? '');
  if (doc.errors.length > 0) {
    throw new ChronoscopeError('bad_input', `${path} is not valid YAML (${doc.errors[0]?.message.split('\n')[0] ?? 'parse error'}); left it untouched`);
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw new ChronoscopeError('bad_input', `${path} does not hold a YAML mapping; left it untouched`);
  return { doc, before };
}

function enabledList(doc: Document, path: string): { plugins: unknown; enabled: unknown } {
  const plugins = doc.get('plugins', true);
  if (plugins !== undefined && plugins !== null && !isMap(plugins)) throw new ChronoscopeError('bad_input', `"plugins" in ${path} is not a mapping; left it untouched`);
  const enabled = isMap(plugins) ? plugins.get('enabled', true) : undefined;
  if (enabled !== undefined && enabled !== null && !isSeq(enabled)) throw new ChronoscopeError('bad_input', `"plugins.enabled" in ${path} is not a list; left it untouched`);
  return { plugins, enabled };
}

function hasEntry(enabled: unknown): boolean {
  return isSeq(enabled) && enabled.items.some((item) => String((item as { value?: unknown }).value ?? item) === PLUGIN_NAME);
}

// The Document API keeps keys and comments but re-spaces some lines when it prints the whole file
// (`a: 1   # note` becomes `a: 1 # note`). Where the change is one list line, it is spliced into the
// text at the position the parser gives, so every other byte stays as the person wrote it.

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl === -1 ? text.length : nl + 1;
}

/** `enabled` as a block list with items: the text with one more `- chronoscope` line after its last item; else null. */
function spliceAdd(text: string, enabled: unknown): string | null {
  if (!isSeq(enabled) || enabled.flow === true || enabled.items.length === 0) return null;
  const last = enabled.items[enabled.items.length - 1] as { range?: [number, number, number] };
  const first = enabled.items[0] as { range?: [number, number, number] };
  if (last.range === undefined || first.range === undefined) return null;
  const start = lineStart(text, first.range[0]);
  const prefix = text.slice(start, first.range[0]);
  if (!/^\s*- $/.test(prefix)) return null;
  const end = lineEnd(text, last.range[1]);
  const line = `${prefix}${PLUGIN_NAME}\n`;
  return end === text.length && !text.endsWith('\n') ? `${text}\n${line}` : `${text.slice(0, end)}${line}${text.slice(end)}`;
}

/** The text without the `- chronoscope` line of a block list; null when it is not one line of its own. */
function spliceRemove(text: string, enabled: unknown): string | null {
  if (!isSeq(enabled) || enabled.flow === true) return null;
  const item = enabled.items.find((i) => String((i as { value?: unknown }).value ?? i) === PLUGIN_NAME) as { range?: [number, number, number] } | undefined;
  if (item?.range === undefined) return null;
  const start = lineStart(text, item.range[0]);
  const end = lineEnd(text, item.range[1]);
  if (!/^\s*- \S+\s*$/.test(text.slice(start, end))) return null;
  return `${text.slice(0, start)}${text.slice(end)}`;
}

export async function installHermesPlugin(hermesHome: string, paths: NodeCli, version: string): Promise<HermesInstallResult> {
  const configPath = join(hermesHome, 'config.yaml');
  const dir = pluginDir(hermesHome);
  await checkHermesPaths(hermesHome);
  const { doc, before } = await readConfig(configPath);
  const { plugins, enabled } = enabledList(doc, configPath);
  const earlier = await readNote(dir);
  let note: InstallNote = earlier ?? { version: 1, created_config: before === null, created_plugins: false, created_enabled: false, added_entry: false, made_dirs: [] };
  let after: string = before ?? '';
  const spliced = before === null || hasEntry(enabled) ? null : spliceAdd(before, enabled);
  if (spliced !== null) {
    after = spliced;
    note = { ...note, added_entry: true };
  } else if (!hasEntry(enabled)) {
    if (!isMap(plugins)) {
      doc.set('plugins', doc.createNode({ enabled: [PLUGIN_NAME] }));
      note = { ...note, created_plugins: true, created_enabled: true, added_entry: true };
    } else if (!isSeq(enabled)) {
      plugins.set('enabled', doc.createNode([PLUGIN_NAME]));
      note = { ...note, created_enabled: true, added_entry: true };
    } else {
      enabled.add(doc.createNode(PLUGIN_NAME));
      note = { ...note, added_entry: true };
    }
    after = doc.toString();
  }
  let changed = false;
  const files: [string, () => string][] = [
    [join(dir, 'plugin.yaml'), () => pluginManifest(version)],
    [join(dir, '__init__.py'), () => pluginModule(paths)],
    // Last: by then it knows the folders the files above made.
    [join(dir, 'install.json'), () => `${JSON.stringify(note, null, 2)}\n`],
  ];
  for (const [file, make] of files) {
    const text = make();
    if ((await readText(file)) === text) continue;
    const { createdDirs } = await writeContained(hermesRoot(hermesHome), file, text);
    note = { ...note, made_dirs: [...note.made_dirs, ...createdDirs.filter((d) => d !== dir)] };
    changed = true;
  }
  if (after !== (before ?? '')) {
    await writeContained(hermesRoot(hermesHome), configPath, after);
    changed = true;
  }
  return { plugin: dir, config: configPath, changed, node: paths.node };
}

async function readNote(dir: string): Promise<InstallNote | null> {
  const text = await readText(join(dir, 'install.json'));
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<InstallNote>;
    if (parsed.version !== 1) return null;
    return {
      version: 1,
      created_config: parsed.created_config === true,
      created_plugins: parsed.created_plugins === true,
      created_enabled: parsed.created_enabled === true,
      added_entry: parsed.added_entry === true,
      made_dirs: Array.isArray(parsed.made_dirs) ? parsed.made_dirs.filter((d): d is string => typeof d === 'string') : [],
    };
  } catch {
    return null;
  }
}

export async function uninstallHermesPlugin(hermesHome: string): Promise<{ plugin: string; config: string; changed: boolean }> {
  const configPath = join(hermesHome, 'config.yaml');
  const dir = pluginDir(hermesHome);
  const root = hermesRoot(hermesHome);
  await checkHermesPaths(hermesHome);
  const note = await readNote(dir);
  let changed = false;
  const { doc, before } = await readConfig(configPath);
  // Without the note (installed by hand, or the note lost) the entry is still ours to take out.
  if (before !== null && (note === null || note.added_entry)) {
    const { plugins, enabled } = enabledList(doc, configPath);
    let after = before;
    const keepList = note?.created_enabled !== true;
    const spliced = keepList ? spliceRemove(before, enabled) : null;
    if (spliced !== null) after = spliced;
    else if (isSeq(enabled) && isMap(plugins) && hasEntry(enabled)) {
      enabled.items = enabled.items.filter((item) => String((item as { value?: unknown }).value ?? item) !== PLUGIN_NAME);
      if (note?.created_enabled === true && enabled.items.length === 0) plugins.delete('enabled');
      if (note?.created_plugins === true && plugins.items.length === 0) doc.delete('plugins');
      after = doc.toString();
    }
    if (note?.created_config === true && (doc.contents === null || (isMap(doc.contents) && doc.contents.items.length === 0))) {
      await removeContained(root, configPath);
      changed = true;
    } else if (after !== before) {
      await writeContained(root, configPath, after);
      changed = true;
    }
  }
  for (const name of ['__init__.py', 'plugin.yaml', 'install.json']) {
    if (await removeContained(root, join(dir, name))) changed = true;
  }
  // Python's cache of our module: checked like the rest before it goes (rm does not follow a link in its place).
  await checkContained(root, join(dir, '__pycache__', 'x'));
  await rm(join(dir, '__pycache__'), { recursive: true, force: true });
  // The folder goes only if nothing else was put in it.
  await removeEmptyFolders(root, [dir, ...(note?.made_dirs ?? [])]);
  return { plugin: dir, config: configPath, changed };
}

export interface HermesStatus {
  plugin: string;
  installed: boolean;
  enabled: boolean;
  node: string | null;
  cli: string | null;
  node_exists: boolean;
  cli_exists: boolean;
  /** The store (CHRONOSCOPE_HOME) the plugin names; null: none, the default. */
  named_store: string | null;
  /** The module is the one this version writes (an older one lacks what came since, e.g. prompt labels). */
  current: boolean;
}

export async function hermesPluginStatus(hermesHome: string): Promise<HermesStatus> {
  const dir = pluginDir(hermesHome);
  const moduleText = await readText(join(dir, '__init__.py'));
  const paths = moduleText === null ? null : pluginPaths(moduleText);
  let enabled = false;
  try {
    const { doc } = await readConfig(join(hermesHome, 'config.yaml'));
    enabled = hasEntry(enabledList(doc, join(hermesHome, 'config.yaml')).enabled);
  } catch {
    enabled = false;
  }
  return {
    plugin: dir,
    installed: moduleText !== null,
    enabled,
    node: paths?.node ?? null,
    cli: paths?.cli ?? null,
    node_exists: paths !== null && isAbsolute(paths.node) && existsSync(paths.node),
    cli_exists: paths !== null && existsSync(paths.cli),
    named_store: paths?.store ?? null,
    current: paths !== null && moduleText === pluginModule(paths),
  };
}
