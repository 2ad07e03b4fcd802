// Writing our entries into an agent's config file and taking them out again
// so that the file is given back byte for byte. Install keeps a note of the
// file as it was and as we left it (in the store: <home>/agent-configs/);
// uninstall restores the first exactly when the file is still the second.
// When the person edited the file since, only our entries are taken out
// (the agent's `remove`), and the rest stays as they left it.
import { createHash } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import { makeDir } from '../../fs/make-dir.js';

interface Note {
  version: 1;
  path: string;
  /** The file before install; null: there was none. */
  before: string | null;
  after: string;
}

export async function readConfigText(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new ChronoscopeError('internal', `cannot read ${file}: ${(err as Error).message}`);
  }
}

function notePath(storeHome: string, agent: string, file: string): string {
  return path.join(storeHome, 'agent-configs', `${agent}-${createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 16)}.json`);
}

async function readNote(file: string): Promise<Note | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const n = JSON.parse(text) as Note;
    return n.version === 1 && typeof n.after === 'string' ? n : null;
  } catch {
    return null;
  }
}

/**
 * Rewrites `file` with `edit` (given the text without any entries of ours, from `remove`). The
 * note keeps the text as it was before our first install, so a second install still uninstalls to it.
 */
export async function installConfigEdit(options: {
  storeHome: string;
  agent: string;
  file: string;
  /** The text with our entries in (input: the text without ours, or null for no file). */
  edit: (text: string | null) => string;
  /** The text with our entries out; null: none of ours in it. */
  remove: (text: string) => string | null;
}): Promise<{ changed: boolean }> {
  const current = await readConfigText(options.file);
  const note = notePath(options.storeHome, options.agent, options.file);
  const earlier = await readNote(note);
  const base = current === null ? null : (options.remove(current) ?? current);
  const after = options.edit(base);
  if (after === current) return { changed: false };
  // The original is what the file was before any install of ours, while it is still ours unchanged.
  const before = earlier !== null && earlier.after === current ? earlier.before : base;
  await makeDir(path.dirname(note), 0o700);
  await writeFileAtomic(note, JSON.stringify({ version: 1, path: path.resolve(options.file), before, after } satisfies Note), { mode: 0o600 });
  await writeFileAtomic(options.file, after, { createDir: true });
  return { changed: true };
}

export async function uninstallConfigEdit(options: { storeHome: string; agent: string; file: string; remove: (text: string) => string | null }): Promise<{ changed: boolean }> {
  const current = await readConfigText(options.file);
  const note = notePath(options.storeHome, options.agent, options.file);
  const earlier = await readNote(note);
  let changed = false;
  if (current !== null && earlier !== null && earlier.after === current) {
    // Untouched since install: the file as it was, byte for byte (or no file, as there was none).
    if (earlier.before === null) await rm(options.file, { force: true });
    else await writeFileAtomic(options.file, earlier.before);
    changed = true;
  } else if (current !== null) {
    const without = options.remove(current);
    if (without !== null && without !== current) {
      await writeFileAtomic(options.file, without);
      changed = true;
    }
  }
  await rm(note, { force: true });
  return { changed };
}
