// Brings the private index up to date after a snapshot that did not use it
// (tree-update.ts), off the snapshot's critical path: the index is git's stat
// cache, and a stale entry would make the next full scan re-read that file.
//
// It runs after the snapshot returned, under the workspace lock of its own:
// one `update-index` of the snapshot's paths still as they were hashed (git
// re-reads only those), one `--index-info` of the recorded entries of any
// that changed or appeared since (the index never takes in a file no scan
// has judged: too large, ignored). The
// head file may then say the index holds the checkpoint's tree (so the next
// scan can skip write-tree) only when that is provably so: the index was the
// previous checkpoint's tree before, the checkpoint is still the latest, and
// no path changed on disk since it was hashed. Otherwise the head keeps no
// index signature and the next scan writes the tree: slower, never wrong.
//
// It starts after a quiet time (SYNC_QUIET_MS), so a burst of snapshots
// merges into one. A writer in this process never meets a sync on the lock:
// one that arrives while a sync runs stops it (its git ends on SIGTERM and
// removes its own index.lock) and waits only for it to let go; a job stopped
// before the index changed is queued again, so the writer's own job merges
// into it. At 100,000 files one `update-index` is 60-110 ms: an agent's next
// call landing in it used to wait that long (docs/daemon.md). A sync waits
// for writers inside; a process that exits first (the CLI waits for it)
// leaves a stale cache, which is all it is.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { WsContext } from './layout/context.js';
import { quietTime } from './support/quiet-time.js';
import { gitStdin, ZERO_OID } from './git/git-runner.js';
import { latestHead, writeHead } from './head.js';
import { indexSignature } from './index/index-signature.js';
import { withLock } from './support/lock.js';
import { fileSignature } from './index/seen-files.js';
import { clearPendingNote, readPendingNote, writePendingNote, type IndexSyncJob } from './index-pending.js';

interface Pending {
  /** The last sync queued for this index, settled when it is done. */
  run: Promise<void>;
  /** A job queued behind the lock that has not started yet: later snapshots merge into it. */
  waiting: IndexSyncJob | null;
  /** Ends the sync's quiet time at once (settling: nobody is about to merge into it). */
  hurry: () => void;
}

const pending = new Map<string, Pending>();

/**
 * A sync starts this long after the snapshot that queued it. Snapshots in a
 * burst (an agent's edits, each checkpointed) then merge into one waiting
 * sync instead of each waiting for the last one's git process (~25 ms on
 * 10,000 files) before taking the lock.
 */
const SYNC_QUIET_MS = 200;

/**
 * For measuring only (docs/daemon.md, the 100,000-file hook row): the quiet
 * time from CHRONOSCOPE_INDEX_SYNC_QUIET_MS, to see whether a sync landing
 * between two hook calls is what they wait for.
 */
function syncQuietMs(): number {
  const raw = Number(process.env['CHRONOSCOPE_INDEX_SYNC_QUIET_MS']);
  return Number.isFinite(raw) && raw >= 0 ? raw : SYNC_QUIET_MS;
}

/** Per index: writers of this process between entering (before the lock) and leaving; the sync in progress, if one started. */
interface WriterState {
  inside: number;
  /** Called when the last writer inside leaves. */
  left: (() => void)[];
  running: Promise<void> | null;
  /** Stops the running sync (a writer arrived). */
  stop: () => void;
}

const writers = new Map<string, WriterState>();

function writerState(key: string): WriterState {
  let state = writers.get(key);
  if (!state) {
    state = { inside: 0, left: [], running: null, stop: () => undefined };
    writers.set(key, state);
  }
  return state;
}

/**
 * Starts a sync once no writer of this process is inside. Nothing awaits
 * between that check and marking it running: a writer arriving after waits
 * for it (asWriter).
 */
async function startWhenNoWriter(key: string, start: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const state = writerState(key);
  while (state.inside > 0) await new Promise<void>((resolve) => state.left.push(resolve));
  const stopper = new AbortController();
  const running = start(stopper.signal);
  state.running = running;
  state.stop = () => stopper.abort();
  try {
    await running;
  } finally {
    if (state.running === running) {
      state.running = null;
      state.stop = () => undefined;
    }
  }
}

