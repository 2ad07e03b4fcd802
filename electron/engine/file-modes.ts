// Permission bits git cannot record. Git keeps 100644 or 100755 only, so a
// 0600 file would come back 0644 from a restore: more readable than it was.
// Each checkpoint's metadata holds the bits of every file that is neither 644
// nor 755 (message.ts `modes`), carried forward from the previous checkpoint
// and updated for the files this snapshot looked at. A chmod alone changes no
// content: the scan still lists the file (its stat data changed, scan.ts), and
// a snapshot whose tree is unchanged but whose modes are is recorded
// (modeChange), so the chmod is in the next checkpoint.
//
// Folders too: a folder that is not 755 is recorded under its path with a
// trailing '/' ("secret/": "700"), looked at whenever a file below it is, so a
// deleted 0700 folder comes back 0700 (restore, fork). A folder chmodded with
// no file below it touched is noticed at the next change below it.
import path from 'node:path';
import type { WsContext } from './layout/context.js';
import { forEachInBatches, lstatQuiet } from './support/fsutil.js';
import { git } from './git/git-runner.js';
import { wholeObjectInNode } from './objects/object-read.js';
import { decodeMessage } from './layout/message.js';

/**
 * What this process knows checkpoints recorded, by store and commit: a commit
 * never changes, and the checkpoint a snapshot builds on is usually the one
 * this process just wrote (rememberModes), so the hot path reads nothing.
 */
const known = new Map<string, Readonly<Record<string, string>>>();
const KNOWN_MAX = 256;

/** Notes the modes a checkpoint just written records. */
export function rememberModes(ctx: WsContext, commit: string, modes: Record<string, string> | undefined): void {
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(`${ctx.store.gitDir}\0${commit}`, { ...(modes ?? {}) });
}

/** The `modes` a checkpoint recorded (empty when none or unreadable). */
export async function recordedModes(ctx: WsContext, commit: string): Promise<Record<string, string>> {
  const key = `${ctx.store.gitDir}\0${commit}`;
  const remembered = known.get(key);
  if (remembered) return { ...remembered };
  // Commits are small: one read in Node (loose or in a pack of ours), else git.
  const loose = await wholeObjectInNode(ctx.store.gitDir, commit);
  let text: string | null = loose?.type === 'commit' ? loose.data.toString('utf8') : null;
  if (text === null) text = await git(ctx.git, ['cat-file', 'commit', commit]).catch(() => null);
  if (text === null) return {};
  const split = text.indexOf('\n\n');
  const modes = split < 0 ? {} : (decodeMessage(text.slice(split + 2)).meta.modes ?? {});
  rememberModes(ctx, commit, modes);
  return { ...modes };
}

/** `previous` updated with the on-disk bits of `hashed` paths and of the folders above them; undefined when empty. */
export async function nextModes(root: string, previous: Record<string, string>, hashed: readonly string[]): Promise<Record<string, string> | undefined> {
  const modes = { ...previous };
  const note = (key: string, bits: number | null, usual: readonly number[]): void => {
    if (bits === null || usual.includes(bits)) delete modes[key];
    else modes[key] = bits.toString(8).padStart(3, '0');
  };
  const folders = new Set<string>();
  // Synchronous stats in batches: a first snapshot looks at every file.
  await forEachInBatches(hashed, (rel) => {
    const st = lstatQuiet(path.join(root, rel));
    note(rel, st?.isFile() ? st.mode & 0o777 : null, [0o644, 0o755]);
    for (let dir = path.posix.dirname(rel); dir !== '.' && !folders.has(dir); dir = path.posix.dirname(dir)) folders.add(dir);
  });
  await forEachInBatches([...folders], (dir) => {
    const st = lstatQuiet(path.join(root, dir));
    note(`${dir}/`, st?.isDirectory() ? st.mode & 0o777 : null, [0o755]);
  });
  return Object.keys(modes).length > 0 ? modes : undefined;
}

/** The recorded bits of files (by path). */
export function fileModes(modes: Readonly<Record<string, string>> | undefined): Map<string, number> {
  return new Map(Object.entries(modes ?? {}).filter(([p]) => !p.endsWith('/')).map(([p, m]) => [p, parseInt(m, 8)] as const));
}

/**
 * The mode a missing folder is created with (the umask still applies): the
 * one recorded for it, else 0755, which is what no record means (folders that
 * are not 755 are recorded). Checkpoints from before folders were recorded
 * have none: their 0700 folders come back 0755 (narrowed by the umask), inside
 * a fork folder that itself has the workspace folder's mode.
 */
export function folderModes(modes: Readonly<Record<string, string>> | undefined): (rel: string) => number {
  const recorded = new Map(Object.entries(modes ?? {}).filter(([p]) => p.endsWith('/')).map(([p, m]) => [p.slice(0, -1), parseInt(m, 8)] as const));
  return (rel) => recorded.get(rel) ?? 0o755;
}

/**
 * The modes the next checkpoint records after `latest`, and whether they
 * differ from what `latest` recorded. Nothing is read when no path was
 * looked at (a snapshot with nothing changed costs nothing here).
 */
export async function modeChange(ctx: WsContext, latest: string | undefined, touched: readonly string[]): Promise<{ modes: Record<string, string> | undefined; changed: boolean }> {
  const previous = latest ? await recordedModes(ctx, latest) : {};
  if (touched.length === 0) return { modes: Object.keys(previous).length > 0 ? previous : undefined, changed: false };
  const modes = await nextModes(ctx.root, previous, touched);
  const before = JSON.stringify(Object.entries(previous).sort());
  const after = JSON.stringify(Object.entries(modes ?? {}).sort());
  return { modes, changed: before !== after };
}
