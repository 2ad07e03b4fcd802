// Upkeep: delta-compresses the store on its own, as `git gc --auto` does, when
// cheap counts say it is due. Snapshots write objects whole (pack-write.ts,
// loose objects by git) and pack-merge.ts only joins them; an edit of one line
// costs a whole blob. Git's pack-objects finds the deltas; we never write any.
//
// When: packs ≥ packLimit (git's gc.autoPackLimit, 50), loose objects ≥
// looseLimit (git's gc.auto, 6700, estimated from one fan-out folder as git
// does), or objects that landed since the last compression ≥ max(newObjects,
// growth × the objects that compression packed) — geometric, so a big store
// is rewritten a bounded number of times over its life. A store that has
// never been seen by upkeep takes its present state as the baseline (no heavy
// repack right after a first snapshot).
//
// What (upkeep-roll.ts chooses): a routine run is a roll — only the packs
// written whole since (snapshots, pack-merge.ts joins), the loose objects and
// upkeep's own small earlier rolls go into one new pack, through `git
// pack-objects --stdin-packs --unpacked` with the other compressed packs named
// as excluded (`^pack-….pack`): git neither reads nor rewrites them, so a run
// costs about what is new, not the store. A pack on disk must stand alone (no
// thin packs), so a new version's delta base is found only among the rolled
// objects: the first version of a file in a roll is stored whole. That costs
// size, which the full run takes back: everything compressed anew (below)
// when upkeep never compressed the store, when the rolls since the last full
// run reach a tenth of it, when a roll would leave too many packs, or when a
// person asks (`force`: Compact now, `upkeep --force`).
// `nice -n 10 node dist/scripts/bench.js --store-sizes 150,1000` (same
// session): 1,000 snapshots, 40 upkeeps took 66.9 s when each rewrote the
// store, 24.0 s as rolls (10 full), the store 1.07× git gc (was 0.96×; 150
// snapshots: 1.17×, was 0.98×); `--store-sizes 10000`: 149 s in 40 upkeeps,
// longest 24 s, 0.98× after a full last one (docs/store-health.md).
//
// How, so that a kill at any instant loses nothing and snapshots never wait:
//  1. list the packs there now (the ones this run may remove; a roll: those
//     it names to git as rolled);
//  2. full: `git pack-objects --all --keep-unreachable --pack-loose-unreachable
//     --no-reuse-delta`; a roll: `--stdin-packs --unpacked --no-reuse-delta`
//     (every object of the rolled packs and every loose one, unreachable too,
//     except those a kept pack holds) — at low priority, straight into objects/pack (git writes tmp_pack_* and
//     renames the pack, then its index, when whole: a kill leaves only
//     temporaries, swept by store-sweep.ts). Unreachable objects are kept on
//     purpose: a snapshot in flight has written objects no ref names yet
//     (dropping garbage is `prune --compact`'s job, under every lock);
//  3. fsync objects/pack: the new pack is durable before anything goes;
//  4. remove the packs of step 1 (index first, as pack-merge.ts does): every
//     object they held is in the new pack (or, in a roll, in a kept pack,
//     which this run does not remove; a join that removes a kept pack wrote
//     its objects to a new pack first), since pack-objects started after the
//     listing; a pack written meanwhile is not in the list and stays;
//  5. `git prune-packed`: removes only loose objects that a pack now holds.
// Readers: a pack that vanishes under pack-read.ts is listed again there;
// git's own readers re-scan objects/pack when an object is not found.
//
// Locks: `<home>/upkeep.lock`, held for the whole run (one upkeep at a time),
// never the workspace locks (snapshots go on). Compaction (retention.ts)
// takes it before the store lock, so a gc never races an upkeep that would
// re-pack the garbage it drops. Pack joins need no lock (see pack-merge.ts).
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { storeGit } from './layout/context.js';
import { gitStdin, spawnGit } from './git/git-runner.js';
import { acquire } from './support/lock.js';
import { syncDir } from './objects/loose-write.js';
import { IDS_AT, PACK_IDX_NAME } from './objects/pack-index.js';
import { settlePackMerges } from './objects/pack-merge.js';
import { storeLayout, type StoreLayout } from './layout/paths.js';
import { loadSettings } from './layout/settings-file.js';
import { planRoll, type RollPlan } from './upkeep-roll.js';
import { LOOSE_REFS_LIMIT, looseCheckpointRefCount, PACK_REFS_ARGS } from './refs/pack-refs.js';

