// Permission bits git cannot record. Git keeps 100644 or 100755 only, so a
// 0600 file would come back 0644 from a restore: more readable than it was.
// Each checkpoint's metadata holds the bits of every file that is neither 644
// nor 755 (message.ts `modes`), carried forward from the previous checkpoint
// and updated for the files this snapshot looked at. A chmod alone changes no
// content: the scan still lists the file (its stat data changed, scan.ts), and
// a snapshot whose tree is unchanged but whose modes are is recorded
// (modeChange), so the chmod is in the next checkpoint.
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

/** `previous` updated with the on-disk bits of `hashed` paths; undefined when empty. */
export async function nextModes(root: string, previous: Record<string, string>, hashed: readonly string[]): Promise<Record<string, string> | undefined> {
  const modes = { ...previous };
  // Synchronous stats in batches: a first snapshot looks at every file.
  await forEachInBatches(hashed, (rel) => {
    const st = lstatQuiet(path.join(root, rel));
    const bits = st?.isFile() ? st.mode & 0o777 : null;
    const usual = bits !== null && (bits === 0o644 || bits === 0o755);
    if (bits === null || usual) delete modes[rel];
    else modes[rel] = bits.toString(8).padStart(3, '0');
  });
  return Object.keys(modes).length > 0 ? modes : undefined;
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
