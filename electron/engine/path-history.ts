// One path's story: which checkpoints changed what sits at a path. Checkpoints
// are parentless commits, so `git log -- path` has no chain to walk; instead
// every checkpoint's tree is asked for the path's object id (`<tree>:<path>`)
// in one batch through the store's long-lived cat-file, and each answer is
// compared with the one of the checkpoint before it. Trees name their
// content, so a folder's id changes exactly when something inside it does.
// A glob (`src/**/*.ts`) cannot be looked up that way: its consecutive pairs
// of trees go to one `diff-tree --stdin` limited to the pattern instead.
//
// Hermes Agent's /rollback checkpoints (lanes.ts) take part too: each is
// compared with the one before it in Hermes' own chain (what `show` counts
// as its change), asked of Hermes' store, which is only read. A Hermes store
// that cannot be read leaves its lane out; our own story never fails for it.
import { ChronoscopeError } from '../../shared/errors.js';
import type { PathChange, PathHistory, PathHistoryEntry } from '../../shared/model.js';
import { hermesGit } from './foreign/hermes-store.js';
import type { WsContext } from './layout/context.js';
import { sharedInfo } from './git/cat-file-server.js';
import type { GitContext } from './git/git-env.js';
import { EMPTY_TREE, gitStdin } from './git/git-runner.js';
import { laneOrWarn, mergeNewestFirst } from './foreign/lanes.js';
import { allRecords } from './list.js';

/** The object id at `rel` in each tree (null where absent), in order. */
async function idsAt(ctx: WsContext, trees: readonly string[], rel: string): Promise<(string | null)[]> {
  return (await objectsAt(ctx, trees, rel)).map((o) => o?.oid ?? null);
}

/** The object (id and type: blob, tree, commit for a submodule) at `rel` in each tree, null where absent. */
export async function objectsAt(ctx: WsContext, trees: readonly string[], rel: string): Promise<({ oid: string; type: string } | null)[]> {
  const specs = trees.map((t) => `${t}:${rel}`);
  let lines: string[];
  try {
    lines = await sharedInfo(ctx.git, specs);
  } catch (err) {
    if (err instanceof ChronoscopeError && err.code === 'bad_input') throw err;
    // The shared process could not answer: one cat-file of our own.
    const { stdout } = await gitStdin(ctx.git, ['cat-file', '--batch-check'], { input: specs.map((s) => `${s}\n`).join('') });
    lines = stdout.toString('utf8').split('\n').slice(0, specs.length);
  }
  return lines.map(objectOf);
}

function objectOf(line: string): { oid: string; type: string } | null {
  const [oid = '', type = ''] = line.split(' ');
  return /^[0-9a-f]{40,64}$/.test(oid) && type !== 'missing' ? { oid, type } : null;
}

function oidOf(line: string): string | null {
  return objectOf(line)?.oid ?? null;
}

/** How `rel` went from `before` to `now` (object ids, null where absent); null when it did not change. */
function changeOf(before: string | null, now: string | null): PathChange | null {
  if (now === before) return null;
  return before === null ? 'added' : now === null ? 'deleted' : 'modified';
}