export interface UpkeepLimits {
  /** Due from this many packs (git's gc.autoPackLimit). */
  packLimit: number;
  /** Due from about this many loose objects (git's gc.auto). */
  looseLimit: number;
  /** Due once this many objects landed since the last compression (and `growth` of it)… */
  newObjects: number;
  /** …and at least this fraction of the objects the last compression packed. */
  growth: number;
  /** Due once the bytes written whole since the last compression reach this… */
  newBytes: number;
  /** …and this fraction of the bytes that compression left. */
  bytesGrowth: number;
  /** Due (refs only: `git pack-refs`) from this many loose checkpoint refs (refs/pack-refs.ts). */
  looseRefs: number;
}

/**
 * git's counts (gc.autoPackLimit, gc.auto) assume packs git delta-searched;
 * ours never are, so bytes decide too: what snapshots wrote whole since the
 * last compression is worth compressing once it is a tenth of what that
 * compression left (and at least 1 MB). Then the store is never more than
 * ~1.1× its compressed self, whatever its size (docs/store-health.md).
 */
export const DEFAULT_LIMITS: UpkeepLimits = { packLimit: 50, looseLimit: 6700, newObjects: 10_000, growth: 0.5, newBytes: 1 << 20, bytesGrowth: 0.1, looseRefs: LOOSE_REFS_LIMIT };

/** How a run chooses between a roll and a full compression (upkeep-roll.ts). */
export interface RollTuning {
  fullGrowth?: number;
  factor?: number;
  packLimit?: number;
  smallStoreBytes?: number;
}

export interface UpkeepOptions extends Partial<UpkeepLimits> {
  /** Run even when not due, and compress the whole store anew (a person asked: Compact now, `upkeep --force`). */
  force?: boolean;
  /** Roll or full compression (defaults: upkeep-roll.ts). */
  roll?: RollTuning;
  /** Scheduling priority of git (19: lowest; 0: as the caller). */
  niceness?: number;
  /** Stops git; the store stays as it was (the run is just not finished). */
  signal?: AbortSignal;
  /** The service has been quiet (maintenance.ts): the quiet rule applies too (upkeepDue). */
  quiet?: boolean;
}

export interface UpkeepCounts {
  packs: number;
  /** Estimated, as git's gc --auto does (one fan-out folder × 256). */
  loose: number;
  /** Objects in packs that are not the last compression's, plus loose ones. */
  newObjects: number;
  /** Objects the last compression packed (the baseline). */
  baseObjects: number;
  /** Bytes of packs that are not the last compression's, plus loose objects (estimated). */
  newBytes: number;
  /** Bytes of the last compression's packs still there. */
  baseBytes: number;
  /** Loose checkpoint ref files (packed by `git pack-refs` when there are many). */
  looseRefs: number;
}

export interface UpkeepDue {
  due: boolean;
  /** Why it is due (null when not). */
  reason: string | null;
  /** The objects are due a compression (else only the refs a packing). */
  objects: boolean;
  /** The loose refs are due a packing. */
  refs: boolean;
  /** The quiet rule: compress the whole store anew (not a roll). */
  full: boolean;
  counts: UpkeepCounts;
}

export interface StoreFootprint {
  /** Bytes of objects/ (packs, indexes, loose objects). */
  bytes: number;
  files: number;
}

