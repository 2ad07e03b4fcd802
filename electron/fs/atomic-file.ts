// Small files written whole or not at all: through a temporary file in the same
// folder and a rename, so a crash or a concurrent reader sees the old content or
// the new, never half. Every part of the main process (engine, app, effects,
// hooks, shell) writes its metadata and state files through here.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { readTextBounded } from './bounded-read.js';

export interface AtomicWriteOptions {
  /** Permission bits of the new file (applied past the umask). */
  mode?: number;
  /** Create the parent folder first (off on hot paths whose folder exists). */
  createDir?: boolean;
}

export async function writeFileAtomic(file: string, data: string | Buffer, { mode, createDir = false }: AtomicWriteOptions = {}): Promise<void> {
  if (createDir) await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fs.writeFile(tmp, data, mode === undefined ? {} : { mode });
    if (mode !== undefined) await fs.chmod(tmp, mode);
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Pretty JSON with a final newline; creates the parent folder. */
export async function writeJsonAtomic(file: string, value: unknown, options: Omit<AtomicWriteOptions, 'createDir'> = {}): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, { ...options, createDir: true });
}

/** Settings, metadata and lists are small: a bigger "JSON file" is not ours. */
const JSON_MAX_BYTES = 8 * 1024 * 1024;

/** The parsed file, or `undefined` when it does not exist. Corrupt JSON, a non-regular or oversized file throws. */
export async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readTextBounded(file, JSON_MAX_BYTES);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as unknown;
}