/**
 * Around a writer of this process (a snapshot, a restore) taking the workspace
 * lock: a sync already started is stopped and waited for, so the two never
 * meet on the lock; a sync still in its quiet time waits until the writer is
 * done (the writer's own snapshot may merge into it meanwhile).
 */
export async function asWriter<T>(ctx: WsContext, fn: () => Promise<T>): Promise<T> {
  if (syncsDeferred) return fn();
  const state = writerState(ctx.layout.indexFile);
  while (state.running) {
    state.stop();
    await state.running;
  }
  state.inside++;
  try {
    return await fn();
  } finally {
    state.inside--;
    if (state.inside === 0) for (const resolve of state.left.splice(0)) resolve();
  }
}

/**
 * Starts the sync in the background; failures only leave the cache stale.
 * Snapshots taken under one lock hold (a restore's safety and restored
 * checkpoints) queue behind it: a job that builds on a queued one is merged
 * into it (its paths added, its checkpoint the one to confirm), so the index
 * is brought up to date once and still proven to hold the latest tree.
 */
export function syncIndexLater(ctx: WsContext, job: IndexSyncJob): Promise<void> {
  const key = ctx.layout.indexFile;
  const current = pending.get(key);
  const queued = current?.waiting;
  if (current && queued && job.parent === queued.commit) {
    current.waiting = { commit: job.commit, parent: queued.parent, indexBefore: job.indexBefore ?? queued.indexBefore, seen: new Map([...queued.seen, ...job.seen]), removed: new Set([...queued.removed, ...job.removed]) };
    return noteIfDeferred(ctx, current.waiting);
  }
  queueSync(ctx, job);
  return noteIfDeferred(ctx, job);
}

/** Only a process that will not run its syncs writes them down; the others finish them (the CLI and the app wait on exit). */
function noteIfDeferred(ctx: WsContext, job: Readonly<IndexSyncJob>): Promise<void> {
  return syncsDeferred ? writePendingNote(ctx, job) : Promise.resolve();
}

/**
 * A sync another process queued and could not finish (a hook that exited, index-pending.ts),
 * queued here as if this process had: when `latest` is its checkpoint and the index is still
 * what it was before it. A note that no longer holds is removed. Call under the workspace lock.
 */
export async function adoptPendingNote(ctx: WsContext, latest: string): Promise<void> {
  if (pending.has(ctx.layout.indexFile)) return;
  const note = await readPendingNote(ctx);
  if (note === null) return;
  if (note.commit !== latest || note.indexBefore === null || note.indexBefore !== (await indexSignature(ctx.layout.indexFile))) {
    await clearPendingNote(ctx, note);
    return;
  }
  queueSync(ctx, note);
}

/**
 * Set by a process that exits right after its answer (a hook working alone): its syncs are only
 * noted (index-pending.ts), never started — a sync cut off by the exit would leave its git
 * process running on, unseen by the lock, while the next process writes the same index.
 */
let syncsDeferred = false;

export function deferIndexSyncs(): void {
  syncsDeferred = true;
}

function queueSync(ctx: WsContext, job: IndexSyncJob): void {
  const key = ctx.layout.indexFile;
  const current = pending.get(key);
  if (syncsDeferred) {
    // Waiting for good: later snapshots of this process merge into it, and the note carries it.
    if (!current) pending.set(key, { run: Promise.resolve(), waiting: job, hurry: () => undefined });
    return;
  }
  const quiet = quietTime(syncQuietMs());
  const entry: Pending = { run: Promise.resolve(), waiting: job, hurry: quiet.hurry };
  entry.run = (current?.run ?? Promise.resolve())
    .then(() => quiet.elapsed)
    .then(() =>
      startWhenNoWriter(key, (signal) =>
        syncIndex(
          ctx,
          () => {
            const taken = entry.waiting ?? job;
            entry.waiting = null;
            return taken;
          },
          signal,
        ).catch(() => undefined),
      ),
    )
    .catch(() => undefined);
  pending.set(key, entry);
  void entry.run.finally(() => {
    if (pending.get(key) === entry) pending.delete(key);
  });
}

/**
 * The sync queued behind the lock and not started, if any: while it waits,
 * the index is still exactly as it was before its first snapshot.
 */