export interface UpkeepResult {
  ran: boolean;
  /** Why it ran, or why not ('not due', 'another upkeep is running'). */
  reason: string;
  before: StoreFootprint;
  after: StoreFootprint;
  /** Packs removed after the new one was durable. */
  packs_removed: number;
  /** 'roll': only what is new (and small earlier rolls); 'full': the whole store anew; null: no compression (not due, or refs only). */
  kind: 'roll' | 'full' | null;
  /** Loose checkpoint refs packed into packed-refs (0: not due). */
  refs_packed: number;
  duration_ms: number;
}

/** What the last compression left: its packs count as compressed, not new. */
interface UpkeepState {
  v: 1;
  time_ms: number;
  /** When a compression (not a first look) wrote this state. */
  compressed_ms?: number;
  /** Packs upkeep wrote that stand (delta-searched: a roll leaves them be). */
  packs: string[];
  objects: number;
  /** Of those, the last full compression's (older states: all of them, when compressed_ms is set). */
  full?: string[];
}

const STATE_FILE = 'upkeep.json';
/** An upkeep lock touched this recently has a live holder (lock.ts refreshes every 2 s, counts 10 s as stale). */
const LOCK_FRESH_MS = 10_000;
const LOCK_FILE = 'upkeep.lock';

export function upkeepLockTarget(store: StoreLayout): string {
  return path.join(store.home, LOCK_FILE);
}

function packDir(store: StoreLayout): string {
  return path.join(store.gitDir, 'objects', 'pack');
}

interface PackInfo {
  name: string;
  objects: number;
  /** Bytes of its .pack. */
  bytes: number;
}

/** The store's packs (those with an index and no .keep) and their object counts: one small read per index. */
async function listPacks(store: StoreLayout): Promise<PackInfo[]> {
  const dir = packDir(store);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const all = new Set(names);
  // A .promisor pack is a teammate's history fetched without its file contents (electron/share/pull.ts): git's to
  // manage, never rewritten or removed here (a pack written from it would lose the mark that lets blobs be missing).
  const packs = names.filter((n) => PACK_IDX_NAME.test(n)).map((n) => n.slice(0, -4)).filter((p) => all.has(`${p}.pack`) && !all.has(`${p}.keep`) && !all.has(`${p}.promisor`));
  const infos = await Promise.all(
    packs.map(async (name) => ({
      name,
      objects: await indexCount(path.join(dir, `${name}.idx`)),
      bytes: (await fs.stat(path.join(dir, `${name}.pack`)).catch(() => null))?.size ?? 0,
    })),
  );
  return infos.filter((p): p is PackInfo => p.objects !== null).sort((a, b) => a.name.localeCompare(b.name));
}

/** The object count from a version-2 index's last fan-out entry (null: gone or not an index). */
async function indexCount(file: string): Promise<number | null> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, 'r');
    const head = Buffer.alloc(IDS_AT);
    const { bytesRead } = await handle.read(head, 0, IDS_AT, 0);
    if (bytesRead < IDS_AT || head.readUInt32BE(0) !== 0xff744f63 || head.readUInt32BE(4) !== 2) return null;
    return head.readUInt32BE(IDS_AT - 4);
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Loose objects and their bytes, estimated from folder 17 as git does (an exact count would read 256 folders). */
async function looseEstimate(store: StoreLayout): Promise<{ count: number; bytes: number }> {
  const dir = path.join(store.gitDir, 'objects', '17');
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{38}$/.test(n));
  const sizes = await Promise.all(names.map(async (n) => (await fs.stat(path.join(dir, n)).catch(() => null))?.size ?? 0));
  return { count: names.length * 256, bytes: sizes.reduce((a, b) => a + b, 0) * 256 };
}

