// Brings the private index up to date after a snapshot that did not use it
// (tree-update.ts), off the snapshot's critical path: the index is git's stat
// cache, and a stale entry would make the next full scan re-read that file.
//
// It runs after the snapshot returned, under the workspace lock of its own:
// one `update-index` of the snapshot's paths (git re-reads only those). The
// head file may then say the index holds the checkpoint's tree (so the next
// scan can skip write-tree) only when that is provably so: the index was the
// previous checkpoint's tree before, the checkpoint is still the latest, and
// no path changed on disk since it was hashed. Otherwise the head keeps no
// index signature and the next scan writes the tree: slower, never wrong.
//
// Writers in this process wait for a pending sync before taking the lock
// (settleIndex), so they never meet it on the lock; a process that exits
// first (the CLI waits for it) leaves a stale cache, which is all it is.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { WsContext } from './context.js';
import { gitStdin } from './git-runner.js';
import { indexSignature, latestHead, writeHead } from './head.js';
import { withLock } from './lock.js';
import { fileSignature } from './tree-update.js';

export interface IndexSyncJob {
  /** The checkpoint the snapshot wrote. */
  commit: string;
  /** The index's signature when it held the previous checkpoint's tree; null when it did not. */
  indexBefore: string | null;
  /** Path → file signature as hashed (null: gone). */
  seen: ReadonlyMap<string, string | null>;
}

const pending = new Map<string, Promise<void>>();

/** Starts the sync in the background; failures only leave the cache stale. */
export function syncIndexLater(ctx: WsContext, job: IndexSyncJob): void {
  const key = ctx.layout.indexFile;
  const previous = pending.get(key) ?? Promise.resolve();
  const run = previous.then(() => syncIndex(ctx, job)).catch(() => undefined);
  pending.set(key, run);
  void run.finally(() => {
    if (pending.get(key) === run) pending.delete(key);
  });
}

/** Resolves once no sync of this workspace's index is pending (call before taking its lock). */
export async function settleIndex(ctx: WsContext): Promise<void> {
  await pending.get(ctx.layout.indexFile);
}

/** Every pending sync of this process (the CLI waits for them before it exits). */
export async function settleAllIndexes(): Promise<void> {
  while (pending.size > 0) await Promise.all(pending.values());
}

async function syncIndex(ctx: WsContext, job: IndexSyncJob): Promise<void> {
  await withLock(
    ctx.layout.lockTarget,
    async () => {
      const indexFile = ctx.layout.indexFile;
      const before = await indexSignature(indexFile);
      // We hold the workspace lock: an index.lock is a killed writer's leftover.
      await fs.rm(`${indexFile}.lock`, { force: true });
      const input = [...job.seen.keys()].map((p) => `${p}\0`).join('');
      await gitStdin(ctx.git, ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], { input });
      if (job.indexBefore === null || before !== job.indexBefore) return;
      const head = await latestHead(ctx);
      if (head?.id !== job.commit) return;
      for (const [rel, signature] of job.seen) {
        const st = await fs.lstat(path.join(ctx.root, rel)).catch(() => null);
        if ((st === null ? null : fileSignature(st)) !== signature) return;
      }
      const after = await indexSignature(indexFile);
      if (after !== null) await writeHead(ctx, { ...head, index: after });
    },
    { what: `workspace ${ctx.root}`, waitMs: 10_000 },
  );
}
