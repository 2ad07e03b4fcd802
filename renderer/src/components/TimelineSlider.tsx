// The time-slider: one position per checkpoint (oldest left, newest right) on
// an axis where idle gaps are compressed into marked breaks (timeline-scale.ts),
// with day/hour boundaries, zoom around the pointer (wheel, pinch, + / - / 0)
// and an overview strip of the whole history. Lanes of who made each
// checkpoint run under the ticks; restores, pins and effects are marks that
// stack with a count where they would overlap. It reads only what is already
// in memory — never waits for git.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import type { Checkpoint, EffectRecord } from '../../../shared/model.js';
import { selectedPosition, useTimeline } from '../state/timeline.js';
import { useEffects } from '../state/effects.js';
import { useFilter } from '../state/filter.js';
import { selectEdge, stepBy } from '../state/navigate.js';
import { useClock } from '../state/clock.js';
import { holdScrub, useScrub } from '../state/scrub.js';
import { absoluteTime, absoluteTimePrecise, relativeTime, shortId } from '../lib/time.js';
import { effectKindLabel, effectVariant, effectVariantLabel } from '../lib/effects.js';
import { wordsIn } from '../lib/checkpoint-title.js';
import { leftOutText } from '../../../shared/checkpoint-words.js';
import { laneOf } from '../lib/lanes.js';
import { LineStats, TriggerBadge } from './bits.js';
import { HermesLane, OriginBadge, hasHermesLane, isHermes } from './HermesLane.js';
import { VerifyMarks } from './VerifyMarks.js';
import { FailedCallCard, PromptMarks } from './PromptMarks.js';
import { HoverCard, TimelineLegend } from './TimelineLegend.js';
import { axisEnds, layoutAxisLabels, type AxisLabelKind } from '../lib/axis-labels.js';
import { atZoomFloor, buildScale, clampView, fromTrack, FULL_VIEW, revealInView, toTrack, withCheckpoints, zoomView, type TimeScale as Scale, type View } from '../lib/timeline-scale.js';

