// Damaged trees. A checkpoint is only as good as its trees: an empty or
// damaged tree object (a disk fault, a power loss on a store from before
// objects were fsynced) makes it impossible to show or restore, while every
// other checkpoint stays usable.
//
// - `list` marks a checkpoint whose root tree cannot be read (markDamagedTrees).
//   Only loose root trees are read (one small file each, cached for the
//   process): a pack, git's or a snapshot's own (pack-write.ts), is written
//   whole and fsynced before it is named. It also
//   marks the checkpoints found damaged deeper down by an earlier show, diff
//   or restore (remembered in the workspace's `damaged.json`).
// - What writes a checkpoint's content (restore and its preview, fork) first
//   reads its trees (assertTreeReadable), so a damaged one gives one clear line
//   and nothing happens — no safety checkpoint, no write. Only the trees that
//   differ from the latest checkpoint's are read (a subtree both share is what
//   the disk holds, unless changed since): a restore to a recent checkpoint
//   reads a few trees, one to an old checkpoint up to all of them. Trees read
//   back whole are remembered for the process.
// - show and diff only read (git reads the trees it compares): a failure of
//   theirs that names a damaged object is turned into the same line
//   (explainDamage), at no cost when nothing is damaged.
import path from 'node:path';
import fs from 'node:fs/promises';
import { ChronoscopeError } from '../../../shared/errors.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import { readTextBounded } from '../../fs/bounded-read.js';
import type { CheckpointRecord } from '../layout/message.js';
import type { GitContext } from '../git/git-env.js';
import { mapLimit } from '../support/fsutil.js';
import { EMPTY_TREE, GitFailure } from '../git/git-runner.js';
import { readLooseWhole } from '../objects/loose-read.js';
import { isTreeMode, parseTree, readTree, type TreeEntry } from './tree-read.js';

/** `<gitDir>\0<tree id>` of trees read back whole (with all their subtrees) in this process. */
const verified = new Set<string>();
const MAX_REMEMBERED = 200_000;

function remember(key: string): void {
  if (verified.size >= MAX_REMEMBERED) verified.clear();
  verified.add(key);
}

/**
 * A tree's entries; throws when it cannot be read. A loose tree is read from
 * its file only (never through git, which would print its own complaint); a
 * packed one through the store's long-lived reader (tree-read.ts).
 */
async function readTreeChecked(gitCtx: GitContext, tree: string): Promise<TreeEntry[]> {
  const file = path.join(gitCtx.gitDir, 'objects', tree.slice(0, 2), tree.slice(2));
  const st = await fs.lstat(file).catch(() => null);
  if (!st) return readTree(gitCtx, tree);
  const loose = st.size > 0 ? await readLooseWhole(gitCtx.gitDir, tree) : null;
  if (loose?.type !== 'tree') throw new ChronoscopeError('internal', `tree ${tree} is damaged`);
  return parseTree(loose.data);
}

/** True when the tree is a loose object that cannot be read back as a tree (empty, truncated, not a tree); packed ones are not read. */
async function looseTreeDamaged(gitDir: string, tree: string): Promise<boolean> {
  const file = path.join(gitDir, 'objects', tree.slice(0, 2), tree.slice(2));
  if (!(await fs.lstat(file).then(() => true, () => false))) return false;
  return readTreeChecked({ gitDir }, tree).then(
    () => false,
    () => true,
  );
}

/** Checkpoints found damaged below their root tree, remembered for `list` (the newest few hundred). */
const FOUND_FILE = 'damaged.json';
const FOUND_MAX = 500;

