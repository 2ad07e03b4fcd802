// Which packs one upkeep rewrites (upkeep.ts does the writing and removing).
// A pure choice from sizes, so the rule is tested without git.
//
// A routine run rolls up only what is new — the packs snapshots and
// pack-merge.ts wrote whole, loose objects — together with those of upkeep's
// own earlier rolls that are small beside it (each pack kept must be at least
// `factor` × everything rolled below it, as git's `repack --geometric`): a
// byte is rewritten O(log n) times, and a run costs about what is new. The
// pack of the last full compression is left as it is, until the rolls since
// reach `fullGrowth` of it: then everything is compressed anew (deltas across
// the whole store, one pack), so the store grows by a factor between full
// runs and their cost over a store's life is a geometric sum.

/**
 * Below this, the last full pack is compressed anew at every run rather than rolled: a full run of a
 * store this small costs a second or two at nice 19, and rolls would leave it above git gc (150
 * snapshots of 40 files: 1.17× rolled, 0.98× full; `bench --store-sizes 150,1000`).
 */
export const SMALL_STORE_BYTES = 32 * 1024 * 1024;
/**
 * A full run once the rolls since the last full one reach this fraction of it. A roll stores each
 * file's first version in it whole, so this bounds how far above a full compression the store sits
 * between full runs: with a quarter that bound was ~1.25× (a store measured 1.17× git gc after a
 * roll); with a tenth the worst of ten sampled pauses at 10,000 snapshots was 0.99×, for 25 full
 * runs of 40 instead of about half (`bench --store-sizes`, docs/store-health.md).
 */
export const FULL_GROWTH = 0.1;
/** Each pack a roll keeps is at least this many times what it rolls (git's --geometric=2). */
export const ROLL_FACTOR = 2;
/** A full run rather than a roll that would leave more compressed packs than this. */
export const ROLLED_PACK_LIMIT = 12;

export interface PackSize {
  name: string;
  /** Bytes of its .pack. */
  bytes: number;
}

export interface RollInput {
  /** Every pack there now (no .keep). */
  packs: readonly PackSize[];
  /** Packs upkeep wrote (full or rolled): delta-searched already. */
  compressed: ReadonlySet<string>;
  /** Of those, the last full compression's. */
  full: ReadonlySet<string>;
  /** Loose objects' bytes (estimated). */
  looseBytes: number;
  fullGrowth?: number;
  factor?: number;
  packLimit?: number;
  smallStoreBytes?: number;
}

export type RollPlan =
  | { kind: 'full'; why: string }
  /** roll: rewritten into one new pack, then removed; keep: left byte for byte (and excluded from the new pack). */
  | { kind: 'roll'; roll: string[]; keep: string[] };

export function planRoll(input: RollInput): RollPlan {
  const fullGrowth = input.fullGrowth ?? FULL_GROWTH;
  const factor = input.factor ?? ROLL_FACTOR;
  const packLimit = input.packLimit ?? ROLLED_PACK_LIMIT;
  const whole = input.packs.filter((p) => !input.compressed.has(p.name));
  const full = input.packs.filter((p) => input.full.has(p.name));
  const rolled = input.packs.filter((p) => input.compressed.has(p.name) && !input.full.has(p.name)).sort((a, b) => a.bytes - b.bytes || a.name.localeCompare(b.name));
  if (full.length === 0) return { kind: 'full', why: 'no full compression yet' };
  const sum = (ps: readonly PackSize[]): number => ps.reduce((n, p) => n + p.bytes, 0);
  const fullBytes = sum(full);
  // Compressed bytes beside compressed bytes: what is new is written whole, often
  // ten times what it compresses to, and would call a full run at every pause.
  if (fullBytes < (input.smallStoreBytes ?? SMALL_STORE_BYTES)) return { kind: 'full', why: 'a small store: compressed whole' };
  const after = sum(rolled);
  if (after >= fullGrowth * fullBytes) return { kind: 'full', why: `the rolls since the last full compression are ${Math.round((after / Math.max(1, fullBytes)) * 100)}% of it` };
  // Smallest first: a rolled pack is taken while it is small beside what is rolled so far.
  let rolling = sum(whole) + input.looseBytes;
  const roll = whole.map((p) => p.name);
  let k = 0;
  for (; k < rolled.length; k++) {
    const p = rolled[k]!;
    if (p.bytes >= factor * rolling) break;
    roll.push(p.name);
    rolling += p.bytes;
  }
  const keep = [...rolled.slice(k), ...full].map((p) => p.name);
  if (keep.length + 1 > packLimit) return { kind: 'full', why: `${keep.length + 1} compressed packs (limit ${packLimit})` };
  return { kind: 'roll', roll, keep };
}