/** A pointer this near a tick (px) shows the tick's card. */
const HOVER_PX = 6;
/** Marks closer than this many pixels share one stacked mark with a count. */
const STACK_PX = 12;
const DAY_MS = 86_400_000;
// Formatters made once: a toLocale…String call with options builds a new one every time.
const DAY_LABEL = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
const HOUR_LABEL = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const SECOND_LABEL = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export function duration(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h${min % 60 ? ` ${min % 60} min` : ''}`;
  return `${Math.round(ms / DAY_MS)} days`;
}

export function TimelineSlider() {
  const checkpoints = useTimeline((s) => s.checkpoints);
  const workspace = useTimeline((s) => s.workspace);
  const status = useTimeline((s) => s.status);
  const position = useTimeline(selectedPosition);
  const select = useTimeline((s) => s.select);
  const effects = useEffects((s) => s.list);
  const matches = useFilter((s) => s.matches);
  const now = useClock((s) => s.now);
  const n = checkpoints.length;
  const effectTimes = useMemo(() => effects.map((e) => e.time_ms), [effects]);
  // "now" joins the axis so the workspace's present has a place after the newest checkpoint.
  const scale = useMemo(() => buildScale(checkpoints, [...effectTimes, now]), [checkpoints, effectTimes, now]);
  const [view, setView] = useState<View>(FULL_VIEW);
  // The wheel's listener is added once: it reads the scale of the moment through this.
  const scaleNow = useRef(scale);
  scaleNow.current = scale;
  const rail = useRef<HTMLDivElement>(null);
  const slider = useRef<HTMLDivElement>(null);
  const width = useWidth(rail);
  const dragging = useRef(false);
  // While scrubbing the thumb jumps with the handle: a transition per step would start and cancel an animation (and its events) at every move.
  const scrubbing = useScrub((s) => s.active);

  useEffect(() => setView(FULL_VIEW), [workspace]);

  // Oldest-first positions a click may land on: the filtered ones when a filter is on.
  const allowed = useMemo(() => {
    if (!matches) return null;
    const ids = new Set(matches.map((c) => c.id));
    const out: number[] = [];
    for (let p = 0; p < n; p++) if (ids.has(checkpoints[n - 1 - p]!.id)) out.push(p);
    return out;
  }, [matches, checkpoints, n]);

  // The selection (keyboard, list, live) always stays in view.
  const thumbU = position >= 0 ? scale.at(position) : 1;
  useEffect(() => {
    if (position >= 0) setView((v) => revealInView(v, thumbU));
  }, [position, thumbU]);

  const nearestAllowed = useCallback(
    (u: number): number => {
      const p = scale.nearest(u);
      if (!allowed) return p;
      if (allowed.length === 0) return -1;
      let lo = 0;
      let hi = allowed.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (scale.at(allowed[mid]!) < u) lo = mid + 1;
        else hi = mid;
      }
      const a = allowed[lo]!;
      const b = allowed[lo - 1];
      return b !== undefined && u - scale.at(b) <= scale.at(a) - u ? b : a;
    },
    [scale, allowed],
  );

  // The rail's box, read once per drag: reading it on every move would force a
  // layout of the page React has just changed (a long frame at 10,000 checkpoints).
  const railBox = useRef<DOMRect | null>(null);
  const selectAt = useCallback(
    (clientX: number) => {
      const rect = railBox.current ?? rail.current?.getBoundingClientRect();
      if (!rect || rect.width === 0) return;
      const fraction = Math.max(0, Math.min(1, (clientX - rect.left) / rect.width));
      const p = nearestAllowed(fromTrack(view, fraction));
      const c = p >= 0 ? checkpoints[n - 1 - p] : undefined;
      if (c) select(c.id);
    },
    [view, nearestAllowed, checkpoints, n, select],
  );

  // Wheel and trackpad pinch (a wheel with ctrlKey) zoom around the pointer; sideways scroll pans.
  useEffect(() => {
    const el = slider.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      const rect = rail.current?.getBoundingClientRect();
      if (!rect || rect.width === 0) return;
      e.preventDefault();
      const anchor = Math.max(0, Math.min(1, (e.clientX - rect.left) / rect.width));
      if (Math.abs(e.deltaX) > Math.abs(e.deltaY) || e.shiftKey) {
        const d = (e.shiftKey ? e.deltaY : e.deltaX) / rect.width;
        setView((v) => clampView({ start: v.start + d * (v.end - v.start), end: v.end + d * (v.end - v.start) }));
      } else {
        const factor = Math.exp(e.deltaY * (e.ctrlKey ? 0.01 : 0.0025));
        // Never onto an empty window: a zoom into a pause takes in the nearest checkpoints.
        setView((v) => withCheckpoints(zoomView(v, factor, anchor), scaleNow.current.us));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || n === 0) return;
    dragging.current = true;
    railBox.current = rail.current?.getBoundingClientRect() ?? null;
    holdScrub(true);
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    selectAt(e.clientX);
  };
  // Hovering (not dragging) near a tick shows its card: time, who, what, how many files.
  const [hover, setHover] = useState<{ p: number; x: number } | null>(null);
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) {
      selectAt(e.clientX);
      return;
    }
    if (e.pointerType === 'touch') return;
    const rect = rail.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || n === 0) return;
    const px = e.clientX - rect.left;
    const p = nearestAllowed(fromTrack(view, px / rect.width));
    const x = p >= 0 ? toTrack(view, scale.at(p)) * rect.width : -1;
    const next = p >= 0 && x >= 0 && x <= rect.width && Math.abs(x - px) <= HOVER_PX ? { p, x } : null;
    setHover((h) => (h?.p === next?.p && h?.x === next?.x ? h : next));
  };
  const onPointerLeave = () => setHover(null);
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) holdScrub(false);
    dragging.current = false;
    railBox.current = null;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  const zoomAtThumb = (factor: number) => setView((v) => withCheckpoints(zoomView(v, factor, Math.max(0, Math.min(1, toTrack(v, thumbU)))), scale.us));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, () => void> = {
      ArrowLeft: () => stepBy(-1),
      ArrowDown: () => stepBy(-1),
      ArrowRight: () => stepBy(1),
      ArrowUp: () => stepBy(1),
      PageDown: () => stepBy(-10),
      PageUp: () => stepBy(10),
      Home: () => selectEdge('oldest'),
      End: () => selectEdge('newest'),
      '+': () => zoomAtThumb(0.5),
      '=': () => zoomAtThumb(0.5),
      '-': () => zoomAtThumb(2),
      '0': () => setView(FULL_VIEW),
    };
    const move = moves[e.key];
    if (move && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      move();
    }
  };

  const selected = position >= 0 ? checkpoints[n - 1 - position] : undefined;
  const valueText = selected ? `${position + 1} of ${n}: ${selected.reason || 'checkpoint'}, ${absoluteTime(selected.time_ms)}` : 'no checkpoints';
  const thumb = toTrack(view, thumbU);
  // Hermes' own lane places its marks with the same view (zoom) as the ticks;
  // the ones outside the view are handed over as not Hermes', so it skips them.
  const viewScale = useMemo(() => ({ ...scale, at: (p: number) => toTrack(view, scale.at(p)) }), [scale, view]);
  const laneCheckpoints = useMemo(
    () =>
      checkpoints.map((c, i) => {
        if (!isHermes(c)) return c;
        const x = viewScale.at(n - 1 - i);
        return x < 0 || x > 1 ? { ...c, origin: undefined } : c;
      }),
    [checkpoints, viewScale, n],
  );
  const zoomed = view.end - view.start < 0.999;

  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-bar">
        <div
          ref={slider}
          className={`${n === 0 ? 'slider empty' : 'slider'}${hasHermesLane(checkpoints) ? ' with-lanes' : ''}${scrubbing ? ' scrubbing' : ''}`}
          role="slider"
          tabIndex={0}
          data-testid="timeline-slider"
          data-view={`${view.start.toFixed(4)}-${view.end.toFixed(4)}`}
          aria-label="Checkpoint timeline (wheel or + and - to zoom, 0 to see all)"
          aria-orientation="horizontal"
          aria-valuemin={0}
          aria-valuemax={Math.max(0, n - 1)}
          aria-valuenow={Math.max(0, position)}
          aria-valuetext={valueText}
          onKeyDown={onKeyDown}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onPointerLeave={onPointerLeave}
        >
          <div className="slider-rail" ref={rail}>
            {/* Fill and thumb move by transform only: no layout, no repaint of the ticks under them. */}
            {n > 0 && thumb > 0 && <div className="slider-fill" style={{ transform: `scaleX(${Math.min(1, thumb)})` }} />}
            {width > 0 && n > 0 && (
              <>
                <Breaks scale={scale} view={view} width={width} />
                <Ticks checkpoints={checkpoints} scale={scale} view={view} width={width} matches={matches} />
                <Lanes checkpoints={checkpoints} scale={scale} view={view} width={width} />
                <Marks checkpoints={checkpoints} effects={effects} scale={scale} view={view} width={width} nowX={toTrack(view, scale.forTime(now)) * width} />
                <NowMark u={scale.forTime(now)} view={view} now={now} />
                <HermesLane checkpoints={laneCheckpoints} scale={viewScale} />
                <VerifyMarks checkpoints={checkpoints} scale={viewScale} />
                <PromptMarks scale={scale} view={view} width={width} />
              </>
            )}
            {n > 0 && thumb >= 0 && thumb <= 1 && <div className="slider-thumb" data-x={thumb.toFixed(4)} style={{ transform: `translateX(${(thumb * width).toFixed(1)}px)` }} aria-hidden="true" />}
          </div>
        </div>
        {hover && !scrubbing && checkpoints[n - 1 - hover.p] && <HoverCard checkpoint={checkpoints[n - 1 - hover.p]!} all={checkpoints} x={hover.x} width={width} />}
        <Axis scale={scale} view={view} width={width} count={n} loading={status === 'loading' || status === 'idle' ? 'Loading checkpoints…' : null} />
        {n > 1 && <Overview checkpoints={checkpoints} scale={scale} view={view} onView={setView} zoomed={zoomed} />}
        {n > 0 && (
          <div className="legend-row">
            <TimelineLegend checkpoints={checkpoints} />
            {n > 1 && atZoomFloor(view) && (
              <span className="zoom-floor muted" data-testid="zoom-floor" role="status">
                Zoomed in as far as it goes · 0 shows all
              </span>
            )}
          </div>
        )}
      </div>
      <FailedCallCard />
      <Readout checkpoint={selected} position={position} count={n} />
    </section>
  );
}

/** The positions whose ticks fall inside the view (one beyond each end, for continuity). */
function visibleRange(scale: Scale, view: View, n: number): [number, number] {
  return [Math.max(0, scale.nearest(view.start) - 1), Math.min(n - 1, scale.nearest(view.end) + 1)];
}

/** Ticks closer than this (px, on average in view) are drawn as a density band: one column per DENSITY_PX, its height growing with its count. */
const DENSITY_PX = 2;

/** All ticks in one SVG path (cheap for thousands), clipped to the track; filtered-out ones in a dimmed path, the kept ones stronger. Zoomed out, a density band. */
const Ticks = memo(function Ticks({ checkpoints, scale, view, width, matches }: { checkpoints: Checkpoint[]; scale: Scale; view: View; width: number; matches: Checkpoint[] | null }) {
  const n = checkpoints.length;
  const kept = useMemo(() => (matches ? new Set(matches.map((c) => c.id)) : null), [matches]);
  const [lo, hi] = visibleRange(scale, view, n);
  const dense = (hi - lo + 1) * DENSITY_PX > width;
  const columns = Math.max(1, Math.ceil(width / DENSITY_PX));
  const plainCount = dense ? new Uint32Array(columns) : null;
  const dimCount = dense ? new Uint32Array(columns) : null;
  let plain = '';
  let dim = '';
  for (let p = lo; p <= hi; p++) {
    const c = checkpoints[n - 1 - p]!;
    if (isHermes(c)) continue; // drawn in Hermes' own lane
    const px = toTrack(view, scale.at(p)) * width;
    if (px < 0 || px > width) continue;
    const out = kept && !kept.has(c.id);
    if (plainCount && dimCount) {
      const col = Math.min(columns - 1, Math.floor(px / DENSITY_PX));
      (out ? dimCount : plainCount)[col]!++;
      continue;
    }
    const x = px.toFixed(1);
    if (out) dim += `M${x} 9V15`;
    else plain += `M${x} 5V19`;
  }
  if (plainCount && dimCount) {
    // Half-height grows with log2 of the count: 1 → 3 px, 2 → 5, 8 → 9, 32 and more → 12 (the whole track).
    const column = (count: number, col: number): string => {
      const half = Math.min(12, 3 + 2 * Math.log2(count));
      const x = (col * DENSITY_PX + DENSITY_PX / 2).toFixed(1);
      return `M${x} ${(12 - half).toFixed(1)}V${(12 + half).toFixed(1)}`;
    };
    for (let col = 0; col < columns; col++) {
      if (plainCount[col]!) plain += column(plainCount[col]!, col);
      else if (dimCount[col]!) dim += column(dimCount[col]!, col);
    }
  }
  return (
    <svg className={`slider-ticks${dense ? ' dense' : ''}${kept ? ' filtering' : ''}`} viewBox={`0 0 ${width} 24`} preserveAspectRatio="none" aria-hidden="true" data-testid={dense ? 'density-band' : undefined}>
      <path d={dim} className="tick tick-dim" data-testid="ticks-dim" />
      <path d={plain} className="tick" data-testid="ticks" />
    </svg>
  );
});

/** Idle gaps longer than BREAK_MS: a hatched, labelled break instead of empty track. */
const Breaks = memo(function Breaks({ scale, view, width }: { scale: Scale; view: View; width: number }) {
  return (
    <>
      {scale.breaks.map((b) => {
        const x0 = toTrack(view, b.u0);
        const x1 = toTrack(view, b.u1);
        if (x1 < 0 || x0 > 1) return null;
        // Only the part inside the track: zoomed in, a break may reach far beyond either end.
        const from = Math.max(0, x0);
        const to = Math.min(1, x1);
        const label = `${duration(b.to - b.from)} idle`;
        return (
          <span
            key={b.from}
            className="axis-break"
            data-testid="axis-break"
            style={{ left: `${from * 100}%`, width: `${Math.max(0, to - from) * 100}%` }}
            title={`${label}: ${absoluteTime(b.from)} → ${absoluteTime(b.to)}`}
          >
            {(to - from) * width > 60 && <span className="axis-break-label">{duration(b.to - b.from)}</span>}
          </span>
        );
      })}
    </>
  );
});

/** A thin band under the ticks, coloured by who made each run of checkpoints. */
const Lanes = memo(function Lanes({ checkpoints, scale, view, width }: { checkpoints: Checkpoint[]; scale: Scale; view: View; width: number }) {
  const n = checkpoints.length;
  const runs = useMemo(() => {
    const out: { from: number; to: number; colour: number; label: string; group: string }[] = [];
    for (let p = 0; p < n; p++) {
      const lane = laneOf(checkpoints[n - 1 - p]!);
      const last = out[out.length - 1];
      if (last && last.group === lane.group) last.to = p;
      else out.push({ from: p, to: p, colour: lane.colour, label: lane.title ?? lane.label, group: lane.group });
    }
    return out;
  }, [checkpoints, n]);
  const rects: ReactNode[] = [];
  const half = (p: number, side: -1 | 1): number => {
    const q = p + side;
    if (q < 0 || q >= n) return scale.at(p);
    return (scale.at(p) + scale.at(q)) / 2;
  };
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i]!;
    const x0 = Math.max(0, toTrack(view, half(r.from, -1)) * width);
    const x1 = Math.min(width, toTrack(view, half(r.to, 1)) * width);
    if (x1 < 0 || x0 > width) continue;
    rects.push(
      <rect key={i} x={x0} y={0} width={Math.max(2, x1 - x0)} height={4} className={`lane-band lane-${r.colour}`}>
        <title>{r.label}</title>
      </rect>,
    );
  }
  return (
    <svg className="slider-lanes" viewBox={`0 0 ${width} 4`} preserveAspectRatio="none" data-testid="lane-bands">
      {rects}
    </svg>
  );
});

interface Mark {
  u: number;
  row: 'restore' | 'pin' | 'effect' | 'damaged';
  /** CSS class of the mark's kind; severity decides which kind a stack shows. */
  kind: string;
  severity: number;
  tip: string;
  /** The checkpoint's time, for a band's tip. */
  time?: number;
}

function markKinds(checkpoints: Checkpoint[], effects: EffectRecord[], scale: Scale): Mark[] {
  const n = checkpoints.length;
  const marks: Mark[] = [];
  for (let p = 0; p < n; p++) {
    const c = checkpoints[n - 1 - p]!;
    const u = scale.at(p);
    if (c.trigger === 'safety' || c.trigger === 'restore') {
      marks.push({
        u,
        row: 'restore',
        kind: c.trigger,
        // A restore and the safety checkpoint just before it share one stacked mark: it shows the restore
        // (what happened), as the legend draws it; the safety diamond shows on its own when zoomed apart.
        severity: c.trigger === 'restore' ? 1 : 0,
        tip: `${c.trigger === 'safety' ? 'Safety checkpoint before a restore' : 'Restore'}${c.restore_target ? ` of ${shortId(c.restore_target)}` : ''} · ${absoluteTime(c.time_ms)}`,
      });
    }
    if (c.pinned) marks.push({ u, row: 'pin', kind: 'pin', severity: 0, tip: `Pinned: ${c.reason || shortId(c.id)}` });
    // Found damaged by `chronoscope check` (or its commit or root tree unreadable): some of its files cannot be read back.
    if (c.damaged) marks.push({ u, row: 'damaged', kind: 'damaged', severity: 0, time: c.time_ms, tip: `Damaged: ${c.reason || shortId(c.id)} · some of its files cannot be read from the store (chronoscope check says which)` });
  }
  for (const e of effects) {
    const variant = effectVariant(e);
    const extra = effectVariantLabel(variant);
    marks.push({
      u: scale.forTime(e.time_ms),
      row: 'effect',
      kind: `effect marker-effect-${e.status} marker-effect-${variant}`,
      severity: (variant === 'plain' ? 0 : 2) + (e.status === 'happened' ? 1 : 0),
      tip: `${effectKindLabel(e.kind)}${extra ? ` (${extra})` : ''} → ${e.target} · ${absoluteTime(e.time_ms)}${e.compensation ? ` · undo: ${e.compensation}` : ''}`,
    });
  }
  return marks;
}

const TEST_IDS: Record<Mark['row'], string> = { restore: 'restore-marker', pin: 'pin-marker', effect: 'effect-marker', damaged: 'damaged-marker' };

/** Marks whose count badge would sit this near "now" (px) put it below the track and on the side away from "now": "now" stays readable. */
const NOW_CLEAR_PX = 28;

/** Restores, pins, effects and damaged checkpoints; marks nearer than STACK_PX in one row become one mark with a count. Damage at scale is one band. */
const Marks = memo(function Marks({ checkpoints, effects, scale, view, width, nowX }: { checkpoints: Checkpoint[]; effects: EffectRecord[]; scale: Scale; view: View; width: number; nowX: number }) {
  const all = useMemo(() => markKinds(checkpoints, effects, scale), [checkpoints, effects, scale]);
  const out: ReactNode[] = [];
  for (const row of ['restore', 'pin', 'effect', 'damaged'] as const) {
    if (row === 'damaged') {
      out.push(...damageBands(all, view, width));
      continue;
    }
    const xs = all
      .filter((m) => m.row === row)
      .map((m) => ({ m, x: toTrack(view, m.u) * width }))
      .filter(({ x }) => x >= 0 && x <= width)
      .sort((a, b) => a.x - b.x);
    let i = 0;
    while (i < xs.length) {
      const start = xs[i]!.x;
      let j = i;
      while (j + 1 < xs.length && xs[j + 1]!.x - start < STACK_PX) j++;
      const group = xs.slice(i, j + 1);
      const top = group.reduce((a, b) => (b.m.severity > a.m.severity ? b : a));
      const x = group.reduce((sum, g) => sum + g.x, 0) / group.length;
      const fraction = x / width;
      const tips = group.slice(0, 6).map((g) => g.m.tip);
      if (group.length > 6) tips.push(`and ${group.length - 6} more`);
      const nearNow = Math.abs(x - nowX) < NOW_CLEAR_PX;
      // The badge normally runs right of its mark; left of "now" it runs left instead, away from the line.
      const countLeft = nearNow && x <= nowX;
      out.push(
        <span
          key={`${row}-${i}`}
          className={`marker marker-${top.m.kind}${fraction < 0.2 ? ' tip-start' : fraction > 0.8 ? ' tip-end' : ''}${nearNow ? ' near-now' : ''}${countLeft ? ' count-left' : ''}`}
          style={{ left: `${fraction * 100}%` }}
          data-tip={tips.join('\n')}
          data-count={group.length}
          data-testid={TEST_IDS[row]}
        >
          {group.length > 1 && <span className="marker-count">{group.length}</span>}
        </span>,
      );
      i = j + 1;
    }
  }
  return <>{out}</>;
});

/** Damaged checkpoints closer than this (px) share one band. */
const BAND_GAP_PX = 12;

/**
 * Damage at the scale it happens: damaged checkpoints side by side on the
 * track make one band spanning them (hundreds of them: a few bands), never a
 * badge per checkpoint; each band's tip says how many and when.
 */
function damageBands(all: readonly Mark[], view: View, width: number): ReactNode[] {
  const xs = all
    .filter((m) => m.row === 'damaged')
    .map((m) => ({ m, x: toTrack(view, m.u) * width }))
    .filter(({ x }) => x >= 0 && x <= width)
    .sort((a, b) => a.x - b.x);
  const out: ReactNode[] = [];
  let i = 0;
  while (i < xs.length) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1]!.x - xs[j]!.x < BAND_GAP_PX) j++;
    const group = xs.slice(i, j + 1);
    const from = group[0]!;
    const to = group[group.length - 1]!;
    const times = group.map((g) => g.m.time ?? 0);
    const tip =
      group.length === 1
        ? from.m.tip
        : `${group.length} damaged checkpoints, ${absoluteTime(Math.min(...times))} – ${absoluteTime(Math.max(...times))} · some of their files cannot be read from the store (the banner says which)`;
    const fraction = from.x / width;
    out.push(
      <span
        key={`damaged-${i}`}
        className={`marker marker-damaged${group.length > 1 ? ' marker-damaged-band' : ''}${fraction < 0.2 ? ' tip-start' : fraction > 0.8 ? ' tip-end' : ''}`}
        style={{ left: `${fraction * 100}%`, width: `${Math.max(4, to.x - from.x + 4)}px` }}
        data-tip={tip}
        data-count={group.length}
        data-testid="damaged-marker"
      />,
    );
    i = j + 1;
  }
  return out;
}

function NowMark({ u, view, now }: { u: number; view: View; now: number }) {
  const x = toTrack(view, u);
  if (x < 0 || x > 1.001) return null;
  return <span className="now-mark" data-testid="now-marker" style={{ left: `${Math.min(1, x) * 100}%` }} title={`The workspace now · ${absoluteTime(now)}`} />;
}

/** Text widths for the axis' labels, measured once per text on a canvas with the axis' font. */
const measureText = (() => {
  let ctx: CanvasRenderingContext2D | null | undefined;
  const cache = new Map<string, number>();
  return (text: string, kind: AxisLabelKind | 'end'): number => {
    const key = `${kind}\u0000${text}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    if (ctx === undefined) {
      ctx = document.createElement('canvas').getContext('2d');
    }
    const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
    let w = text.length * 7;
    if (ctx) {
      ctx.font = `${kind === 'day' ? 600 : 400} 11px ${family}`;
      w = ctx.measureText(text).width;
    }
    // Padding and border of .axis-label, and a pixel of rounding.
    const out = Math.ceil(w) + (kind === 'end' ? 2 : 6);
    cache.set(key, out);
    return out;
  };
})();

