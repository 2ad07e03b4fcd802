// Where each checkpoint sits on the time-slider: ticks are placed by time,
// but every position still maps to one checkpoint (oldest = position 0).
import type { Checkpoint } from '../../../shared/model.js';

export interface TimeScale {
  /** Oldest first. */
  times: number[];
  min: number;
  span: number;
  /** Fraction 0..1 along the track for a position. */
  at(position: number): number;
  /** Fraction for an arbitrary time, clamped to the track. */
  forTime(timeMs: number): number;
  /** The position whose checkpoint is nearest in time to a fraction of the track. */
  nearest(fraction: number): number;
}

/** `checkpoints` newest first, as the timeline store keeps them. */
export function buildScale(checkpoints: readonly Pick<Checkpoint, 'time_ms'>[]): TimeScale {
  const n = checkpoints.length;
  const times = new Array<number>(n);
  for (let i = 0; i < n; i++) times[i] = checkpoints[n - 1 - i]!.time_ms;
  const min = times[0] ?? 0;
  const max = times[n - 1] ?? 0;
  const span = max - min;
  // Without a time span (one checkpoint, or all in the same millisecond) fall back to even spacing.
  const byIndex = span <= 0;
  const at = (p: number) => (n <= 1 ? 1 : byIndex ? p / (n - 1) : (times[p]! - min) / span);
  const forTime = (t: number) => (span <= 0 ? 1 : Math.max(0, Math.min(1, (t - min) / span)));
  const nearest = (fraction: number) => {
    if (n <= 1) return 0;
    if (byIndex) return Math.round(fraction * (n - 1));
    const target = min + fraction * span;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && target - times[lo - 1]! < times[lo]! - target) return lo - 1;
    return lo;
  };
  return { times, min, span, at, forTime, nearest };
}
