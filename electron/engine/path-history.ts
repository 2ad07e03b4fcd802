// One path's story: which checkpoints changed what sits at a path. Checkpoints
// are parentless commits, so `git log -- path` has no chain to walk; instead
// every checkpoint's tree is asked for the path's object id (`<tree>:<path>`)
// in one batch through the store's long-lived cat-file, and each answer is
// compared with the one of the checkpoint before it. Trees name their
// content, so a folder's id changes exactly when something inside it does.
// A glob (`src/**/*.ts`) cannot be looked up that way: its consecutive pairs
// of trees go to one `diff-tree --stdin` limited to the pattern instead.
import { ChronoscopeError } from '../../shared/errors.js';
import type { PathChange, PathHistory, PathHistoryEntry } from '../../shared/model.js';
import type { WsContext } from './context.js';
import { sharedInfo } from './check-server.js';
import { EMPTY_TREE, gitStdin } from './git-runner.js';
import { allRecords } from './list.js';

/** The object id at `rel` in each tree (null where absent), in order. */
async function idsAt(ctx: WsContext, trees: readonly string[], rel: string): Promise<(string | null)[]> {
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
  return lines.map((line) => {
    const [oid = '', type = ''] = line.split(' ');
    return /^[0-9a-f]{40,64}$/.test(oid) && type !== 'missing' ? oid : null;
  });
}

export function isGlob(rel: string): boolean {
  return /[*?[]/.test(rel);
}

/** For each tree, what changed under the glob since the tree before it (null: nothing). */
async function globChanges(ctx: WsContext, trees: readonly string[], glob: string): Promise<(PathChange | null)[]> {
  const input = trees.map((t, i) => `${i === 0 ? EMPTY_TREE : trees[i - 1]} ${t}\n`).join('');
  // Pathspec magic is off for every other git call (literal paths); here our
  // own `:(glob)` prefix needs it on. Only that leading magic is parsed: the
  // validated pattern after it is matched as a glob, nothing else.
  const { stdout } = await gitStdin({ ...ctx.git, plainPaths: true }, ['diff-tree', '--stdin', '-r', '--no-renames', '--name-status', '-z', '--', `:(glob)${glob}`], { input });
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
  for (let i = 0; i < trees.length; i++) {
    const set = letters.get(i);
    out.push(!set ? null : set.size === 1 && set.has('A') ? 'added' : set.size === 1 && set.has('D') ? 'deleted' : 'modified');
  }
  return out;
}

export async function pathHistory(ctx: WsContext, rel: string): Promise<PathHistory> {
  if (/[\r\n]/.test(rel)) throw new ChronoscopeError('bad_input', 'a path with a line break cannot be followed through history');
  const newestFirst = await allRecords(ctx);
  const oldestFirst = [...newestFirst].reverse();
  if (isGlob(rel)) {
    const changes = await globChanges(ctx, oldestFirst.map((r) => r.tree), rel);
    const entries: PathHistoryEntry[] = [];
    changes.forEach((change, i) => {
      if (change) entries.push({ id: oldestFirst[i]!.checkpoint.id, change });
    });
    return { path: rel, entries: entries.reverse(), scanned: oldestFirst.length };
  }
  const ids = await idsAt(ctx, oldestFirst.map((r) => r.tree), rel);
  const entries: PathHistoryEntry[] = [];
  let before: string | null = null;
  for (let i = 0; i < oldestFirst.length; i++) {
    const now = ids[i] ?? null;
    if (now !== before) {
      entries.push({ id: oldestFirst[i]!.checkpoint.id, change: before === null ? 'added' : now === null ? 'deleted' : 'modified' });
    }
    before = now;
  }
  return { path: rel, entries: entries.reverse(), scanned: oldestFirst.length };
}