const formatLabel = (time: number, kind: AxisLabelKind): string => (kind === 'day' ? DAY_LABEL : kind === 'hour' ? HOUR_LABEL : SECOND_LABEL).format(time);

/** Labels at day, hour or minute boundaries — as fine as the zoom leaves room for, never overlapping (axis-labels.ts); the ends' times. Memoised: dates in words are costly and the axis moves only with the view. */
const Axis = memo(function Axis({ scale, view, width, count, loading }: { scale: Scale; view: View; width: number; count: number; loading: string | null }) {
  const now = useClock((s) => s.now);
  if (count === 0) return <div className="slider-axis"><span data-testid="axis-empty">{loading ?? 'No checkpoints yet'}</span></div>;
  // The axis' own times at its two edges (axis-labels.ts), as precise as they need to read apart; a view
  // inside one instant (checkpoints of the same millisecond) has one time, said once.
  const ends = axisEnds(scale, view);
  const startText = absoluteTimePrecise(ends.start, now, ends.fractionDigits);
  const endLabel = count > 1 ? absoluteTimePrecise(ends.end, now, ends.fractionDigits) : '';
  const endText = endLabel === startText ? '' : endLabel;
  const labels = layoutAxisLabels({
    scale,
    view,
    width,
    ends: [measureText(startText, 'end'), endText ? measureText(endText, 'end') : 0],
    format: formatLabel,
    measure: measureText,
  });
  return (
    <div className="slider-axis">
      <span className="axis-end" data-testid="axis-end" data-time={Math.round(ends.start)} title={startText}>{startText}</span>
      {labels.map((l) => (
        <span key={`${l.kind}${l.time}`} className={`axis-label axis-${l.kind}`} data-testid={`axis-${l.kind}`} data-time={l.time} style={{ left: l.x }}>
          {l.text}
        </span>
      ))}
      <span className="axis-end" data-testid="axis-end" data-time={Math.round(ends.end)} title={endText}>{endText}</span>
    </div>
  );
});

