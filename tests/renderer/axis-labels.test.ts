// The time axis' labels (axis-labels.ts): never overlapping each other or the
// end labels, inside the track, finer as the view zooms in (days → hours →
// minutes), inside a busy hour, and never inside an idle break.
import { describe, expect, it } from 'vitest';
import { axisEnds, layoutAxisLabels, LABEL_GAP, type AxisLabel, type AxisLabelKind } from '../../renderer/src/lib/axis-labels.js';
import { atZoomFloor, buildScale, toTrack, zoomView, FULL_VIEW, type View } from '../../renderer/src/lib/timeline-scale.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const START = Date.UTC(2026, 10, 1, 0, 0, 0);

/** A month of work like scripts/bench-ui/seed-history.ts makes: bursts in working hours, nights and weekends idle. Newest first. */
function monthOfWork(count: number): { time_ms: number }[] {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const times: number[] = [];
  const perDay = Math.ceil(count / 30);
  for (let d = 0; d < 30 && times.length < count; d++) {
    for (let i = 0; i < perDay && times.length < count; i++) times.push(START + d * DAY + 8 * HOUR + rand() * 9 * HOUR);
  }
  return times.sort((a, b) => b - a).map((time_ms) => ({ time_ms }));
}

const fmt = (t: number, kind: AxisLabelKind): string => {
  const iso = new Date(t).toISOString();
  return kind === 'day' ? `Mon, Nov ${iso.slice(8, 10)}` : kind === 'hour' ? iso.slice(11, 16) : iso.slice(11, 19);
};
const measure = (text: string): number => text.length * 7 + 6;

function layout(checkpoints: { time_ms: number }[], view: View, width = 1200): AxisLabel[] {
  const scale = buildScale(checkpoints);
  return layoutAxisLabels({ scale, view, width, ends: [150, 150], format: fmt, measure });
}

function expectApartAndInside(labels: AxisLabel[], width = 1200): void {
  for (const l of labels) {
    expect(l.x).toBeGreaterThanOrEqual(150 + LABEL_GAP);
    expect(l.x + l.width).toBeLessThanOrEqual(width - 150 - LABEL_GAP);
  }
  for (let i = 1; i < labels.length; i++) expect(labels[i]!.x).toBeGreaterThanOrEqual(labels[i - 1]!.x + labels[i - 1]!.width + LABEL_GAP);
}

