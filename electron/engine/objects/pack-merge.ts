// Joins the small packs snapshots write (one per snapshot, pack-write.ts) so
// they do not pile up: git, and pack-read.ts, look an object up pack by pack,
// and each pack is two files. Once MERGE_AT packs are there, the smallest
// ones (each no larger than twice the ones before it, so a byte is copied
// O(log n) times over a store's life, as git's own geometric repack does)
// are copied into one new pack — record by record, no inflate, no git
// process: a record that stands alone can move to any offset — and only then
// removed. Packs git wrote (deltas, bitmaps, .keep) are left to git.
//
// Safe alongside other writers and readers without a lock: the new pack is
// fsynced and named (its folder fsynced) before any old one goes, so every
// object is always in at least one named pack; a reader that loses a pack
// lists the folder again (git does the same); two processes merging the same
// packs at once leave two copies of the objects, which git tolerates and the
// next merge folds. An index removed before its pack: a pack without an index
// is invisible, and one a crash leaves is swept as garbage by git's gc.
import fs from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { syncDir } from './loose-write.js';
import { crcAt, idAt, offsetAt, PACK_IDX_NAME, parsePackIdx } from './pack-index.js';
import { packOf, writePackFiles, type PackEntry } from './pack-write.js';
import { quietTime } from '../support/quiet-time.js';

/** From this many packs in the store, the small ones are joined. */
export const MERGE_AT = 16;
/** Packs larger than this are not ours to rewrite (a first snapshot's trees, git's own). */
const SMALL_BYTES = 32 * 1024 * 1024;
/** Files beside a pack that mean git manages it. */
const GIT_MARKS = ['.keep', '.bitmap', '.rev', '.mtimes', '.promisor'];

interface Candidate {
  name: string;
  size: number;
}

/** The whole objects of a pack, or null when it holds anything else (a delta) or does not check out. */
async function recordsOf(dir: string, name: string): Promise<PackEntry[] | null> {
  const [bytes, pack] = await Promise.all([fs.readFile(path.join(dir, `${name}.idx`)), fs.readFile(path.join(dir, `${name}.pack`))]);
  const idx = parsePackIdx(bytes);
  if (!idx || idx.largeOffsets || pack.length < 32 || pack.readUInt32BE(8) !== idx.count) return null;
  const entries = Array.from({ length: idx.count }, (_, i) => ({ id: idAt(idx, i), crc: crcAt(idx, i), offset: offsetAt(idx, i) })).sort((a, b) => a.offset - b.offset);
  const out: PackEntry[] = [];
  for (const [k, e] of entries.entries()) {
    const end = entries[k + 1]?.offset ?? pack.length - 20;
    const record = pack.subarray(e.offset, end);
    const type = (record[0]! >> 4) & 7;
    // A delta points at another record; a CRC that no longer matches is a damaged copy: leave the pack to git.
    if (type < 1 || type > 4 || crc32(record) >>> 0 !== e.crc) return null;
    out.push({ id: Buffer.from(e.id), record: Buffer.from(record) });
  }
  return out;
}

/** The packs of ours worth joining now: none until there are MERGE_AT packs. */
async function candidates(dir: string): Promise<Candidate[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  if (names.includes('multi-pack-index')) return [];
  const all = new Set(names);
  const packs = names.filter((n) => PACK_IDX_NAME.test(n)).map((n) => n.slice(0, -4));
  if (packs.length < MERGE_AT) return [];
  const sized = await Promise.all(
    packs
      .filter((p) => all.has(`${p}.pack`) && !GIT_MARKS.some((mark) => all.has(`${p}${mark}`)))
      .map(async (name) => ({ name, size: (await fs.stat(path.join(dir, `${name}.pack`)).catch(() => null))?.size ?? Infinity })),
  );
  const chosen: Candidate[] = [];
  let sum = 0;
  for (const c of sized.filter((c) => c.size <= SMALL_BYTES).sort((a, b) => a.size - b.size)) {
    if (chosen.length >= 2 && c.size > 2 * sum) break;
    chosen.push(c);
    sum += c.size;
  }
  return chosen.length >= 2 ? chosen : [];
}

/** Joins the store's small packs when there are many; returns how many were joined (0: nothing to do). */
export async function mergeSmallPacks(gitDir: string): Promise<number> {
  const dir = path.join(gitDir, 'objects', 'pack');
  const chosen = await candidates(dir);
  if (chosen.length === 0) return 0;
  const seen = new Set<string>();
  const records: PackEntry[] = [];
  const merged: string[] = [];
  for (const { name } of chosen) {
    const own = await recordsOf(dir, name).catch(() => null);
    if (own === null) continue;
    merged.push(name);
    for (const r of own) {
      const key = r.id.toString('hex');
      if (seen.has(key)) continue;
      seen.add(key);
      records.push(r);
    }
  }
  if (merged.length < 2) return 0;
  const files = packOf(records);
  await writePackFiles(dir, files);
  await syncDir(dir);
  for (const name of merged) {
    if (`pack-${files.name}` === name) continue;
    // Index first: from then on no reader finds the pack; a reader holding it open reads on.
    await fs.rm(path.join(dir, `${name}.idx`), { force: true }).catch(() => undefined);
    await fs.rm(path.join(dir, `${name}.pack`), { force: true }).catch(() => undefined);
  }
  return merged.length;
}

/** After the last snapshot's pack, how long to wait for more before joining (a burst joins once). */
const MERGE_QUIET_MS = 500;

const scheduled = new Map<string, { run: Promise<void>; hurry: () => void }>();
const running = new Map<string, Promise<void>>();
let inline = false;

/** For a process that exits right after its answer (a hook working alone): joins run inside the snapshot. */
export function mergePacksInline(): void {
  inline = true;
}

/**
 * A snapshot wrote a pack: join the small ones if there are many, off the
 * snapshot's path (after MERGE_QUIET_MS of quiet), or at once in a process
 * that will not be around for that.
 */
export async function scheduleMerge(gitDir: string): Promise<void> {
  if (inline) {
    await mergeSmallPacks(gitDir).catch(() => 0);
    return;
  }
  if (scheduled.has(gitDir)) return;
  const quiet = quietTime(MERGE_QUIET_MS);
  // One join at a time per store in this process: a later one waits for the one running.
  const run = Promise.all([quiet.elapsed, running.get(gitDir)])
    .then(() => {
      scheduled.delete(gitDir);
      return mergeSmallPacks(gitDir);
    })
    .then(
      () => undefined,
      () => undefined,
    );
  scheduled.set(gitDir, { run, hurry: quiet.hurry });
  running.set(gitDir, run);
  void run.then(() => {
    if (running.get(gitDir) === run) running.delete(gitDir);
  });
}

/** Resolves once no join is waiting or running (the CLI and the app wait for it before they exit). */
export async function settlePackMerges(): Promise<void> {
  while (scheduled.size > 0 || running.size > 0) {
    const entries = [...scheduled.values()];
    for (const entry of entries) entry.hurry();
    await Promise.all([...entries.map((e) => e.run), ...running.values()]);
  }
}
