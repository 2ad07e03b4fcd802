// Where each checkpoint sits on the time-slider. Time is not linear here: a
// burst of edits seconds apart and a night's pause cannot share one linear
// axis (the burst becomes one tick). Each gap between two moments gets room
// that grows with the log of its length, and a gap longer than BREAK_MS
// becomes a fixed-width, marked break. The axis runs 0..1 ("u"); every
// checkpoint position (oldest = 0) maps to one u, and any time maps to a u
// by interpolating inside its gap. Other moments (effects after the last
// checkpoint, "now") can join the axis without becoming positions.
import type { Checkpoint } from '../../../shared/model.js';

/** A pause longer than this is drawn as a break of fixed width. */
export const BREAK_MS = 30 * 60_000;
/** Room a break takes: at least this many units (a gap's log-seconds), and at least BREAK_SHARE of the rest of the axis, so it shows at any count. */
const BREAK_UNITS = 8;
const BREAK_SHARE = 0.012;
/** Every gap, even 0 ms, gets this much room: checkpoints of one instant still spread. */
const FLOOR_UNITS = 0.35;

/** Room for a gap up to BREAK_MS: grows with the log of its seconds, never below the floor. */
export function gapUnits(gapMs: number): number {
  return FLOOR_UNITS + Math.log1p(Math.max(0, gapMs) / 1000);
}

export interface AxisBreak {
  /** u where the break starts and ends. */
  u0: number;
  u1: number;
  /** The times on either side. */
  from: number;
  to: number;
}

export interface Boundary {
  u: number;
  time: number;
}

export interface TimeScale {
  /** Checkpoint times, oldest first. */
  times: number[];
  /** u of each checkpoint position. */
  us: Float64Array;
  breaks: AxisBreak[];
  /** u of a position. */
  at(position: number): number;
  /** u of an arbitrary time, clamped to the axis. */
  forTime(timeMs: number): number;
  /** The position whose u is nearest. */
  nearest(u: number): number;
  /** The time at axis point u (inverse of forTime; inside a break, interpolated across it). */
  timeAt(u: number): number;
  /** Local midnight ('day') or whole-hour ('hour') boundaries inside the axis. */
  boundaries(kind: 'day' | 'hour'): Boundary[];
}

/** `checkpoints` newest first, as the timeline store keeps them; `extra` are other moments for the axis. */
export function buildScale(checkpoints: readonly Pick<Checkpoint, 'time_ms'>[], extra: readonly number[] = []): TimeScale {
  const n = checkpoints.length;
  const times = new Array<number>(n);
  for (let i = 0; i < n; i++) times[i] = checkpoints[n - 1 - i]!.time_ms;
  // The axis' knots: every checkpoint and every extra moment, in time order.
  // Extra moments before the first checkpoint are left out (nothing to scrub there).
  const first = times[0] ?? 0;
  const extras = extra.filter((t) => n > 0 && t > first).sort((a, b) => a - b);
  const knotTimes: number[] = [];
  const knotIsCp: boolean[] = [];
  let e = 0;
  for (let i = 0; i < n; i++) {
    while (e < extras.length && extras[e]! < times[i]!) {
      knotTimes.push(extras[e++]!);
      knotIsCp.push(false);
    }
    knotTimes.push(times[i]!);
    knotIsCp.push(true);
  }
  while (e < extras.length) {
    knotTimes.push(extras[e++]!);
    knotIsCp.push(false);
  }
  const k = knotTimes.length;
  const knotU = new Float64Array(k);
  const rawBreaks: { i: number }[] = [];
  // Extra moments (effects, now) get at most twice the floor: they mark time, they don't claim room.
  const unitsOf = (i: number, gap: number): number => (knotIsCp[i] ? gapUnits(gap) : Math.min(gapUnits(gap), FLOOR_UNITS * 2));
  let active = 0;
  for (let i = 1; i < k; i++) {
    const gap = knotTimes[i]! - knotTimes[i - 1]!;
    if (gap > BREAK_MS) rawBreaks.push({ i });
    else active += unitsOf(i, gap);
  }
  const breakUnits = Math.max(BREAK_UNITS, active * BREAK_SHARE);
  let total = 0;
  for (let i = 1; i < k; i++) {
    const gap = knotTimes[i]! - knotTimes[i - 1]!;
    total += gap > BREAK_MS ? breakUnits : unitsOf(i, gap);
    knotU[i] = total;
  }
  if (total > 0) for (let i = 0; i < k; i++) knotU[i] = knotU[i]! / total;
  else if (k === 1) knotU[0] = 1;

  const us = new Float64Array(n);
  for (let i = 0, p = 0; i < k; i++) if (knotIsCp[i]) us[p++] = knotU[i]!;
  const breaks: AxisBreak[] = rawBreaks.map(({ i }) => ({ u0: knotU[i - 1]!, u1: knotU[i]!, from: knotTimes[i - 1]!, to: knotTimes[i]! }));

  const at = (p: number) => (n === 0 ? 1 : us[Math.max(0, Math.min(n - 1, p))]!);

  const forTime = (t: number): number => {
    if (k === 0) return 1;
    if (t <= knotTimes[0]!) return knotU[0]!;
    if (t >= knotTimes[k - 1]!) return knotU[k - 1]!;
    let lo = 0;
    let hi = k - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (knotTimes[mid]! <= t) lo = mid;
      else hi = mid;
    }
    const t0 = knotTimes[lo]!;
    const t1 = knotTimes[hi]!;
    if (t1 === t0) return knotU[lo]!;
    return knotU[lo]! + ((t - t0) / (t1 - t0)) * (knotU[hi]! - knotU[lo]!);
  };

  const nearest = (u: number): number => {
    if (n <= 1) return 0;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (us[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && u - us[lo - 1]! <= us[lo]! - u) return lo - 1;
    return lo;
  };

  const timeAt = (u: number): number => {
    if (k === 0) return 0;
    if (u <= knotU[0]!) return knotTimes[0]!;
    if (u >= knotU[k - 1]!) return knotTimes[k - 1]!;
    let lo = 0;
    let hi = k - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (knotU[mid]! <= u) lo = mid;
      else hi = mid;
    }
    const u0 = knotU[lo]!;
    const u1 = knotU[hi]!;
    if (u1 === u0) return knotTimes[lo]!;
    return knotTimes[lo]! + ((u - u0) / (u1 - u0)) * (knotTimes[hi]! - knotTimes[lo]!);
  };

  const boundaries = (kind: 'day' | 'hour'): Boundary[] => {
    if (k < 2) return [];
    const start = knotTimes[0]!;
    const end = knotTimes[k - 1]!;
    const out: Boundary[] = [];
    const d = new Date(start);
    if (kind === 'day') d.setHours(24, 0, 0, 0);
    else d.setMinutes(60, 0, 0);
    // A 9-month history has ~6,500 hours: cap the work, hours only matter zoomed in.
    for (let guard = 0; d.getTime() < end && guard < 20_000; guard++) {
      out.push({ u: forTime(d.getTime()), time: d.getTime() });
      if (kind === 'day') d.setDate(d.getDate() + 1);
      else d.setHours(d.getHours() + 1);
    }
    return out;
  };

  return { times, us, breaks, at, forTime, nearest, timeAt, boundaries };
}

