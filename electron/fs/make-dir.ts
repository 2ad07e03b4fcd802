// `mkdir -p` that gives up. Node's recursive mkdir retries for ever when a folder
// cannot be made inside a parent that exists: under /proc mkdir says ENOENT, so
// Node makes the parent (there already) and tries again, without end — a hook
// with CHRONOSCOPE_HOME=/proc/x spun its whole budget. Here each level is tried
// at most twice: once, and once more after its parent was made.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Creates `dir` and any missing parents (each with `mode`); an existing folder is fine. */
export async function makeDir(dir: string, mode = 0o777): Promise<void> {
  const first = await tryMkdir(dir, mode);
  if (first === null) return;
  const parent = path.dirname(dir);
  if (first.code !== 'ENOENT' || parent === dir) throw first;
  await makeDir(parent, mode);
  const again = await tryMkdir(dir, mode);
  if (again === null) return;
  if (again.code === 'ENOENT') throw Object.assign(new Error(`${parent} does not take new folders (mkdir ${dir}: ENOENT)`), { code: 'ENOENT' });
  throw again;
}

async function tryMkdir(dir: string, mode: number): Promise<NodeJS.ErrnoException | null> {
  try {
    await fs.mkdir(dir, { mode });
    return null;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    // As `recursive: true` does: a folder already there is success, anything else there is not.
    if (err.code === 'EEXIST' && (await fs.stat(dir).then((s) => s.isDirectory(), () => false))) return null;
    return err;
  }
}