describe('axis labels', () => {
  const month = monthOfWork(10_000);

  it('zoomed out on a month of 10,000: labels apart, inside the track, days among them', () => {
    const labels = layout(month, FULL_VIEW);
    expectApartAndInside(labels);
    expect(labels.filter((l) => l.kind === 'day').length).toBeGreaterThanOrEqual(3);
  });

  it('gets finer as the view zooms in: hours, then minutes, always apart', () => {
    const scale = buildScale(month);
    // Around the middle of day 15.
    const u = scale.forTime(START + 15 * DAY + 12 * HOUR);
    let view = FULL_VIEW;
    const steps: AxisLabel[][] = [];
    for (let i = 0; i < 14; i++) {
      view = zoomView(view, 0.5, Math.max(0, Math.min(1, toTrack(view, u))));
      const labels = layoutAxisLabels({ scale, view, width: 1200, ends: [150, 150], format: fmt, measure });
      expectApartAndInside(labels);
      steps.push(labels);
    }
    const hasHour = (ls: AxisLabel[]) => ls.some((l) => l.kind === 'hour' && new Date(l.time).getMinutes() === 0);
    const hasMinute = (ls: AxisLabel[]) => ls.some((l) => new Date(l.time).getMinutes() !== 0);
    const firstHour = steps.findIndex(hasHour);
    const firstMinute = steps.findIndex(hasMinute);
    expect(firstHour).toBeGreaterThanOrEqual(0);
    expect(firstMinute).toBeGreaterThan(firstHour);
    expect(steps[0]!.some((l) => l.kind === "day")).toBe(true);
    // Zoomed far in, several labels still (not only the two ends).
    expect(steps[steps.length - 1]!.length).toBeGreaterThanOrEqual(2);
  });

  it('zoomed into a minute or two: seconds between the ends, still apart', () => {
    // Checkpoints 15 s apart for 20 minutes; the view is 40 seconds of them.
    const times: number[] = [];
    const t0 = START + 10 * HOUR;
    for (let i = 0; i < 80; i++) times.push(t0 + i * 15_000);
    const checkpoints = times.sort((a, b) => b - a).map((time_ms) => ({ time_ms }));
    const scale = buildScale(checkpoints);
    const from = scale.forTime(t0 + 5 * MIN);
    const to = scale.forTime(t0 + 5 * MIN + 40_000);
    const labels = layoutAxisLabels({ scale, view: { start: from, end: to }, width: 1200, ends: [150, 150], format: fmt, measure });
    expectApartAndInside(labels);
    expect(labels.filter((l) => l.kind === 'second').length).toBeGreaterThanOrEqual(2);
  });

  it('labels a busy hour inside, not only at its two ends', () => {
    // A quiet week with one checkpoint a day, and one hour with 240 checkpoints 15 s apart.
    const times: number[] = [];
    for (let d = 0; d < 7; d++) times.push(START + d * DAY + 9 * HOUR);
    const busy = START + 3 * DAY + 14 * HOUR;
    for (let i = 0; i < 240; i++) times.push(busy + i * 15_000);
    const labels = layout(times.sort((a, b) => b - a).map((time_ms) => ({ time_ms })), FULL_VIEW);
    expectApartAndInside(labels);
    const inside = labels.filter((l) => l.time > busy && l.time < busy + 240 * 15_000);
    expect(inside.length).toBeGreaterThanOrEqual(3);
  });

  it('puts no hour or minute label inside an idle break', () => {
    const scale = buildScale(month);
    const labels = layoutAxisLabels({ scale, view: FULL_VIEW, width: 4000, ends: [150, 150], format: fmt, measure });
    for (const l of labels.filter((x) => x.kind === 'hour')) {
      for (const b of scale.breaks) expect(l.time > b.from && l.time < b.to).toBe(false);
    }
  });

  it('gives nothing for an empty track or a single moment', () => {
    expect(layout(month, FULL_VIEW, 0)).toEqual([]);
    expect(layout([{ time_ms: START }], FULL_VIEW)).toEqual([]);
  });
});

describe('timeAt', () => {
  it('is the inverse of forTime inside the axis', () => {
    const scale = buildScale(monthOfWork(500));
    for (const t of [START + 8.5 * HOUR, START + 3 * DAY + 10 * HOUR, START + 20 * DAY + 12 * HOUR]) {
      expect(Math.abs(scale.timeAt(scale.forTime(t)) - t)).toBeLessThan(1000);
    }
  });
});

describe('the two end labels', () => {
  it('are the axis times at the view edges, in order with every label between them, down to the zoom floor; narrow views gain digits of a second', () => {
    // Checkpoints 20 s apart: zoomed in to the floor, the view falls between two of them.
    const times = Array.from({ length: 600 }, (_, i) => ({ time_ms: START + i * 20_000 })).reverse();
    const scale = buildScale(times);
    let view: View = FULL_VIEW;
    for (let step = 0; step < 40; step++) {
      const ends = axisEnds(scale, view);
      expect(ends.end).toBeGreaterThan(ends.start);
      const labels = layoutAxisLabels({ scale, view, width: 1000, ends: [120, 120], format: fmt, measure });
      for (const l of labels) {
        expect(l.time).toBeGreaterThanOrEqual(ends.start);
        expect(l.time).toBeLessThanOrEqual(ends.end);
      }
      if (ends.end - ends.start < 2_000) expect(ends.fractionDigits).toBe(3);
      view = zoomView(view, 0.55, 0.43);
    }
    expect(atZoomFloor(view)).toBe(true);
    expect(atZoomFloor(FULL_VIEW)).toBe(false);
  });
});
