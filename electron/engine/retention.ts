// Retention (which checkpoints to drop) and compaction (git gc).
//
// gc safety: objects are shared by every workspace, and `gc --prune=now` would
// delete objects that a snapshot in flight has written but not yet referenced
// from a ref. So compaction holds the store lock (no workspace can be
// registered meanwhile) and every workspace's lock (no snapshot or restore is
// in flight), which makes --prune=now safe and lets the size cap be measured
// right after it. A grace period instead would keep just-dropped objects and
// make the size cap unmeasurable. A private index that still names pruned
// objects (after an interrupted snapshot) is rebuilt by the next snapshot.
import fs from 'node:fs/promises';
import type { PruneResult } from '../../shared/model.js';
import { storeGit, type WsContext } from './layout/context.js';
import { dirSize } from './support/fsutil.js';
import { gitSimple, gitStdin } from './git/git-runner.js';
import { acquire, withLock } from './support/lock.js';
import { listRecords } from './list.js';
import type { CheckpointRecord } from './layout/message.js';
import { readMeta } from './layout/meta.js';
import { workspaceLayout, type StoreLayout } from './layout/paths.js';
import { sweepAllRefLocks, sweepRefLocks, sweepStoreTemps, TEMP_STALE_MS } from './layout/store-sweep.js';
import { upkeepLockTarget } from './upkeep.js';

// Lock order, everywhere: the upkeep lock (compaction only), the store lock,
// then workspace locks. Nothing that holds a workspace lock asks for the store
// lock (a prune that compacts takes the store lock before its own
// workspace's), and upkeep holds nothing but its own, so two compactions can
// never wait on each other in a cycle.

/**
 * Waits for a running upkeep (upkeep.ts) before compacting: its pack of every
 * object, unreachable ones too, would bring back what gc drops and spoil the
 * size the cap is measured by. Held without a workspace lock: snapshots go on.
 */
export function withUpkeepExcluded<T>(store: StoreLayout, fn: () => Promise<T>): Promise<T> {
  return withLock(upkeepLockTarget(store), fn, { what: 'the store (a background compression is running)', waitMs: UPKEEP_WAIT_MS });
}

/** How long a compaction waits for a background compression to finish. */
const UPKEEP_WAIT_MS = 15 * 60 * 1000;

/** gc of the shared repository, taking the upkeep lock, the store lock and then every workspace lock. */
export async function compactStore(store: StoreLayout): Promise<void> {
  await withUpkeepExcluded(store, () => withLock(store.storeLockTarget, () => compactStoreLocked(store), { what: 'the store' }));
}

/** gc; the caller holds the store lock, and the lock of workspace `held` if given. */
async function compactStoreLocked(store: StoreLayout, held?: string): Promise<void> {
  const ids = (await fs.readdir(store.workspacesDir).catch(() => [] as string[])).sort().filter((id) => id !== held);
  const releases: (() => Promise<void>)[] = [];
  try {
    for (const id of ids) releases.push(await acquire(workspaceLayout(store, id).lockTarget, { what: `workspace ${id}` }));
    // Every writer is held: whatever temporary or lock file is left, a killed process left it.
    await sweepAllRefLocks(store);
    await sweepStoreTemps(store, { olderThanMs: 0 });
    await gitSimple(storeGit(store), ['gc', '--quiet', '--prune=now']);
  } finally {
    for (const release of releases.reverse()) await release().catch(() => undefined);
  }
}

/** Whether a prune with these options will compact: the caller then takes the store lock first. */
export async function pruneWillCompact(ctx: WsContext, options: { compact?: boolean | 'never' }): Promise<boolean> {
  if (options.compact === 'never') return false;
  return options.compact === true || (await dirSize(ctx.store.home)) > ctx.settings.retention.max_store_mb * 1024 * 1024;
}

/**
 * Which checkpoints the count and age rules drop (records are newest first).
 * Pinned checkpoints count toward the maximum but are never dropped, nor is
 * the newest one; the oldest unpinned go first.
 */
export function selectExpired(records: CheckpointRecord[], pinned: Set<string>, maxCount: number, maxAgeDays: number, now: number): CheckpointRecord[] {
  const cutoff = now - maxAgeDays * 86_400_000;
  const droppable = records.slice(1).filter((r) => !pinned.has(r.checkpoint.id));
  const drop = new Set<CheckpointRecord>(droppable.filter((r) => maxAgeDays > 0 && r.checkpoint.time_ms < cutoff));
  let remaining = records.length - drop.size;
  for (const record of [...droppable].reverse()) {
    if (remaining <= maxCount) break;
    if (drop.has(record)) continue;
    drop.add(record);
    remaining -= 1;
  }
  return records.filter((r) => drop.has(r));
}

async function deleteRefs(ctx: WsContext, records: CheckpointRecord[]): Promise<void> {
  if (records.length === 0) return;
  const input = records.map((r) => `delete ${r.refname} ${r.checkpoint.id}\n`).join('');
  await gitStdin(storeGit(ctx.store), ['update-ref', '--stdin'], { input });
}

/**
 * Runs under the workspace lock (the caller holds it). Compacts only when the
 * caller also holds the store lock (taken before the workspace lock).
 */
export async function pruneWorkspace(ctx: WsContext, options: { compact?: boolean | 'never'; storeLocked?: boolean; protect?: readonly string[] }): Promise<PruneResult> {
  const storeBytes = () => dirSize(ctx.store.home);
  const before = await storeBytes();
  const policy = ctx.settings.retention;
  await sweepRefLocks(ctx);
  await sweepStoreTemps(ctx.store, { olderThanMs: TEMP_STALE_MS });
  let records = await listRecords(ctx);
  // Kept like pinned ones: those the caller names (named by an effect, a pending approval, on a person's screen).
  const pinned = new Set([...((await readMeta(ctx.layout.metaFile))?.pinned ?? []), ...(options.protect ?? [])]);
  const expired = selectExpired(records, pinned, policy.max_checkpoints, policy.max_age_days, Date.now());
  await deleteRefs(ctx, expired);
  const removed = expired.map((r) => r.checkpoint.id);
  const gone = new Set(removed);
  records = records.filter((r) => !gone.has(r.checkpoint.id));

  let gcRan = false;
  const capBytes = policy.max_store_mb * 1024 * 1024;
  if (options.storeLocked && options.compact !== 'never' && (options.compact === true || before > capBytes)) {
    await compactStoreLocked(ctx.store, ctx.id);
    gcRan = true;
    // Size cap: drop the oldest unpinned (never the newest) until under the cap,
    // measuring after compaction each round; each round drops a tenth.
    for (let round = 0; round < 20 && (await storeBytes()) > capBytes; round++) {
      const candidates = records.slice(1).filter((r) => !pinned.has(r.checkpoint.id)).reverse();
      if (candidates.length === 0) break;
      const batch = candidates.slice(0, Math.max(1, Math.ceil(candidates.length / 10)));
      await deleteRefs(ctx, batch);
      for (const r of batch) removed.push(r.checkpoint.id);
      const dropped = new Set(batch.map((r) => r.checkpoint.id));
      records = records.filter((r) => !dropped.has(r.checkpoint.id));
      await compactStoreLocked(ctx.store, ctx.id);
    }
  }
  return { removed, kept: records.length, gc_ran: gcRan, store_bytes_before: before, store_bytes_after: await storeBytes() };
}