/** Loose objects and their bytes, every fan-out folder read (the quiet pass: one folder's estimate swings widely on a few hundred objects). */
async function looseExact(store: StoreLayout): Promise<{ count: number; bytes: number }> {
  const folders = Array.from({ length: 256 }, (_, i) => path.join(store.gitDir, 'objects', i.toString(16).padStart(2, '0')));
  const per = await Promise.all(
    folders.map(async (dir) => {
      const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{38}$/.test(n));
      const sizes = await Promise.all(names.map(async (n) => (await fs.stat(path.join(dir, n)).catch(() => null))?.size ?? 0));
      return { count: names.length, bytes: sizes.reduce((a, b) => a + b, 0) };
    }),
  );
  return per.reduce((a, b) => ({ count: a.count + b.count, bytes: a.bytes + b.bytes }), { count: 0, bytes: 0 });
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

async function readState(store: StoreLayout): Promise<UpkeepState | null> {
  try {
    const raw = JSON.parse(await fs.readFile(path.join(store.home, STATE_FILE), 'utf8')) as Partial<UpkeepState>;
    if (raw.v !== 1 || !Array.isArray(raw.packs) || typeof raw.objects !== 'number' || typeof raw.time_ms !== 'number') return null;
    return {
      v: 1,
      time_ms: raw.time_ms,
      ...(typeof raw.compressed_ms === 'number' ? { compressed_ms: raw.compressed_ms } : {}),
      packs: raw.packs.filter((p): p is string => typeof p === 'string'),
      objects: raw.objects,
      ...(Array.isArray(raw.full) ? { full: raw.full.filter((p): p is string => typeof p === 'string') } : {}),
    };
  } catch {
    return null;
  }
}

async function writeState(store: StoreLayout, packs: readonly PackInfo[], compressed = false, full?: readonly string[]): Promise<void> {
  const now = Date.now();
  const state: UpkeepState = {
    v: 1,
    time_ms: now,
    ...(compressed ? { compressed_ms: now } : {}),
    packs: packs.map((p) => p.name),
    objects: packs.reduce((n, p) => n + p.objects, 0),
    ...(full ? { full: [...full] } : {}),
  };
  await writeFileAtomic(path.join(store.home, STATE_FILE), `${JSON.stringify(state)}\n`, { mode: 0o600 });
}

/**
 * Whether upkeep is due, from cheap counts (a folder listing, 1 KB of each
 * index, one fan-out folder). A store upkeep has never seen records its
 * present packs as the baseline (a write, once) and is due only by counts.
 */
export async function upkeepDue(home: string, limits: Partial<UpkeepLimits> = {}, quiet = false): Promise<UpkeepDue> {
  const store = storeLayout(home);
  const l = { ...DEFAULT_LIMITS, ...limits };
  const [packs, estimated, known, looseRefs] = await Promise.all([listPacks(store), looseEstimate(store), readState(store), looseCheckpointRefCount(store)]);
  const looseFound = quiet && estimated.count < l.looseLimit ? await looseExact(store) : estimated;
  const loose = looseFound.count;
  let state = known;
  if (state === null) {
    state = { v: 1, time_ms: Date.now(), packs: packs.map((p) => p.name), objects: packs.reduce((n, p) => n + p.objects, 0) };
    // Only a store that exists gets one (a check must not create a store: no folder is made).
    await writeState(store, packs).catch(() => undefined);
  }
  const base = new Set(state.packs);
  const fresh = packs.filter((p) => !base.has(p.name));
  const newObjects = fresh.reduce((n, p) => n + p.objects, 0) + loose;
  const newBytes = fresh.reduce((n, p) => n + p.bytes, 0) + looseFound.bytes;
  const baseBytes = packs.filter((p) => base.has(p.name)).reduce((n, p) => n + p.bytes, 0);
  const counts: UpkeepCounts = { packs: packs.length, loose, newObjects, baseObjects: state.objects, newBytes, baseBytes, looseRefs };
  const objectsReason =
    packs.length >= l.packLimit
      ? `${packs.length} packs (limit ${l.packLimit})`
      : loose >= l.looseLimit
        ? `about ${loose} loose objects (limit ${l.looseLimit})`
        : newObjects >= Math.max(l.newObjects, l.growth * state.objects)
          ? `${newObjects} objects since the last compression (of ${state.objects})`
          : newBytes >= Math.max(l.newBytes, l.bytesGrowth * baseBytes)
            ? `${mib(newBytes)} written whole since the last compression (it left ${mib(baseBytes)})`
            : null;
  const refs = looseRefs >= l.looseRefs;
  const quietReason = quiet && objectsReason === null ? quietFullReason(packs, state, newBytes) : null;
  const objects = objectsReason ?? quietReason;
  const reason = [objects, refs ? `${looseRefs} loose refs (limit ${l.looseRefs})` : null].filter((r) => r !== null).join('; ') || null;
  return { due: reason !== null, reason, objects: objects !== null, refs, full: quietReason !== null, counts };
}

