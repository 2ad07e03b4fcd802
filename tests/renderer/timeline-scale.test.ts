// Slider geometry: compressed time (log-sized gaps, marked breaks), zoom, and
// the pure helpers the timeline's marks, filter and diff header use.
import { describe, expect, it } from 'vitest';
import { BREAK_MS, buildScale, revealInView, toTrack, withCheckpoints, zoomView } from '../../renderer/src/lib/timeline-scale.js';
import { relativeTime } from '../../renderer/src/lib/time.js';
import { effectVariant } from '../../renderer/src/lib/effects.js';
import { hiddenChange } from '../../renderer/src/lib/change-kind.js';
import { naturalCompare } from '../../renderer/src/lib/paths.js';
import { filterFromHash, filterToHash, matcher, NO_FILTER } from '../../renderer/src/lib/filter-match.js';
import { laneOf } from '../../renderer/src/lib/lanes.js';
import type { Checkpoint } from '../../shared/model.js';

const newestFirst = (...times: number[]) => times.sort((a, b) => b - a).map((time_ms) => ({ time_ms }));
const DAY = 86_400_000;

describe('timeline scale', () => {
  it('runs oldest at 0 to newest at 1, in time order', () => {
    const scale = buildScale(newestFirst(1000, 2000, 11_000, 50_000));
    expect(scale.at(0)).toBe(0);
    expect(scale.at(3)).toBe(1);
    expect(scale.at(1)).toBeGreaterThan(0);
    expect(scale.at(2)).toBeGreaterThan(scale.at(1));
  });

  it('gives a burst its room: 29 checkpoints a second apart, then one 2.5 minutes later, fill most of the track', () => {
    const times = Array.from({ length: 29 }, (_, i) => i * 1000);
    times.push(28_000 + 150_000);
    const scale = buildScale(newestFirst(...times));
    expect(scale.at(28)).toBeGreaterThan(0.6);
    // A linear axis would have squeezed them into 16 %.
    expect(28_000 / 178_000).toBeLessThan(0.2);
  });

  it('turns long pauses into marked breaks so 20 checkpoints over 9 days are all reachable by a 200-step sweep', () => {
    const times: number[] = [];
    for (let d = 0; d < 9; d++) for (let k = 0; k < (d === 0 ? 4 : 2); k++) times.push(d * DAY + k * 30_000);
    const scale = buildScale(newestFirst(...times));
    expect(scale.breaks.length).toBe(8);
    for (const b of scale.breaks) expect(b.to - b.from).toBeGreaterThan(BREAK_MS);
    const reached = new Set<number>();
    for (let i = 0; i <= 200; i++) reached.add(scale.nearest(i / 200));
    expect(reached.size).toBe(times.length);
    expect(scale.boundaries('day').length).toBeGreaterThanOrEqual(8);
  });

  it('spaces checkpoints of one instant evenly and maps a point to the nearest', () => {
    const scale = buildScale(newestFirst(5, 5, 5, 5, 5));
    [0, 0.25, 0.5, 0.75, 1].forEach((u, p) => expect(scale.at(p)).toBeCloseTo(u));
    expect(scale.nearest(0.74)).toBe(3);
    expect(scale.nearest(0)).toBe(0);
    expect(scale.nearest(1)).toBe(4);
  });

  it('places effects after the last checkpoint apart instead of piling them on its tick', () => {
    const scale = buildScale(newestFirst(0, 10_000), [20_000, 40_000, 60_000]);
    const us = [20_000, 40_000, 60_000].map((t) => scale.forTime(t));
    expect(us[0]).toBeLessThan(us[1]!);
    expect(us[1]).toBeLessThan(us[2]!);
    expect(scale.at(1)).toBeLessThan(us[0]!);
    expect(scale.forTime(-5)).toBe(0);
  });

  it('handles a single checkpoint and an empty timeline', () => {
    expect(buildScale(newestFirst(42)).at(0)).toBe(1);
    expect(buildScale([]).nearest(0.3)).toBe(0);
  });
});

describe('zoom', () => {
  it('keeps the point under the pointer in place and stays inside the axis', () => {
    const view = zoomView({ start: 0, end: 1 }, 0.25, 0.3);
    expect(view.end - view.start).toBeCloseTo(0.25);
    expect(toTrack(view, 0.3)).toBeCloseTo(0.3);
    const out = zoomView(view, 100, 0.5);
    expect(out).toEqual({ start: 0, end: 1 });
    expect(revealInView({ start: 0, end: 0.1 }, 0.9)).toMatchObject({ start: expect.closeTo(0.85) as unknown as number });
  });

  it('a whole-axis view stays exactly whole when the selection asks to be revealed (the oldest mark keeps x = 0)', () => {
    // Found by the Hermes lane e2e: rounding in (u + w/2) - (u - w/2) made the view start at 1e-16.
    for (let i = 0; i <= 1000; i++) {
      const u = 0.9 + i / 10_000;
      const view = revealInView({ start: 0, end: 1 }, u);
      expect(toTrack(view, 0), `u = ${u}`).toBe(0);
      expect(view.end).toBe(1);
    }
  });
});