/** The whole history in miniature, with the zoomed window; drag or click it to move the window. */
function Overview({ checkpoints, scale, view, onView, zoomed }: { checkpoints: Checkpoint[]; scale: Scale; view: View; onView: (v: View) => void; zoomed: boolean }) {
  const strip = useRef<HTMLDivElement>(null);
  const grab = useRef<number | null>(null);
  const path = useMemo(() => {
    // At most one tick per 1/1000 of the strip: a density picture, cheap for 10,000.
    const n = checkpoints.length;
    let d = '';
    let last = -1;
    for (let p = 0; p < n; p++) {
      const x = Math.round(scale.at(p) * 1000);
      if (x === last) continue;
      last = x;
      d += `M${x} 0V8`;
    }
    return d;
  }, [checkpoints, scale]);
  const at = (clientX: number): number => {
    const rect = strip.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return 0;
    return Math.max(0, Math.min(1, (clientX - rect.left) / rect.width));
  };
  const width = view.end - view.start;
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const u = at(e.clientX);
    const inside = u >= view.start && u <= view.end;
    grab.current = inside ? u - view.start : width / 2;
    if (!inside) onView(clampView({ start: u - width / 2, end: u + width / 2 }));
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (grab.current === null) return;
    const start = at(e.clientX) - grab.current;
    onView(clampView({ start, end: start + width }));
  };
  const onUp = () => {
    grab.current = null;
  };
  return (
    <div
      className={zoomed ? 'overview zoomed' : 'overview'}
      ref={strip}
      data-testid="timeline-overview"
      title="The whole history: drag the window to move the zoomed view"
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={onUp}
    >
      <svg viewBox="0 0 1000 8" preserveAspectRatio="none" aria-hidden="true">
        <path d={path} className="tick" vectorEffect="non-scaling-stroke" />
      </svg>
      <div className="overview-window" data-testid="overview-window" style={{ left: `${view.start * 100}%`, width: `${width * 100}%` }} />
    </div>
  );
}