/**
 * The quiet pass (issue 39, item 7): the service has seen no activity for a while, so a full run
 * costs nobody a wait. The routine rules leave a store above its compressed size by design — rolls
 * store each file's first version whole (up to a tenth of the full pack before a full run), what
 * snapshots wrote whole waits for a tenth (at least 1 MB) — and a run of CLI processes, each
 * starting its own background roll, can leave a dozen packs. When quiet, everything besides the
 * last full pack (rolled packs, packs written whole, loose objects) is weighed against it, and at
 * QUIET_GROWTH of it the store is compressed whole once; then nothing is new and the rule rests.
 */
function quietFullReason(packs: readonly PackInfo[], state: UpkeepState, newBytes: number): string | null {
  if (state.compressed_ms === undefined) return null; // never compressed: the routine rules decide the first run
  const full = new Set(state.full ?? state.packs);
  const fullBytes = packs.filter((p) => full.has(p.name)).reduce((n, p) => n + p.bytes, 0);
  const rolled = packs.filter((p) => !full.has(p.name) && state.packs.includes(p.name));
  const extra = rolled.reduce((n, p) => n + p.bytes, 0) + newBytes;
  if (extra < QUIET_MIN_BYTES || extra < QUIET_GROWTH * fullBytes) return null;
  return `quiet: ${mib(extra)} beside the last full compression's ${mib(fullBytes)} (${rolled.length} rolled packs)`;
}

/**
 * The quiet pass compresses the whole store once what lies beside the last full pack reaches this
 * fraction of it: rolled packs are delta-compressed among themselves only, so this bounds the
 * store at about 1 + QUIET_GROWTH of a full compression after every quiet minute (target ≤ 1.2×
 * git gc; docs/store-health.md, `bench --cli-service`).
 */
export const QUIET_GROWTH = 0.05;
/** …and at least this much: a store that gained a few objects is not rewritten for them. */
export const QUIET_MIN_BYTES = 64 * 1024;

const mib = (bytes: number): string => `${(bytes / (1 << 20)).toFixed(1)} MB`;

/** When upkeep last compressed the store (null: never). */
export async function lastCompression(home: string): Promise<number | null> {
  return (await readState(storeLayout(home)))?.compressed_ms ?? null;
}

/** Size and file count of the store's objects. */
export async function objectsFootprint(gitDir: string): Promise<StoreFootprint> {
  let bytes = 0;
  let files = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (e) => {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) return walk(full);
        const st = await fs.lstat(full).catch(() => null);
        if (st?.isFile()) {
          bytes += st.size;
          files += 1;
        }
      }),
    );
  };
  await walk(path.join(gitDir, 'objects'));
  return { bytes, files };
}

/** Runs git at low priority (`input` on its stdin); rejects on failure or abort (git is killed). */
function lowPriorityGit(store: StoreLayout, args: string[], niceness: number, signal?: AbortSignal, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('upkeep stopped'));
    const child = spawnGit(storeGit(store), args, [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe']);
    if (input !== undefined) {
      // git dying early (a pack gone) closes its stdin: the close decides, not the write.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input);
    }
    // Lowered at once: git forks pack-objects' threads later, and they inherit it.
    if (niceness > 0 && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, niceness);
      } catch {
        /* not allowed here: it runs at the caller's priority */
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => err.push(c));
    const onAbort = (): void => void child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => reject(e));
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`git ${args[0] ?? ''} failed: ${Buffer.concat(err).toString('utf8').trim().split('\n')[0] || `exit code ${String(code)}`}`));
    });
  });
}