describe('marks, filter, diff header helpers', () => {
  it('tells a force-push and a branch deletion from a plain push', () => {
    const push = { kind: 'git_push' as const, target: 'origin main' };
    expect(effectVariant({ ...push, command: 'git push origin main' })).toBe('plain');
    expect(effectVariant({ ...push, command: 'git push --force origin main' })).toBe('force');
    expect(effectVariant({ ...push, command: 'git push origin +main' })).toBe('force');
    expect(effectVariant({ ...push, command: 'git push origin --delete main' })).toBe('delete');
    expect(effectVariant({ ...push, command: 'git push origin :main' })).toBe('delete');
  });

  it('flags changes a text diff would hide', () => {
    expect(hiddenChange('a\nb\n', 'a\r\nb\r\n')).toBe('line-endings');
    expect(hiddenChange('a b\n', 'a  b \n')).toBe('whitespace');
    expect(hiddenChange('a\n', 'b\n')).toBeNull();
  });

  it('sorts paths naturally', () => {
    expect(['f10', 'f2', 'F1', 'f1'].sort(naturalCompare)).toEqual(['F1', 'f1', 'f2', 'f10']);
  });

  it('keeps a filter in the URL hash and matches checkpoints by it', () => {
    const f = { ...NO_FILTER, path: 'src/**/*.ts', text: 'fix bug', trigger: 'hook' as const, pinned: true };
    expect(filterFromHash(filterToHash(f), ['hook', 'auto'])).toEqual(f);
    expect(filterFromHash('#trigger=evil', ['hook']).trigger).toBe('');
    const cp = (over: Partial<Checkpoint>): Checkpoint => ({
      id: 'a', time: '', time_ms: 0, reason: 'Fix the bug in parser', trigger: 'hook', stats: { files: 1, insertions: 1, deletions: 0 }, skipped: [], pinned: true, ...over,
    });
    const keep = matcher(f, new Set(['a']));
    expect(keep(cp({}))).toBe(true);
    expect(keep(cp({ pinned: false }))).toBe(false);
    expect(keep(cp({ id: 'b' }))).toBe(false);
    expect(keep(cp({ reason: 'something else' }))).toBe(false);
  });

  it('names lanes by agent session, else by who made them', () => {
    expect(laneOf({ trigger: 'hook', agent: 'claude-code', session: 'abcdef1234' }).label).toBe('Claude Code · session abcdef12');
    expect(laneOf({ trigger: 'hook', agent: 'x', origin: 'hermes', session: 's1' }).label).toBe('Hermes · session s1');
    expect(laneOf({ trigger: 'auto' }).key).toBe('watcher');
    expect(laneOf({ trigger: 'manual' }).key).toBe('person');
    expect(laneOf({ trigger: 'safety' }).key).toBe('restore');
  });

  it('labels an agent lane with the prompt where the agent gave one: each prompt its own group, one colour and filter key per session', () => {
    const a = laneOf({ trigger: 'hook', agent: 'claude-code', session: 'abcdef1234', prompt: 'Fix the login bug' });
    const b = laneOf({ trigger: 'hook', agent: 'claude-code', session: 'abcdef1234', prompt: 'Add a test' });
    expect(a.label).toBe('Claude Code · “Fix the login bug”');
    expect(a.title).toContain('session abcdef12');
    expect(a.group).not.toBe(b.group);
    expect(a.key).toBe(b.key);
    expect(a.colour).toBe(b.colour);
  });
});

describe('relative time', () => {
  const now = 10_000_000;
  it('reads like a person would say it', () => {
    expect(relativeTime(now - 3_000, now)).toBe('just now');
    expect(relativeTime(now - 45_000, now)).toBe('45 s ago');
    expect(relativeTime(now - 4 * 60_000, now)).toBe('4 min ago');
    expect(relativeTime(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(relativeTime(now - 2 * 86_400_000 - 5, now)).toBe('2 d ago');
    expect(relativeTime(now + 60_000, now)).toBe('just now');
  });
});

describe('zoom never lands on an empty window (withCheckpoints)', () => {
  const us = new Float64Array([0.1, 0.2, 0.6, 0.61]);
  it('keeps a view that holds a checkpoint as it is', () => {
    const view = { start: 0.15, end: 0.25 };
    expect(withCheckpoints(view, us)).toBe(view);
  });
  it('a view inside a pause takes in the nearest checkpoint on either side', () => {
    const got = withCheckpoints({ start: 0.3, end: 0.31 }, us);
    expect(got.start).toBeLessThanOrEqual(0.2);
    expect(got.end).toBeGreaterThanOrEqual(0.6);
    expect(got.end - got.start).toBeLessThan(0.5);
  });
  it('past the newest or before the oldest, the nearest one is in view', () => {
    const late = withCheckpoints({ start: 0.9, end: 0.95 }, us);
    expect(late.start).toBeLessThanOrEqual(0.61);
    expect(late.end).toBeGreaterThanOrEqual(0.61);
    const early = withCheckpoints({ start: 0.01, end: 0.05 }, us);
    expect(early.start).toBeLessThanOrEqual(0.1);
    expect(early.end).toBeGreaterThanOrEqual(0.1);
  });
});
