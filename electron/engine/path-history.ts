// One path's story: which checkpoints changed what sits at a path. Checkpoints
// are parentless commits, so `git log -- path` has no chain to walk; instead
// every checkpoint's tree is asked for the path's object id (`<tree>:<path>`)
// in one batch through the store's long-lived cat-file, and each answer is
// compared with the one of the checkpoint before it. Trees name their
// content, so a folder's id changes exactly when something inside it does.
import { ChronoscopeError } from '../../shared/errors.js';
import type { PathHistory, PathHistoryEntry } from '../../shared/model.js';
import type { WsContext } from './context.js';
import { sharedInfo } from './check-server.js';
import { gitStdin } from './git-runner.js';
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

export async function pathHistory(ctx: WsContext, rel: string): Promise<PathHistory> {
  if (/[\r\n]/.test(rel)) throw new ChronoscopeError('bad_input', 'a path with a line break cannot be followed through history');
  const newestFirst = await allRecords(ctx);
  const oldestFirst = [...newestFirst].reverse();
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