/** `git pack-refs --all --prune` at low priority (refs/pack-refs.ts says why it is safe beside snapshots); how many loose refs it folded. */
async function packRefs(store: StoreLayout, niceness: number, signal?: AbortSignal): Promise<number> {
  const before = await looseCheckpointRefCount(store);
  if (before === 0) return 0;
  await lowPriorityGit(store, [...PACK_REFS_ARGS], niceness, signal);
  return Math.max(0, before - (await looseCheckpointRefCount(store)));
}

/** Removes a pack whose objects are all in a newer one: the index first, so no reader finds a half-removed pack. */
async function removePack(dir: string, name: string): Promise<void> {
  for (const ext of ['.idx', '.pack', '.rev', '.bitmap', '.mtimes']) await fs.rm(path.join(dir, `${name}${ext}`), { force: true }).catch(() => undefined);
}

/** Attempts when a pack join (pack-merge.ts, lock-free, any process) removed a pack under git. */
const ATTEMPTS = 4;

interface CompressOutcome {
  removed: number;
  kind: 'full' | 'roll';
  /** Why a full run (a roll's is the due reason). */
  why: string | null;
}

/**
 * The compression itself; the caller holds the upkeep lock. A join of small
 * packs may remove a pack git has listed but not opened yet ("cannot open pack
 * index"): git then stops before writing anything, and the run starts again.
 */
async function compress(store: StoreLayout, niceness: number, full: boolean, tuning: RollTuning, signal?: AbortSignal): Promise<CompressOutcome> {
  for (let attempt = 1; ; attempt++) {
    // This process's own joins first: they would race git the most.
    await settlePackMerges();
    const before = await listPacks(store);
    try {
      const [state, loose] = await Promise.all([readState(store), looseEstimate(store)]);
      const compressed = new Set(state?.compressed_ms !== undefined ? state.packs : []);
      const plan: RollPlan = full
        ? { kind: 'full', why: 'forced' }
        : planRoll({ packs: before, compressed, full: new Set(state?.full ?? [...compressed]), looseBytes: loose.bytes, ...tuning });
      if (plan.kind === 'full') return { removed: await compressOnce(store, before, niceness, signal), kind: 'full', why: plan.why };
      const byName = new Map(before.map((p) => [p.name, p]));
      const pick = (names: readonly string[]): PackInfo[] => names.map((n) => byName.get(n)).filter((p): p is PackInfo => p !== undefined);
      return { removed: await rollOnce(store, pick(plan.roll), pick(plan.keep), state?.full ?? [...compressed], niceness, signal), kind: 'roll', why: null };
    } catch (err) {
      const changed = (await listPacks(store)).map((p) => p.name).join() !== before.map((p) => p.name).join();
      if (attempt >= ATTEMPTS || signal?.aborted || !changed) throw err;
    }
  }
}

async function compressOnce(store: StoreLayout, before: readonly PackInfo[], niceness: number, signal?: AbortSignal): Promise<number> {
  const printed = await packObjects(
    store,
    ['--all', '--reflog', '--indexed-objects', '--keep-unreachable', '--pack-loose-unreachable', '--honor-pack-keep', '--local', ...(await promisorPackArgs(store))],
    niceness,
    signal,
  );
  const { made, removed } = await replacePacks(store, printed, before, niceness, signal);
  // The new pack is the baseline the next "due" counts from, and the full pack a roll leaves be.
  const now = await listPacks(store);
  await writeState(store, now.filter((p) => made.has(p.name)), true, [...made]);
  return removed;
}

