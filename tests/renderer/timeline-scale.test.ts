// Slider geometry: ticks by time, positions still one per checkpoint.
import { describe, expect, it } from 'vitest';
import { buildScale } from '../../renderer/src/lib/timeline-scale.js';
import { relativeTime } from '../../renderer/src/lib/time.js';

const newestFirst = (...times: number[]) => times.sort((a, b) => b - a).map((time_ms) => ({ time_ms }));

describe('timeline scale', () => {
  it('places positions by time, oldest at 0 and newest at 1', () => {
    const scale = buildScale(newestFirst(1000, 2000, 11_000));
    expect(scale.at(0)).toBe(0);
    expect(scale.at(1)).toBeCloseTo(0.1);
    expect(scale.at(2)).toBe(1);
  });

  it('maps a point on the track to the checkpoint nearest in time', () => {
    const scale = buildScale(newestFirst(1000, 2000, 11_000));
    expect(scale.nearest(0)).toBe(0);
    expect(scale.nearest(0.04)).toBe(0);
    expect(scale.nearest(0.06)).toBe(1);
    expect(scale.nearest(0.5)).toBe(1);
    expect(scale.nearest(0.56)).toBe(2);
    expect(scale.nearest(1)).toBe(2);
  });

  it('spaces checkpoints evenly when they share one instant', () => {
    const scale = buildScale(newestFirst(5, 5, 5, 5, 5));
    expect([0, 1, 2, 3, 4].map((p) => scale.at(p))).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(scale.nearest(0.74)).toBe(3);
  });

  it('clamps effect times outside the checkpoints to the ends of the track', () => {
    const scale = buildScale(newestFirst(1000, 2000));
    expect(scale.forTime(0)).toBe(0);
    expect(scale.forTime(1500)).toBe(0.5);
    expect(scale.forTime(99_999)).toBe(1);
  });

  it('handles a single checkpoint and an empty timeline', () => {
    expect(buildScale(newestFirst(42)).at(0)).toBe(1);
    expect(buildScale([]).nearest(0.3)).toBe(0);
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