function Readout({ checkpoint, position, count }: { checkpoint: Checkpoint | undefined; position: number; count: number }) {
  const now = useClock((s) => s.now);
  const unseen = useTimeline((s) => s.unseen);
  const followLive = useTimeline((s) => s.followLive);
  const setFollowLive = useTimeline((s) => s.setFollowLive);
  const all = useTimeline((s) => s.checkpoints);
  const words = checkpoint ? wordsIn(all, checkpoint) : null;
  if (!checkpoint || !words) return <div className="readout readout-empty" />;
  const lane = laneOf(checkpoint);
  return (
    <div className="readout" aria-live="polite" data-testid="timeline-readout">
      <span className="readout-pos">
        {position + 1}
        <span className="muted"> / {count}</span>
      </span>
      <TriggerBadge trigger={checkpoint.trigger} />
      <OriginBadge checkpoint={checkpoint} />
      <span className={`lane-chip lane-bg-${lane.colour}`} title={lane.title ?? lane.label} data-testid="readout-lane">
        {lane.label}
      </span>
      <span className="readout-reason" title={words.note ?? words.title}>
        {words.title}
      </span>
      <span className="readout-time">
        <strong>{relativeTime(checkpoint.time_ms, now)}</strong>
        <span className="muted"> · {absoluteTime(checkpoint.time_ms, now)}</span>
      </span>
      <span className="readout-files">
        {checkpoint.stats.files} file{checkpoint.stats.files === 1 ? '' : 's'}
      </span>
      <LineStats insertions={checkpoint.stats.insertions} deletions={checkpoint.stats.deletions} />
      {checkpoint.skipped.length > 0 && (
        <span className="row-left-out" data-testid="readout-left-out">
          {leftOutText(checkpoint.skipped)}
        </span>
      )}
      {/* Only where there is a newer one to go to: on the newest itself the button would do nothing. */}
      {unseen > 0 && position + 1 < count && (
        <button type="button" className="button button-subtle newer-button" data-testid="newer-button" onClick={() => selectEdge('newest')}>
          {unseen} newer →
        </button>
      )}
      <label className="follow-live" title="Keep the newest checkpoint selected as new ones arrive">
        <input type="checkbox" data-testid="follow-live" checked={followLive} onChange={(e) => setFollowLive(e.target.checked)} /> Follow live
      </label>
    </div>
  );
}