/**
 * The store holds a teammate's blob-less history (electron/share/pull.ts): a walk of every ref must skip
 * what those packs hold and the file contents they leave on the remote, or git would fetch every one of
 * them to pack it.
 */
async function promisorPackArgs(store: StoreLayout): Promise<string[]> {
  const promisor = (await fs.readdir(packDir(store)).catch(() => [] as string[])).filter((n) => n.endsWith('.promisor'));
  // Kept as with a .keep (their objects stay where they are, unreachable or not), and their missing blobs not asked for.
  return promisor.length === 0 ? [] : ['--exclude-promisor-objects', ...promisor.map((n) => `--keep-pack=${n.slice(0, -'.promisor'.length)}.pack`)];
}

/** `git pack-objects` of `selection` into objects/pack, at low priority; what it prints names the pack it wrote. */
function packObjects(store: StoreLayout, selection: readonly string[], niceness: number, signal?: AbortSignal, stdin?: string): Promise<string> {
  return lowPriorityGit(
    store,
    [
      'pack-objects',
      ...selection,
      '--non-empty',
      '--delta-base-offset',
      // Deltas searched anew: git skips trying two whole objects of the same
      // pack against each other, taking them as already tried, but the packs
      // snapshots write (and pack-merge joins) were never searched. With reuse,
      // the result depended on how objects happened to be spread over packs
      // (probe: 250-680 KB for the same 800 KB of objects; 196 KB without).
      '--no-reuse-delta',
      '-q',
      path.join(packDir(store), 'pack'),
    ],
    niceness,
    signal,
    stdin,
  );
}

/**
 * After git wrote a pack (its names printed): the folder fsynced, so the new pack is durable
 * before anything goes; then the packs `listed` before git started are removed (index first),
 * except one git wrote again under the same name; then loose objects a pack now holds. Nothing
 * written (nothing to pack): nothing is replaced.
 */
async function replacePacks(store: StoreLayout, printed: string, listed: readonly PackInfo[], niceness: number, signal?: AbortSignal): Promise<{ made: Set<string>; removed: number }> {
  const dir = packDir(store);
  const made = new Set(printed.trim().split('\n').filter((l) => /^[0-9a-f]{40}$/.test(l)).map((h) => `pack-${h}`));
  await syncDir(dir);
  let removed = 0;
  for (const pack of made.size > 0 ? listed : []) {
    if (made.has(pack.name)) continue;
    await removePack(dir, pack.name);
    removed += 1;
  }
  await syncDir(dir);
  await lowPriorityGit(store, ['prune-packed', '-q'], niceness, signal);
  return { made, removed };
}

/**
 * A roll: only `roll` (packs written whole, earlier small rolls) and the loose
 * objects go into one new pack; `keep` is named to git as excluded, so the new
 * pack holds none of their objects and they are not read or rewritten. The
 * same protocol as a full run: the new pack is named and fsynced before any
 * rolled pack goes, and only the packs listed before git started are removed
 * (every object of theirs is in the new pack, or in a kept pack that stays).
 * Not `git repack -d --geometric`: it decides itself which packs to delete,
 * would count our kept packs' neighbours written meanwhile, and does not fsync
 * the folder before deleting.
 */
async function rollOnce(store: StoreLayout, roll: readonly PackInfo[], keep: readonly PackInfo[], fullPacks: readonly string[], niceness: number, signal?: AbortSignal): Promise<number> {
  // Every object of the packs named on stdin, none of those named with ^; --unpacked adds every loose object.
  const printed = await packObjects(
    store,
    ['--stdin-packs', '--unpacked'],
    niceness,
    signal,
    [...roll.map((p) => `${p.name}.pack`), ...keep.map((p) => `^${p.name}.pack`)].join('\n') + '\n',
  );
  // Only the rolled packs go: objects the kept packs hold were left out of the new one on purpose.
  const { made, removed } = await replacePacks(store, printed, roll, niceness, signal);
  const kept = new Set([...keep.map((p) => p.name), ...made]);
  const now = await listPacks(store);
  await writeState(store, now.filter((p) => kept.has(p.name)), true, fullPacks.filter((n) => kept.has(n)));
  return removed;
}

