// Which time labels the axis under the time-slider shows, and where. Pure: the
// caller gives the scale, the view, the track's width and a way to measure text.
// Candidates come level by level, coarse to fine (days, then 6 h … 1 min … 5 s), and a
// label is kept only where its box fits beside every label already kept and the
// two end labels — so labels never overlap, and the zoom decides how fine they
// get: days zoomed out, hours, then minutes; a busy hour that the axis stretches
// gets its minutes even when the rest of the view shows days.
import type { TimeScale, View } from './timeline-scale.js';
import { toTrack } from './timeline-scale.js';

/** day: a date; hour: a time of day to the minute; second: to the second (zoomed into a minute or two). */
export type AxisLabelKind = 'day' | 'hour' | 'second';

export interface AxisLabel {
  time: number;
  kind: AxisLabelKind;
  text: string;
  /** Left edge of the label's box in px from the track's left: the boundary itself (the box runs right of it). */
  x: number;
  width: number;
}

export interface AxisLayoutInput {
  scale: Pick<TimeScale, 'forTime' | 'timeAt' | 'breaks'>;
  view: View;
  /** The track's width in px. */
  width: number;
  /** Widths in px the two end labels take (left, right). */
  ends: [number, number];
  format(time: number, kind: AxisLabelKind): string;
  /** The rendered width of a label's text, in px (padding and border included by the caller or not: GAP keeps them apart). */
  measure(text: string, kind: AxisLabelKind): number;
}

/**
 * The times at the view's two ends, and how many digits of a second they need
 * to read apart: the ends are the axis' own times at its edges (as every label
 * between them is), so they are always in order with those labels; narrowed to
 * a few seconds they gain tenths, then thousandths. (Snapping each end to the
 * nearest checkpoint once made both ends read the same second with a later
 * label between them.)
 */
export function axisEnds(scale: Pick<TimeScale, 'timeAt'>, view: View): { start: number; end: number; fractionDigits: 0 | 1 | 3 } {
  const start = scale.timeAt(view.start);
  const end = scale.timeAt(view.end);
  const span = end - start;
  return { start, end, fractionDigits: span >= 20_000 ? 0 : span >= 2_000 ? 1 : 3 };
}

/** Room kept clear between two labels, px. */
export const LABEL_GAP = 10;
/** A level with more boundaries than this in view is too fine to try (their boxes could not fit anyway). */
const MAX_CANDIDATES = 3000;

interface Level {
  kind: AxisLabelKind;
  /** Step in minutes (days: 1440, stepped by the calendar). */
  minutes: number;
}

const LEVELS: Level[] = [
  { kind: 'day', minutes: 1440 },
  { kind: 'hour', minutes: 360 },
  { kind: 'hour', minutes: 180 },
  { kind: 'hour', minutes: 60 },
  { kind: 'hour', minutes: 30 },
  { kind: 'hour', minutes: 15 },
  { kind: 'hour', minutes: 10 },
  { kind: 'hour', minutes: 5 },
  { kind: 'hour', minutes: 1 },
  { kind: 'second', minutes: 0.5 },
  { kind: 'second', minutes: 0.25 },
  { kind: 'second', minutes: 10 / 60 },
  { kind: 'second', minutes: 5 / 60 },
];

/** The first local-clock boundary of `minutes` at or after t. */
function firstBoundary(t: number, minutes: number): Date {
  const d = new Date(t);
  if (minutes >= 1440) {
    d.setHours(0, 0, 0, 0);
    if (d.getTime() < t) d.setDate(d.getDate() + 1);
    return d;
  }
  if (minutes >= 60) {
    const hours = minutes / 60;
    d.setMinutes(0, 0, 0);
    d.setHours(Math.floor(d.getHours() / hours) * hours);
    while (d.getTime() < t) d.setHours(d.getHours() + hours);
    return d;
  }
  if (minutes >= 1) {
    d.setSeconds(0, 0);
    d.setMinutes(Math.floor(d.getMinutes() / minutes) * minutes);
    while (d.getTime() < t) d.setMinutes(d.getMinutes() + minutes);
    return d;
  }
  const seconds = Math.round(minutes * 60);
  d.setMilliseconds(0);
  d.setSeconds(Math.floor(d.getSeconds() / seconds) * seconds);
  while (d.getTime() < t) d.setSeconds(d.getSeconds() + seconds);
  return d;
}

function step(d: Date, minutes: number): void {
  if (minutes >= 1440) d.setDate(d.getDate() + 1);
  else if (minutes >= 60) d.setHours(d.getHours() + minutes / 60);
  else if (minutes >= 1) d.setMinutes(d.getMinutes() + minutes);
  else d.setSeconds(d.getSeconds() + Math.round(minutes * 60));
}

/** Time in [t0, t1] outside the breaks: only that time can hold sub-day labels. */
function activeMs(breaks: TimeScale['breaks'], t0: number, t1: number): number {
  let ms = t1 - t0;
  for (const b of breaks) ms -= Math.max(0, Math.min(t1, b.to) - Math.max(t0, b.from));
  return Math.max(0, ms);
}

export function layoutAxisLabels(input: AxisLayoutInput): AxisLabel[] {
  const { scale, view, width, ends, format, measure } = input;
  if (width <= 0) return [];
  const t0 = scale.timeAt(view.start);
  const t1 = scale.timeAt(view.end);
  if (!(t1 > t0)) return [];
  const minX = ends[0] + LABEL_GAP;
  const maxX = width - ends[1] - LABEL_GAP;
  const kept: AxisLabel[] = [];
  const seen = new Set<number>();
  const active = activeMs(scale.breaks, t0, t1);
  const fits = (x: number, w: number): boolean => {
    if (x < minX || x + w > maxX) return false;
    for (const k of kept) if (x < k.x + k.width + LABEL_GAP && k.x < x + w + LABEL_GAP) return false;
    return true;
  };
  for (const level of LEVELS) {
    const span = level.kind === 'day' ? t1 - t0 : active;
    if (span / (level.minutes * 60_000) > MAX_CANDIDATES) continue;
    // This level's boundaries in view (sub-day ones skip idle breaks), with their x.
    const cands: { t: number; x: number }[] = [];
    const d = firstBoundary(t0, level.minutes);
    let b = 0;
    for (let guard = 0; d.getTime() <= t1 && guard < MAX_CANDIDATES * 4; guard++) {
      const t = d.getTime();
      if (level.kind !== 'day') {
        while (b < scale.breaks.length && scale.breaks[b]!.to <= t) b++;
        const br = scale.breaks[b];
        if (br && br.from < t && t < br.to) {
          d.setTime(firstBoundary(br.to, level.minutes).getTime());
          continue;
        }
      }
      step(d, level.minutes);
      cands.push({ t, x: toTrack(view, scale.forTime(t)) * width });
    }
    for (let i = 0; i < cands.length; i++) {
      const { t, x } = cands[i]!;
      if (seen.has(t) || x < minX || x > maxX) continue;
      const text = format(t, level.kind);
      const w = measure(text, level.kind);
      // Only where this level is readable here: its neighbours of the same step are a label's width away.
      // (Otherwise a lone "14:15" would fill a hole between day labels.)
      const room = w + LABEL_GAP;
      const prev = cands[i - 1];
      const next = cands[i + 1];
      if (level.kind !== 'day' && ((prev && x - prev.x < room) || (next && next.x - x < room))) continue;
      seen.add(t);
      if (fits(x, w)) kept.push({ time: t, kind: level.kind, text, x, width: w });
    }
  }
  return kept.sort((a, b) => a.x - b.x);
}
