// Retention (which checkpoints go, into the trash: retention/) and compaction (git gc).
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
import path from 'node:path';
import type { PruneResult, StoreInfo } from '../../shared/model.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { storeGit, type WsContext } from './layout/context.js';
import { dirSize } from './support/fsutil.js';
import { gitSimple } from './git/git-runner.js';
import { acquire, withLock } from './support/lock.js';
import { listRecords } from './list.js';
import type { PruneOptions } from './api.js';
import type { CheckpointRecord } from './layout/message.js';
import { budgetBytes } from './retention/budget.js';
import { budgetCandidates, selectRemovals, type Selectable } from './retention/select.js';
import { emptyTrash, expired, listTrash, moveToTrash, noRules, restoredByUndo } from './retention/trash.js';
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
export async function pruneWillCompact(ctx: WsContext, options: PruneOptions): Promise<boolean> {
  if (options.preview) return false;
  return options.compact === true || (await dirSize(ctx.store.home)) > (await budgetBytes(ctx.store.home, ctx.settings.retention));
}

const selectable = (r: CheckpointRecord): Selectable => ({ id: r.checkpoint.id, time_ms: r.checkpoint.time_ms, fields: r.checkpoint });

/**
 * Runs under the workspace lock (the caller holds it; none for a preview).
 * Everything removed goes into the trash (retention/trash.ts). Compacts only
 * when the caller also holds the store lock (taken before the workspace lock).
 */
export async function pruneWorkspace(ctx: WsContext, options: PruneOptions & { storeLocked?: boolean }): Promise<PruneResult> {
  const storeBytes = () => dirSize(ctx.store.home);
  const now = Date.now();
  const before = await storeBytes();
  const policy = ctx.settings.retention;
  const preview = options.preview === true;
  if (!preview) {
    await sweepRefLocks(ctx);
    await sweepStoreTemps(ctx.store, { olderThanMs: TEMP_STALE_MS });
  }
  const records = await listRecords(ctx);
  const spared = new Set([...((await readMeta(ctx.layout.metaFile))?.pinned ?? []), ...(options.keep ?? [])]);
  if (options.automatic) for (const id of await restoredByUndo(ctx)) spared.add(id);
  const items = records.map(selectable);
  const removals = selectRemovals(items, spared, { maxCheckpoints: policy.max_checkpoints, maxAgeDays: policy.max_age_days }, now);
  const budget = await budgetBytes(ctx.store.home, policy);
  const trash = await listTrash(ctx);
  const expiredIds = expired(trash, now);
  const emptied = { expired: expiredIds.length, for_budget: 0 };

  let gcRan = false;
  if (!preview) {
    await emptyTrash(ctx, expiredIds);
    if (options.storeLocked && (options.compact || before > budget)) {
      await compactStoreLocked(ctx.store, ctx.id);
      gcRan = true;
      // Over the budget, the trash is what goes first, oldest entry first: emptying it frees bytes,
      // moving more into it frees none (its objects stay reachable for 14 days).
      const left = trash.filter((e) => !expiredIds.includes(e.id)).sort((a, b) => a.time_ms - b.time_ms);
      while ((await storeBytes()) > budget && left.length > 0) {
        emptied.for_budget += await emptyTrash(ctx, [left.shift()!.id]);
        await compactStoreLocked(ctx.store, ctx.id);
      }
      // Still over with an empty trash: the oldest thinned checkpoints go into it, a tenth per pass.
      // They are freed by the next pass that finds the store still over (undoable until then).
      if ((await storeBytes()) > budget) {
        for (const c of budgetCandidates(items.filter((i) => !removals.has(i.id)), spared, now)) removals.set(c.id, 'budget');
      }
    }
  }

  const byId = new Map(records.map((r) => [r.checkpoint.id, r]));
  const moved = [...removals].map(([id, rule]) => ({ record: { id, refname: byId.get(id)!.refname }, rule }));
  const by_rule = noRules();
  for (const { rule } of moved) by_rule[rule] += 1;
  const trashId = preview ? null : await moveToTrash(ctx, moved, options.automatic === true, now);
  const removed = moved.map((m) => m.record.id);
  const kept = records.length - removed.length;
  const result: PruneResult = {
    removed,
    by_rule,
    kept,
    preview,
    trash: trashId,
    trash_emptied: emptied,
    budget_bytes: budget,
    gc_ran: gcRan,
    store_bytes_before: before,
    store_bytes_after: preview ? before : await storeBytes(),
  };
  if (!preview) await writeLastPrune(ctx.store, { time_ms: now, workspace: ctx.root, removed: removed.length, kept }).catch(() => undefined);
  return result;
}

const PRUNE_FILE = 'prune.json';
type LastPrune = NonNullable<StoreInfo['last_prune']>;

/** The last prune of any workspace of the store, for Settings (prune.json, written atomically). */
async function writeLastPrune(store: StoreLayout, last: LastPrune): Promise<void> {
  await writeFileAtomic(path.join(store.home, PRUNE_FILE), `${JSON.stringify(last)}\n`, { mode: 0o600 });
}

export async function lastPrune(home: string): Promise<LastPrune | null> {
  try {
    const raw = JSON.parse(await fs.readFile(path.join(home, PRUNE_FILE), 'utf8')) as Partial<LastPrune>;
    if (typeof raw.time_ms !== 'number' || typeof raw.workspace !== 'string' || typeof raw.removed !== 'number' || typeof raw.kept !== 'number') return null;
    return { time_ms: raw.time_ms, workspace: raw.workspace, removed: raw.removed, kept: raw.kept };
  } catch {
    return null;
  }
}
