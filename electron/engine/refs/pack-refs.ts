// Packing the checkpoint refs, as `git gc` does, by git's own `pack-refs`.
//
// Why: a snapshot writes one loose ref file per checkpoint, and nothing else
// ever folds them. At 100,000 checkpoints that is 100,000 files of 41 bytes
// (a disk block each), and every reader that lists them — git's for-each-ref
// (3.6 s loose, 1.4 s packed on the seeded history), a readdir — pays per
// file. Packed, they are one sorted file.
//
// Safe beside snapshots without any of our locks: git writes packed-refs
// under `packed-refs.lock`, then removes each loose ref it packed only under
// that ref's own `<ref>.lock` and only while it still holds the packed value
// (git's ref transaction). Our snapshots create refs through the same
// `<ref>.lock` protocol (objects/loose-write.ts) and only ever new names, so a
// ref created while git runs is not in its listing and simply stays loose.
// Every reader of ours looks in packed-refs too (refs/checkpoint-refs.ts,
// check.ts), and removal goes through `git update-ref` (retention.ts), which
// rewrites packed-refs. A kill at any moment leaves either the old or the new
// packed-refs (git renames its lock file into place), plus loose refs that
// are still valid (a loose ref wins over a packed one of the same value).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { StoreLayout } from '../layout/paths.js';

/**
 * Due from this many loose checkpoint refs in the store. git's gc packs every ref at every run;
 * ours need not be that eager (each run rewrites all of packed-refs: ~9 MB at 100,000), but a
 * thousand loose files already cost a listing ~1 s per 100,000 (docs/performance.md).
 */
export const LOOSE_REFS_LIMIT = 1000;

/** Loose checkpoint ref files in the store: one readdir per workspace's `cp` folder. */
export async function looseCheckpointRefCount(store: StoreLayout): Promise<number> {
  const base = path.join(store.gitDir, 'refs', 'chronoscope');
  const workspaces = await fs.readdir(base).catch(() => [] as string[]);
  const counts = await Promise.all(
    workspaces.map(async (id) => (await fs.readdir(path.join(base, id, 'cp')).catch(() => [] as string[])).filter((n) => !n.endsWith('.lock')).length),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** The arguments: every ref (ours are not tags, which `pack-refs` alone would limit itself to), loose files removed. */
export const PACK_REFS_ARGS = ['pack-refs', '--all', '--prune'] as const;
