// Read-only views the prompt readers (electron/prompts/) need from the store,
// in batches so their cost stays one or two git processes however long the
// history is:
//  - pathVersions: every version of one file, oldest first, with its text —
//    what `chronoscope why` blames over (checkpoints are parentless commits,
//    so there is no `git blame`; path-history.ts's one cat-file batch finds
//    the checkpoints where the file's blob changed, one more reads them);
//  - changedFileCounts: for pairs of checkpoints, how many files differ —
//    one `diff-tree --stdin` over every pair (a prompt's "files changed").
import type { Checkpoint } from '../../shared/model.js';
import type { PathVersion } from './api.js';
import type { WsContext } from './layout/context.js';
import { EMPTY_TREE, gitStdin } from './git/git-runner.js';
import { allRecords } from './list.js';
import { readObjectsLimited } from './objects/cat-file.js';
import { objectsAt } from './path-history.js';

/** Each version of the file at `rel`, oldest first: one entry per checkpoint where its content changed. */
export async function pathVersions(ctx: WsContext, rel: string, maxBytes: number): Promise<PathVersion[]> {
  const oldestFirst = [...(await allRecords(ctx))].reverse();
  // What is not a file there (a folder, a submodule) counts as absent: only a file has lines.
  const ids = (await objectsAt(ctx, oldestFirst.map((r) => r.tree), rel)).map((o) => (o?.type === 'blob' ? o.oid : null));
  const changed: { checkpoint: Checkpoint; oid: string | null }[] = [];
  let before: string | null = null;
  oldestFirst.forEach((record, i) => {
    const now = ids[i] ?? null;
    if (now !== before) changed.push({ checkpoint: record.checkpoint, oid: now });
    before = now;
  });
  const blobs = await readObjectsLimited(ctx.git, [...new Set(changed.flatMap((c) => (c.oid ? [c.oid] : [])))], maxBytes);
  return changed.map(({ checkpoint, oid }): PathVersion => {
    const blob = oid ? blobs.get(oid) : undefined;
    if (!oid || !blob) return { checkpoint, oid: null, text: null };
    if (blob.data === null) return { checkpoint, oid, text: null, unreadable: 'too_large' };
    if (blob.data.includes(0)) return { checkpoint, oid, text: null, unreadable: 'binary' };
    return { checkpoint, oid, text: blob.data.toString('utf8') };
  });
}

/**
 * For each pair [from, to] of checkpoint ids (from null: nothing before), how many files differ
 * between their trees; null where either is not one of this workspace's checkpoints.
 */
export async function changedFileCounts(ctx: WsContext, pairs: readonly (readonly [string | null, string])[]): Promise<(number | null)[]> {
  if (pairs.length === 0) return [];
  const trees = new Map((await allRecords(ctx)).map((r) => [r.checkpoint.id, r.tree]));
  const treePairs = pairs.map(([from, to]) => {
    const a = from === null ? EMPTY_TREE : trees.get(from);
    const b = trees.get(to);
    return a && b ? ([a, b] as const) : null;
  });
  const known = treePairs.filter((p): p is readonly [string, string] => p !== null);
  const counts = known.length === 0 ? [] : await countPairs(ctx, known);
  let at = 0;
  return treePairs.map((p) => (p === null ? null : (counts[at++] ?? 0)));
}

/** One `diff-tree --stdin`: git prints a header line for every pair (changed or not), then its paths, NUL-ended. */
async function countPairs(ctx: WsContext, pairs: readonly (readonly [string, string])[]): Promise<number[]> {
  const input = pairs.map(([a, b]) => `${a} ${b}\n`).join('');
  const { stdout } = await gitStdin(ctx.git, ['diff-tree', '--stdin', '-r', '--no-renames', '--name-only', '-z'], { input });
  const text = stdout.toString('utf8');
  const header = /^[0-9a-f]{40,64} [0-9a-f]{40,64}\n/;
  const counts: number[] = [];
  let at = 0;
  while (at < text.length) {
    const m = header.exec(text.slice(at, at + 140));
    if (m) {
      counts.push(0);
      at += m[0].length;
      continue;
    }
    const end = text.indexOf('\0', at);
    if (end < 0 || counts.length === 0) break;
    counts[counts.length - 1] = (counts[counts.length - 1] ?? 0) + 1;
    at = end + 1;
  }
  return counts;
}