export function isGlob(rel: string): boolean {
  return /[*?[]/.test(rel);
}

/** For each pair of trees [before, after], what changed under the glob (null: nothing). */
async function globChanges(git: GitContext, pairs: readonly (readonly [string, string])[], glob: string): Promise<(PathChange | null)[]> {
  const input = pairs.map(([before, after]) => `${before} ${after}\n`).join('');
  // Pathspec magic is off for every other git call (literal paths); here our
  // own `:(glob)` prefix needs it on. Only that leading magic is parsed: the
  // validated pattern after it is matched as a glob, nothing else.
  const { stdout } = await gitStdin({ ...git, plainPaths: true }, ['diff-tree', '--stdin', '-r', '--no-renames', '--name-status', '-z', '--', `:(glob)${glob}`], { input });
  const text = stdout.toString('utf8');
  const out: (PathChange | null)[] = [];
  const header = /^[0-9a-f]{40,64} [0-9a-f]{40,64}\n/;
  let at = 0;
  let current = -1;
  const letters = new Map<number, Set<string>>();
  while (at < text.length) {
    const m = header.exec(text.slice(at, at + 140));
    if (m) {
      current++;
      at += m[0].length;
      continue;
    }
    const statusEnd = text.indexOf('\0', at);
    const pathEnd = statusEnd < 0 ? -1 : text.indexOf('\0', statusEnd + 1);
    if (statusEnd < 0 || pathEnd < 0 || current < 0) break;
    const letter = text.slice(at, statusEnd).charAt(0);
    const set = letters.get(current) ?? new Set<string>();
    set.add(letter);
    letters.set(current, set);
    at = pathEnd + 1;
  }
  for (let i = 0; i < pairs.length; i++) {
    const set = letters.get(i);
    out.push(!set ? null : set.size === 1 && set.has('A') ? 'added' : set.size === 1 && set.has('D') ? 'deleted' : 'modified');
  }
  return out;
}

/** Each tree paired with the one before it, the first with the empty tree. */
function consecutive(trees: readonly string[]): [string, string][] {
  return trees.map((t, i) => [i === 0 ? EMPTY_TREE : (trees[i - 1] as string), t]);
}

interface TimedEntry {
  entry: PathHistoryEntry;
  time_ms: number;
}

/** Our own checkpoints that changed `rel`, newest first, and how many were looked at. */
async function ownChanges(ctx: WsContext, rel: string): Promise<{ entries: TimedEntry[]; scanned: number }> {
  const oldestFirst = [...(await allRecords(ctx))].reverse();
  const trees = oldestFirst.map((r) => r.tree);
  let changes: (PathChange | null)[];
  if (isGlob(rel)) changes = await globChanges(ctx.git, consecutive(trees), rel);
  else {
    const ids = await idsAt(ctx, trees, rel);
    changes = ids.map((now, i) => changeOf(i === 0 ? null : (ids[i - 1] ?? null), now ?? null));
  }
  const entries: TimedEntry[] = [];
  changes.forEach((change, i) => {
    const c = oldestFirst[i]!.checkpoint;
    if (change) entries.push({ entry: { id: c.id, change }, time_ms: c.time_ms });
  });
  return { entries: entries.reverse(), scanned: oldestFirst.length };
}

/** Hermes' checkpoints that changed `rel`, each against its predecessor in Hermes' chain, newest first. */
async function hermesChanges(ctx: WsContext, rel: string): Promise<{ entries: TimedEntry[]; scanned: number }> {
  const lane = await laneOrWarn(ctx);
  if (lane === null || lane.records.length === 0) return { entries: [], scanned: 0 };
  const git = hermesGit(lane.store);
  let changes: (PathChange | null)[];
  try {
    if (isGlob(rel)) changes = await globChanges(git, lane.records.map((r) => [r.parentTree ?? EMPTY_TREE, r.tree] as const), rel);
    else {
      // One batch for both sides of every checkpoint; Hermes' store, read only.
      const specs = lane.records.flatMap((r) => [`${r.tree}:${rel}`, `${r.parentTree ?? EMPTY_TREE}:${rel}`]);
      const { stdout } = await gitStdin(git, ['cat-file', '--batch-check'], { input: specs.map((spec) => `${spec}\n`).join('') });
      const ids = stdout.toString('utf8').split('\n').slice(0, specs.length).map(oidOf);
      changes = lane.records.map((_, i) => changeOf(ids[2 * i + 1] ?? null, ids[2 * i] ?? null));
    }
  } catch {
    return { entries: [], scanned: 0 }; // a damaged Hermes store: its lane is left out, as in list
  }
  const entries: TimedEntry[] = [];
  changes.forEach((change, i) => {
    const c = lane.records[i]!.checkpoint;
    if (change) entries.push({ entry: { id: c.id, change }, time_ms: c.time_ms });
  });
  return { entries, scanned: lane.records.length };
}

export async function pathHistory(ctx: WsContext, rel: string): Promise<PathHistory> {
  if (/[\r\n]/.test(rel)) throw new ChronoscopeError('bad_input', 'a path with a line break cannot be followed through history');
  const [ours, theirs] = await Promise.all([ownChanges(ctx, rel), hermesChanges(ctx, rel)]);
  const merged = mergeNewestFirst(ours.entries, theirs.entries, (e) => e.time_ms);
  return { path: rel, entries: merged.map((e) => e.entry), scanned: ours.scanned + theirs.scanned };
}