/** The visible part of the axis: [start, end] within 0..1. */
export interface View {
  start: number;
  end: number;
}

export const FULL_VIEW: View = { start: 0, end: 1 };
/** The narrowest view: 1/2000 of the axis (10,000 checkpoints → ~5 in view). The axis says when it is reached (zoomFloor). */
const MIN_WIDTH = 1 / 2000;

/** Whether the view is as narrow as zooming goes (a wheel step in changes nothing more). */
export function atZoomFloor(view: View): boolean {
  return view.end - view.start <= MIN_WIDTH * (1 + 1e-6);
}

/** Zoom by `factor` (< 1 zooms in) keeping the axis point under `anchor` (fraction of the view) in place. */
export function zoomView(view: View, factor: number, anchor: number): View {
  const width = view.end - view.start;
  const next = Math.max(MIN_WIDTH, Math.min(1, width * factor));
  const pivot = view.start + anchor * width;
  return clampView({ start: pivot - anchor * next, end: pivot - anchor * next + next });
}

/**
 * A view zoomed into a pause can hold no checkpoint at all (an empty 16-minute
 * window): then it takes in the nearest checkpoints on either side instead —
 * never wider than needed, a margin of a tenth around them. `us`: the
 * checkpoints' axis points, ascending. Unchanged when one is in view.
 */
export function withCheckpoints(view: View, us: Float64Array): View {
  const n = us.length;
  if (n === 0) return view;
  // The first checkpoint at or after the view's start.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (us[mid]! < view.start) lo = mid + 1;
    else hi = mid;
  }
  if (lo < n && us[lo]! <= view.end) return view;
  const before = lo > 0 ? us[lo - 1]! : null;
  const after = lo < n ? us[lo]! : null;
  const a = before ?? after!;
  const b = after ?? before!;
  const span = Math.max(b - a, MIN_WIDTH);
  const margin = span * 0.1;
  return clampView({ start: a - margin, end: b + margin });
}

/** Keep the width, stay inside 0..1. */
export function clampView(view: View): View {
  // (u + w/2) - (u - w/2) can come out a hair under w: a whole-axis view that
  // pans by rounding would start at 1e-16 and push the oldest mark out of view.
  if (view.end - view.start > 1 - 1e-9) return FULL_VIEW;
  const width = Math.max(MIN_WIDTH, view.end - view.start);
  const start = Math.max(0, Math.min(1 - width, view.start));
  return { start, end: start + width };
}

/** Pan so that `u` is inside the view, with a margin; unchanged when it already is. */
export function revealInView(view: View, u: number, margin = 0.08): View {
  const width = view.end - view.start;
  if (u >= view.start + margin * width && u <= view.end - margin * width) return view;
  const next = clampView({ start: u - width / 2, end: u + width / 2 });
  // The same view stays the same object: every memoised layer of the slider keeps its render.
  return next.start === view.start && next.end === view.end ? view : next;
}

/** Fraction of the track (0..1 inside the view, outside otherwise) for an axis point. */
export function toTrack(view: View, u: number): number {
  return (u - view.start) / (view.end - view.start);
}

export function fromTrack(view: View, fraction: number): number {
  return view.start + fraction * (view.end - view.start);
}
