// The thinning selection (electron/engine/retention/select.ts) at its edges:
// hour and day buckets per lane, the 30- and 90-day lines, a session's first
// and last, pinned and effect-named checkpoints, and the person's own limits.
import { describe, expect, it } from 'vitest';
import { budgetCandidates, selectRemovals, type Selectable } from '../../electron/engine/retention/select.js';

const H = 3_600_000;
const D = 24 * H;
// A whole UTC day, so bucket edges are where the test says.
const NOW = Date.UTC(2026, 11, 6, 12, 0, 0);
const OFF = { maxCheckpoints: null, maxAgeDays: null };

let n = 0;
function cp(time_ms: number, fields: Selectable['fields'] = { trigger: 'auto' }): Selectable {
  n += 1;
  return { id: `c${n}-${time_ms}`, time_ms, fields };
}
const claude = (session: string): Selectable['fields'] => ({ trigger: 'hook', agent: 'claude-code', session });
/** As listed: newest first. */
const listed = (items: Selectable[]) => [...items].sort((a, b) => b.time_ms - a.time_ms);
const removedIds = (items: Selectable[], spared: string[] = [], limits = OFF) => [...selectRemovals(listed(items), new Set(spared), limits, NOW).keys()].sort();

describe('thinning selection', () => {
  it('removes nothing younger than 30 days, however dense', () => {
    const items = Array.from({ length: 500 }, (_, i) => cp(NOW - 30 * D + H + i * 1000));
    expect(removedIds(items)).toEqual([]);
  });

  it('keeps the newest of each UTC hour per lane between 30 and 90 days', () => {
    const hour = Math.floor((NOW - 40 * D) / H) * H; // the start of a whole hour, 40 days back
    const a = cp(hour + 60_000);
    const b = cp(hour + 30 * 60_000);
    const c = cp(hour + H - 1); // the newest of the hour
    const d = cp(hour + H); // the next hour: its own bucket
    const person = cp(hour + 10 * 60_000, { trigger: 'manual' }); // another lane: its own bucket
    const newest = cp(NOW - 1000);
    expect(removedIds([a, b, c, d, person, newest])).toEqual([a.id, b.id].sort());
  });

  it('keeps the newest of each UTC day per lane beyond 90 days', () => {
    const day = Math.floor((NOW - 120 * D) / D) * D;
    const early = cp(day + H);
    const noon = cp(day + 12 * H);
    const last = cp(day + D - 1);
    const nextDay = cp(day + D);
    const hermes = cp(day + 2 * H, { trigger: 'hook', agent: 'hermes', session: 'h', origin: 'hermes' });
    const newest = cp(NOW - 1000);
    expect(removedIds([early, noon, last, nextDay, hermes, newest])).toEqual([early.id, noon.id].sort());
  });

  it('thins by hours just inside 90 days and by days just beyond', () => {
    const inside = Math.floor((NOW - 90 * D) / H) * H + H; // an hour that is all younger than 90 days
    const i1 = cp(inside + 1000);
    const i2 = cp(inside + 2000);
    const beyondDay = Math.floor((NOW - 95 * D) / D) * D;
    const b1 = cp(beyondDay + H);
    const b2 = cp(beyondDay + 5 * H); // another hour, same day: one of the two goes
    const newest = cp(NOW - 1000);
    expect(removedIds([i1, i2, b1, b2, newest])).toEqual([i1.id, b1.id].sort());
  });

  it('keeps the first and last checkpoint of each agent session', () => {
    const hour = Math.floor((NOW - 50 * D) / H) * H;
    const first = cp(hour + 1000, claude('s1'));
    const middle = cp(hour + 2000, claude('s1'));
    const middle2 = cp(hour + 3000, claude('s1'));
    const last = cp(hour + 4000, claude('s1'));
    const newest = cp(NOW - 1000);
    // `last` is also the newest of its hour; `first` is kept as the session's first.
    expect(removedIds([first, middle, middle2, last, newest])).toEqual([middle.id, middle2.id].sort());
  });

  it('spares pinned, effect-named and approval-named checkpoints and the newest', () => {
    const hour = Math.floor((NOW - 60 * D) / H) * H;
    const pinned = cp(hour + 1000);
    const effect = cp(hour + 2000);
    const other = cp(hour + 3000);
    const top = cp(hour + 4000);
    expect(removedIds([pinned, effect, other, top], [pinned.id, effect.id])).toEqual([other.id]);
    // The newest of all is kept even when it is the only one and old.
    const alone = cp(NOW - 200 * D);
    expect(removedIds([alone])).toEqual([]);
  });

  it('applies the person’s age and count limits to checkpoints of any age, sparing pinned and the newest', () => {
    const items = Array.from({ length: 10 }, (_, i) => cp(NOW - i * D - 1000));
    const pinned = items[9]!;
    // Age 3 days: everything older than 3 days but the pinned one.
    expect(removedIds(items, [pinned.id], { maxCheckpoints: null, maxAgeDays: 3 })).toEqual(items.slice(3, 9).map((i) => i.id).sort());
    // Count 4 (the pinned one counts): the oldest unpinned go until 4 remain.
    expect(removedIds(items, [pinned.id], { maxCheckpoints: 4, maxAgeDays: null })).toEqual(items.slice(3, 9).map((i) => i.id).sort());
    // Age 0 is no limit.
    expect(removedIds(items, [], { maxCheckpoints: null, maxAgeDays: 0 })).toEqual([]);
    // Under a count limit, a session's first and last are not spared.
    const s = [cp(NOW - 5000, claude('x')), cp(NOW - 4000, claude('x')), cp(NOW - 3000)];
    expect(removedIds(s, [], { maxCheckpoints: 1, maxAgeDays: null })).toEqual([s[0]!.id, s[1]!.id].sort());
  });

  it('takes the budget’s share from the oldest thinnable checkpoints only', () => {
    const old = Array.from({ length: 20 }, (_, i) => cp(NOW - 100 * D - i * D));
    const young = Array.from({ length: 5 }, (_, i) => cp(NOW - i * H - 1000));
    const picked = budgetCandidates(listed([...old, ...young]), new Set([old[19]!.id]), NOW);
    // A tenth of the 19 eligible (the pinned oldest is not): 2, the oldest first.
    expect(picked.map((p) => p.id)).toEqual([old[18]!.id, old[17]!.id]);
  });
});