/**
 * Compresses the store if cheap counts say it is due (or `force`), in this
 * process, git at low priority. Never takes a workspace lock; returns at once
 * when another upkeep holds the upkeep lock. Safe to kill at any instant.
 */
export async function upkeepIfDue(home: string, options: UpkeepOptions = {}): Promise<UpkeepResult> {
  const store = storeLayout(home);
  const started = performance.now();
  const idle = async (reason: string): Promise<UpkeepResult> => {
    const fp = await objectsFootprint(store.gitDir);
    return { ran: false, reason, before: fp, after: fp, packs_removed: 0, kind: null, refs_packed: 0, duration_ms: Math.round(performance.now() - started) };
  };
  const check = await upkeepDue(home, options, options.quiet === true);
  if (!options.force && !check.due) return idle('not due');
  // A multi-pack index names the packs it covers: removing them under it is git's own business (gc), not ours.
  if (await exists(path.join(packDir(store), 'multi-pack-index'))) return idle('the store has a multi-pack index: left to git gc');
  let release: () => Promise<void>;
  try {
    release = await acquire(upkeepLockTarget(store), { waitMs: 0, what: 'upkeep' });
  } catch {
    return idle('another upkeep is running');
  }
  try {
    const before = await objectsFootprint(store.gitDir);
    const niceness = options.niceness ?? 19;
    const done = options.force === true || check.objects ? await compress(store, niceness, options.force === true || check.full, options.roll ?? {}, options.signal) : null;
    const refsPacked = options.force === true || check.refs ? await packRefs(store, niceness, options.signal) : 0;
    return {
      ran: true,
      reason: [check.reason ?? 'forced', ...(done?.why != null && done.why !== 'forced' ? [`full: ${done.why}`] : [])].join('; '),
      before,
      after: await objectsFootprint(store.gitDir),
      packs_removed: done?.removed ?? 0,
      kind: done?.kind ?? null,
      refs_packed: refsPacked,
      duration_ms: Math.round(performance.now() - started),
    };
  } finally {
    await release().catch(() => undefined);
  }
}

/** How a process starts `chronoscope upkeep` in the background: its node and CLI entry. */
export interface UpkeepLauncher {
  node: string;
  cli: string;
}

/**
 * For a process about to exit (a CLI command): if upkeep is due, starts
 * `chronoscope upkeep --background` detached (it outlives us, at low priority)
 * and returns true. Costs a folder listing when not due; never throws.
 */
export async function startUpkeepIfDue(home: string, launcher: UpkeepLauncher, limits: Partial<UpkeepLimits> = {}): Promise<boolean> {
  try {
    const store = storeLayout(home);
    await fs.access(store.gitDir);
    // The person turned it off (settings: upkeep false).
    if (!(await loadSettings(store.configFile)).upkeep) return false;
    if (!(await upkeepDue(home, limits)).due) return false;
    // One is running (its lock is fresh: the holder touches it every few seconds): no second process to find that out.
    const held = await fs.stat(`${upkeepLockTarget(store)}.lock`).catch(() => null);
    if (held && Date.now() - held.mtimeMs < LOCK_FRESH_MS) return false;
    const child = spawn(launcher.node, [launcher.cli, 'upkeep', '--background'], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, CHRONOSCOPE_HOME: home },
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** Reports git's own view of the store (tests, the bench): fsck --full, no dangling noise. */
export async function fsckStore(home: string): Promise<string> {
  const result = await gitStdin(storeGit(storeLayout(home)), ['fsck', '--full', '--no-dangling', '--no-progress'], { okCodes: [0, 1, 2, 3, 4, 5, 6, 7, 8] });
  return result.code === 0 ? '' : `${result.stdout.toString('utf8')}${result.stderr}`.trim() || `exit code ${result.code}`;
}
