// Which checkpoints retention removes, and by which rule: a pure function of
// the records, the time and the limits (docs/store-health.md states the same
// rules with their arithmetic).
//
// - Nothing younger than THIN_AFTER_DAYS is thinned.
// - Older: one per hour per lane up to HOURLY_UNTIL_DAYS, one per day per lane
//   beyond. The newest of each hour (day) stays: the state the lane reached.
//   Buckets are whole UTC hours and days, so a checkpoint kept today is kept
//   tomorrow too (the newest of a day is the newest of its last hour).
// - Never removed by thinning or the budget: the newest checkpoint, pinned ones,
//   those the caller names (an effect, a pending approval, the one looked at,
//   one the person brought back by undo), the first and last of each session.
// - The person's own limits (a count, an age) apply as set to checkpoints of
//   any age; only the newest, pinned and named ones are spared.
import type { RemovalRule } from '../../../shared/model.js';
import { laneKey, type LaneKeyFields } from '../../../shared/lane-key.js';

export const THIN_AFTER_DAYS = 30;
export const HOURLY_UNTIL_DAYS = 90;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface Selectable {
  id: string;
  time_ms: number;
  fields: LaneKeyFields;
}

export interface Limits {
  /** A count limit (pinned ones count toward it). null: none. */
  maxCheckpoints: number | null;
  /** An age limit in days. null or 0: none. */
  maxAgeDays: number | null;
}

/** The first and last checkpoint of each agent session (its lane), by time. */
export function sessionEnds(items: readonly Selectable[]): Set<string> {
  const ends = new Map<string, { first: Selectable; last: Selectable }>();
  for (const item of items) {
    if (!item.fields.agent && item.fields.origin !== 'hermes') continue;
    const key = laneKey(item.fields);
    const seen = ends.get(key);
    if (!seen) ends.set(key, { first: item, last: item });
    else {
      if (item.time_ms < seen.first.time_ms) seen.first = item;
      if (item.time_ms > seen.last.time_ms) seen.last = item;
    }
  }
  return new Set([...ends.values()].flatMap((e) => [e.first.id, e.last.id]));
}

/** The thinning bucket of a checkpoint older than THIN_AFTER_DAYS, or null when it is too young to thin. */
export function thinBucket(item: Selectable, now: number): string | null {
  const age = now - item.time_ms;
  if (age < THIN_AFTER_DAYS * DAY_MS) return null;
  const lane = laneKey(item.fields);
  return age < HOURLY_UNTIL_DAYS * DAY_MS ? `${lane}\0h${Math.floor(item.time_ms / HOUR_MS)}` : `${lane}\0d${Math.floor(item.time_ms / DAY_MS)}`;
}

/**
 * The removals, by id, in the order of `items` (newest first, as listed).
 * `spared`: pinned and caller-named ids, never removed.
 */
export function selectRemovals(items: readonly Selectable[], spared: ReadonlySet<string>, limits: Limits, now: number): Map<string, RemovalRule> {
  const out = new Map<string, RemovalRule>();
  const newest = items.reduce<Selectable | null>((a, b) => (a === null || b.time_ms > a.time_ms ? b : a), null);
  const removable = (item: Selectable) => item !== newest && !spared.has(item.id);

  if (limits.maxAgeDays !== null && limits.maxAgeDays > 0) {
    const cutoff = now - limits.maxAgeDays * DAY_MS;
    for (const item of items) if (item.time_ms < cutoff && removable(item)) out.set(item.id, 'age');
  }

  const ends = sessionEnds(items);
  const taken = new Set<string>();
  for (const item of [...items].sort((a, b) => b.time_ms - a.time_ms)) {
    const bucket = thinBucket(item, now);
    if (bucket === null) continue;
    if (!taken.has(bucket)) {
      taken.add(bucket); // the newest of its hour (day) in its lane stays
      continue;
    }
    if (removable(item) && !ends.has(item.id) && !out.has(item.id)) out.set(item.id, 'thinned');
  }

  if (limits.maxCheckpoints !== null) {
    let remaining = items.length - out.size;
    for (const item of [...items].sort((a, b) => a.time_ms - b.time_ms)) {
      if (remaining <= limits.maxCheckpoints) break;
      if (out.has(item.id) || !removable(item)) continue;
      out.set(item.id, 'count');
      remaining -= 1;
    }
  }
  return out;
}

/**
 * What the budget may remove when the store is over it: the oldest checkpoints
 * old enough to thin, never a spared one, a session's first or last, or the
 * newest; `share` of them per pass (oldest first).
 */
export function budgetCandidates(items: readonly Selectable[], spared: ReadonlySet<string>, now: number, share = 0.1): Selectable[] {
  const ends = sessionEnds(items);
  const newest = items.reduce<Selectable | null>((a, b) => (a === null || b.time_ms > a.time_ms ? b : a), null);
  const eligible = items
    .filter((i) => i !== newest && !spared.has(i.id) && !ends.has(i.id) && thinBucket(i, now) !== null)
    .sort((a, b) => a.time_ms - b.time_ms);
  return eligible.slice(0, eligible.length === 0 ? 0 : Math.max(1, Math.ceil(eligible.length * share)));
}
