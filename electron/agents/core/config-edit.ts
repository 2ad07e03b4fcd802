// Writing our entries into an agent's config file and taking them out again
// so that the file is given back byte for byte. Install keeps a note of the
// file as it was and as we left it, and of the folders it created (in the
// store: <home>/agent-configs/); uninstall restores the first exactly when the
// file is still the second, removes a file that was not there before, and the
// folders install made once they are empty again. When the person (or the
// agent) edited the file since, only our entries are taken out (the agent's
// `remove`), and the rest stays as they left it.
//
// Every read is preceded by, and every write and removal goes through, the
// guarded write (fs/contained-write.ts): a config folder that is a link out of
// the workspace (or the agent's config home) is refused before anything changes.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { readTextBounded } from '../../fs/bounded-read.js';
import { checkContained, removeContained, removeEmptyFolders, writeContained, type ContainingRoot } from '../../fs/contained-write.js';

interface Note {
  version: 1;
  path: string;
  /** The file before install; null: there was none. */
  before: string | null;
  after: string;
  /** Folders install created for the file (nearest the root first): removed by uninstall once empty. */
  made_dirs?: string[];
}

/** Agents' config files are small; ~/.claude.json with a long project history is a few MB. */
const CONFIG_MAX_BYTES = 64 * 1024 * 1024;

export async function readConfigText(file: string): Promise<string | null> {
  try {
    return await readTextBounded(file, CONFIG_MAX_BYTES);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ChronoscopeError('internal', `cannot read ${file}: ${(err as Error).message}`);
  }
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

function storeRoot(storeHome: string): ContainingRoot {
  return { dir: storeHome, label: 'the store' };
}

function notePath(storeHome: string, agent: string, file: string): string {
  return path.join(storeHome, 'agent-configs', `${agent}-${createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 16)}.json`);
}

async function readNote(storeHome: string, file: string): Promise<Note | null> {
  await checkContained(storeRoot(storeHome), file);
  const text = await readConfigText(file).catch(() => null);
  if (text === null) return null;
  try {
    const n = JSON.parse(text) as Note;
    return n.version === 1 && typeof n.after === 'string' ? n : null;
  } catch {
    return null;
  }
}

export interface ConfigEdit {
  storeHome: string;
  agent: string;
  /** The folder the file must stay inside: the workspace (--project) or the agent's config home. */
  root: ContainingRoot;
  file: string;
  /**
   * The text with our entries out; null: none of ours in it. `original` is the file as it was before
   * install (from the note; undefined when there is none), so a key install added can go with ours.
   */
  remove: (text: string, original: string | null | undefined) => string | null;
  /** Whether the text left by `remove` holds nothing (then a file install created is removed). Default: blank. */
  isEmpty?: (text: string) => boolean;
  /** The file is ours alone (a plugin, a project hooks file): left empty, it goes even without a note. */
  ownFile?: boolean;
}

/**
 * Rewrites `file` with `edit` (given the text without any entries of ours, from `remove`). The
 * note keeps the text as it was before our first install, so a second install still uninstalls to it.
 */
export async function installConfigEdit(options: ConfigEdit & { edit: (text: string | null) => string }): Promise<{ changed: boolean }> {
  await checkContained(options.root, options.file);
  const current = await readConfigText(options.file);
  const note = notePath(options.storeHome, options.agent, options.file);
  const earlier = await readNote(options.storeHome, note);
  const ours = earlier !== null && earlier.after === current;
  const base = current === null ? null : (options.remove(current, ours ? earlier.before : undefined) ?? current);
  const after = options.edit(base);
  if (after === current) return { changed: false };
  // The original is what the file was before any install of ours, while it is still ours unchanged.
  // A file of ours alone with nothing of anyone else's in it was, in effect, not there.
  const before = ours ? earlier.before : options.ownFile === true && base !== null && (options.isEmpty ?? isBlank)(base) ? null : base;
  const { createdDirs } = await writeContained(options.root, options.file, after);
  const madeDirs = [...(ours ? (earlier.made_dirs ?? []) : []), ...createdDirs];
  await writeContained(storeRoot(options.storeHome), note, JSON.stringify({ version: 1, path: path.resolve(options.file), before, after, made_dirs: madeDirs } satisfies Note), { mode: 0o600, dirMode: 0o700 });
  return { changed: true };
}

export async function uninstallConfigEdit(options: ConfigEdit): Promise<{ changed: boolean }> {
  await checkContained(options.root, options.file);
  const current = await readConfigText(options.file);
  const note = notePath(options.storeHome, options.agent, options.file);
  const earlier = await readNote(options.storeHome, note);
  const isEmpty = options.isEmpty ?? isBlank;
  let changed = false;
  if (current !== null && earlier !== null && earlier.after === current) {
    // Untouched since install: the file as it was, byte for byte (or no file, as there was none).
    if (earlier.before === null) await removeContained(options.root, options.file);
    else await writeContained(options.root, options.file, earlier.before);
    changed = true;
  } else if (current !== null) {
    const without = options.remove(current, earlier?.before);
    if (without !== null && without !== current) {
      // Edited since, but the file was ours to begin with: nothing else in it, so it goes.
      if ((options.ownFile === true || (earlier !== null && earlier.before === null)) && isEmpty(without)) await removeContained(options.root, options.file);
      else await writeContained(options.root, options.file, without);
      changed = true;
    }
  }
  if (earlier !== null && (await readConfigText(options.file)) === null) await removeEmptyFolders(options.root, earlier.made_dirs ?? []);
  await removeContained(storeRoot(options.storeHome), note);
  return { changed };
}