export function queuedSync(ctx: WsContext): Readonly<IndexSyncJob> | null {
  return pending.get(ctx.layout.indexFile)?.waiting ?? null;
}

/** The job's paths the index or its latest tree has: recordable as tracked files wherever they are now. */
export function recordableOf(job: Readonly<IndexSyncJob>): string[] {
  return [...job.seen].filter(([rel, entry]) => entry !== null || job.removed.has(rel)).map(([rel]) => rel);
}

/** Resolves once no sync of this workspace's index is pending (its quiet time cut short). */
export async function settleIndex(ctx: WsContext): Promise<void> {
  if (syncsDeferred) return;
  const entry = pending.get(ctx.layout.indexFile);
  entry?.hurry();
  await entry?.run;
}

/** Every pending sync of this process (the CLI waits for them before it exits). */
export async function settleAllIndexes(): Promise<void> {
  if (syncsDeferred) return;
  while (pending.size > 0) {
    const entries = [...pending.values()];
    for (const entry of entries) entry.hurry();
    await Promise.all(entries.map((p) => p.run));
  }
}

/**
 * `take` gives the job (as merged so far) once the lock is held: nothing merges into it after that.
 * Stopped (`signal`) before the index changed, the job is queued again, before the writer that
 * stopped it goes on: that writer's own job then merges into it.
 */
async function syncIndex(ctx: WsContext, take: () => IndexSyncJob, signal: AbortSignal): Promise<void> {
  await withLock(
    ctx.layout.lockTarget,
    async () => {
      const job = take();
      const before = await indexSignature(ctx.layout.indexFile);
      try {
        await applySync(ctx, job, before, signal);
      } catch (err) {
        if (!signal.aborted) throw err;
      }
      if (signal.aborted && (await indexSignature(ctx.layout.indexFile)) === before) {
        queueSync(ctx, job);
        return;
      }
      await clearPendingNote(ctx, job);
    },
    { what: `workspace ${ctx.root}`, waitMs: 10_000 },
  );
}

async function applySync(ctx: WsContext, job: IndexSyncJob, before: string | null, signal: AbortSignal): Promise<void> {
      const indexFile = ctx.layout.indexFile;
      // A scan through git rewrote the index since (it brought these paths up to date itself).
      if (job.indexBefore !== null && before !== job.indexBefore) return;
      // We hold the workspace lock: an index.lock is a killed writer's leftover.
      await fs.rm(`${indexFile}.lock`, { force: true });
      // Each path as the checkpoint recorded it: from the disk (refreshing git's
      // stat cache) where the file is still what was hashed; else its recorded
      // entry with no stat data (so the next scan looks at the file again), or
      // removed — never what is on disk now, which the scan's rules (size,
      // ignore) have not seen.
      const fresh: string[] = [];
      const recorded: string[] = [];
      let unchanged = true;
      for (const [rel, entry] of job.seen) {
        const st = await fs.lstat(path.join(ctx.root, rel)).catch(() => null);
        const now = st === null ? null : fileSignature(st);
        if (entry !== null && now === entry.signature) fresh.push(rel);
        else recorded.push(entry === null ? `0 ${ZERO_OID}\t${rel}\0` : `${entry.mode} ${entry.oid}\t${rel}\0`);
        if (now !== (entry?.signature ?? null)) unchanged = false;
      }
      if (signal.aborted) return;
      if (recorded.length > 0) await gitStdin(ctx.git, ['update-index', '-z', '--index-info'], { input: recorded.join(''), signal });
      if (fresh.length > 0 && !signal.aborted) await gitStdin(ctx.git, ['update-index', '--add', '--replace', '-z', '--stdin'], { input: fresh.map((p) => `${p}\0`).join(''), signal });
      if (signal.aborted || !unchanged || job.indexBefore === null || before !== job.indexBefore) return;
      const head = await latestHead(ctx);
      if (head?.id !== job.commit) return;
      for (const [rel, entry] of job.seen) {
        const st = await fs.lstat(path.join(ctx.root, rel)).catch(() => null);
        if ((st === null ? null : fileSignature(st)) !== (entry?.signature ?? null)) return;
      }
      const after = await indexSignature(indexFile);
      if (after !== null) await writeHead(ctx, { ...head, index: after });
}
