// Files whose chmod a full scan could miss. Git compares ctime to the second
// (Debian's git is built without nanosecond stat checks) and a permission
// change alters nothing else it compares, so a file recorded in second S and
// chmodded later in that same second looks unchanged to `diff-files`. After
// each snapshot, the files it looked at whose ctime is still in the current
// second are remembered here; the next full scan looks at their permission
// bits again (file-modes.ts), and drops them once a later second has begun.
import fs from 'node:fs/promises';
import path from 'node:path';
import { readTextBounded } from '../../fs/bounded-read.js';
import type { WsContext } from '../layout/context.js';
import { forEachInBatches, lstatQuiet } from '../support/fsutil.js';

const FILE = 'ctime-racy.json';
/** A first snapshot of a larger workspace is not looked at again (documented gap: a chmod in its last second). */
const MAX_CHECKED = 20_000;
const MAX_BYTES = 4 * 1024 * 1024;

/** Paths the previous snapshot left in the racy second (none when the file is absent or unreadable). */
export async function ctimeRacyPaths(ctx: WsContext): Promise<string[]> {
  const text = await readTextBounded(path.join(ctx.layout.dir, FILE), MAX_BYTES).catch(() => null);
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** Remembers which of `looked` still have a ctime in the current second; `previous` is what was remembered before. */
export async function rememberCtimeRacy(ctx: WsContext, looked: readonly string[], previous: readonly string[]): Promise<void> {
  const nowSecond = Math.floor(Date.now() / 1000);
  const racy: string[] = [];
  if (looked.length <= MAX_CHECKED) {
    await forEachInBatches(looked, (rel) => {
      const st = lstatQuiet(path.join(ctx.root, rel));
      if (st?.isFile() && Math.floor(st.ctimeMs / 1000) >= nowSecond) racy.push(rel);
    });
  }
  if (racy.length === 0 && previous.length === 0) return;
  const file = path.join(ctx.layout.dir, FILE);
  // A hint, written in place (no temporary file and rename on the snapshot's path): one torn by a
  // crash reads as empty, which costs at most a chmod in that second going unseen by a full scan.
  if (racy.length === 0) await fs.rm(file, { force: true });
  else await fs.writeFile(file, `${JSON.stringify(racy.sort())}\n`, { mode: 0o600 });
}