async function foundDamaged(wsDir: string): Promise<string[]> {
  try {
    const raw: unknown = JSON.parse(await readTextBounded(path.join(wsDir, FOUND_FILE), 64 * 1024));
    return Array.isArray(raw) ? raw.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Remembers a damaged checkpoint; a reader may call it (a lost update only loses a mark). */
async function rememberDamaged(wsDir: string, id: string): Promise<void> {
  const known = await foundDamaged(wsDir);
  if (known.includes(id)) return;
  await writeFileAtomic(path.join(wsDir, FOUND_FILE), JSON.stringify([...known, id].slice(-FOUND_MAX)), { mode: 0o600 }).catch(() => undefined);
}

/** The records with those whose tree is damaged marked (damaged, as for an unreadable commit). */
export async function markDamagedTrees(gitDir: string, wsDir: string, records: CheckpointRecord[]): Promise<CheckpointRecord[]> {
  const found = new Set(await foundDamaged(wsDir));
  const damaged = new Set<string>();
  for (const r of records) if (found.has(r.checkpoint.id)) damaged.add(r.tree);
  const trees = [...new Set(records.filter((r) => !r.checkpoint.damaged && r.tree !== '' && r.tree !== EMPTY_TREE).map((r) => r.tree))].filter(
    (tree) => !verified.has(`${gitDir}\0${tree}`) && !rootChecked.has(`${gitDir}\0${tree}`),
  );
  const loose = await looseAmong(gitDir, trees);
  await mapLimit(trees, 32, async (tree) => {
    if (loose !== null && !loose.has(tree)) {
      markRootChecked(gitDir, tree); // packed: a pack is written whole and fsynced before it is named
      return;
    }
    if (await looseTreeDamaged(gitDir, tree)) damaged.add(tree);
    else markRootChecked(gitDir, tree);
  });
  if (damaged.size === 0) return records;
  return records.map((r) => (damaged.has(r.tree) ? { ...r, checkpoint: { ...r.checkpoint, damaged: true } } : r));
}

/** Root trees `list` found readable (their subtrees unchecked). */
const rootChecked = new Set<string>();

function markRootChecked(gitDir: string, tree: string): void {
  if (rootChecked.size >= MAX_REMEMBERED) rootChecked.clear();
  rootChecked.add(`${gitDir}\0${tree}`);
}

/** From this many trees on, listing their fan-out folders is cheaper than one lstat each (mostly of a file that is not there). */
const LIST_FANOUT_FROM = 256;

/**
 * Which of `trees` are loose objects, by one readdir per fan-out folder they
 * fall in; null for a few trees (each is looked at on its own). A first
 * listing of 10,000 checkpoints from a compressed store made 10,000 lstat
 * calls that nearly all failed: ~450 ms of the listing, against ~30 ms here.
 * A tree written loose after the readdir is one a checkpoint made later, not
 * one of these (a ref names a commit only after its trees are written).
 */
async function looseAmong(gitDir: string, trees: readonly string[]): Promise<Set<string> | null> {
  if (trees.length < LIST_FANOUT_FROM) return null;
  const fanouts = [...new Set(trees.map((t) => t.slice(0, 2)))];
  const loose = new Set<string>();
  await mapLimit(fanouts, 16, async (fanout) => {
    for (const name of await fs.readdir(path.join(gitDir, 'objects', fanout)).catch(() => [] as string[])) loose.add(fanout + name);
  });
  return loose;
}

/**
 * Reads every tree of the checkpoint; throws one line naming it when any
 * cannot be read. Nothing has been changed when it throws.
 */
export async function assertTreeReadable(gitCtx: GitContext, wsDir: string, record: CheckpointRecord, against?: string): Promise<void> {
  if (record.tree === '' || record.tree === EMPTY_TREE) return;
  const bad = await firstUnreadable(gitCtx, record.tree, against);
  if (bad !== null) throw await damaged(wsDir, record, bad);
}

/** What naming a damaged checkpoint needs of it. */
type Named = Pick<CheckpointRecord, 'tree' | 'hermes'> & { checkpoint: { id: string } };

async function damaged(wsDir: string, record: Named, bad: string): Promise<ChronoscopeError> {
  if (!record.hermes) await rememberDamaged(wsDir, record.checkpoint.id);
  return new ChronoscopeError(
    'internal',
    `checkpoint ${record.checkpoint.id.slice(0, 12)} is damaged (its tree ${bad.slice(0, 12)} cannot be read): it cannot be shown, compared or restored; nothing was changed; other checkpoints are unaffected`,
  );
}

/** What git says when an object it needs is empty, truncated or gone. */
const DAMAGE = /object file .* is empty|unable to read|inflate|corrupt|bad object|invalid object|not a tree object|missing (tree|blob|object)/i;

/**
 * Runs a read-only comparison; if git fails on a damaged object, says which
 * of `records` is damaged, in the same one line as assertTreeReadable.
 */
export async function explainDamage<T>(gitCtx: GitContext, wsDir: string, records: readonly Named[], run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof GitFailure) || !DAMAGE.test(err.stderr)) throw err;
    for (const record of records) {
      const bad = record.tree === '' || record.tree === EMPTY_TREE ? null : await firstUnreadable(gitCtx, record.tree);
      if (bad !== null) throw await damaged(wsDir, record, bad);
    }
    throw err;
  }
}

/** The first tree under `root` that cannot be read, or null when all can; subtrees equal to those of `against` at the same place are not read. */
async function firstUnreadable(gitCtx: GitContext, root: string, against?: string): Promise<string | null> {
  let bad: string | null = null;
  const visit = async (tree: string, other: string | undefined): Promise<void> => {
    const key = `${gitCtx.gitDir}\0${tree}`;
    if (bad !== null || tree === other || verified.has(key)) return;
    let entries: TreeEntry[];
    try {
      entries = await readTreeChecked(gitCtx, tree);
    } catch {
      bad ??= tree;
      return;
    }
    // The other side's entries by name (unreadable there: compare with nothing).
    const others = other === undefined ? new Map<string, string>() : new Map((await readTreeChecked(gitCtx, other).catch(() => [])).map((e) => [e.name.toString('latin1'), e.oid]));
    await mapLimit(
      entries.filter((e) => isTreeMode(e.mode)),
      8,
      (e) => visit(e.oid, others.get(e.name.toString('latin1'))),
    );
    // Remembered only when read whole (nothing skipped as shared).
    if (bad === null && other === undefined) remember(key);
  };
  await visit(root, against);
  return bad;
}
