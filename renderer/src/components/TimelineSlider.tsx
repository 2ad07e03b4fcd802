// The time-slider: one position per checkpoint (oldest left, newest right),
// ticks placed by time, markers for restores and irreversible effects. It
// reads only the checkpoint list already in memory — never waits for git.
import { memo, useCallback, useMemo, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import type { Checkpoint, EffectRecord } from '../../../shared/model.js';
import { selectedPosition, useTimeline } from '../state/timeline.js';
import { useEffects } from '../state/effects.js';
import { useClock } from '../state/clock.js';
import { absoluteTime, relativeTime, shortId } from '../lib/time.js';
import { effectKindLabel } from '../lib/effects.js';
import { LineStats, TriggerBadge } from './bits.js';
import { buildScale, type TimeScale as Scale } from '../lib/timeline-scale.js';
import { HermesLane, OriginBadge, hasHermesLane, isHermes } from './HermesLane.js';
import { VerifyMarks } from './VerifyMarks.js';

/** Which way a marker's tooltip grows, so it stays on screen at the ends of the track. */
function tipSide(fraction: number): string {
  return fraction < 0.2 ? ' tip-start' : fraction > 0.8 ? ' tip-end' : '';
}

export function TimelineSlider() {
  const checkpoints = useTimeline((s) => s.checkpoints);
  const position = useTimeline(selectedPosition);
  const selectPosition = useTimeline((s) => s.selectPosition);
  const step = useTimeline((s) => s.step);
  const effects = useEffects((s) => s.list);
  const n = checkpoints.length;
  const scale = useMemo(() => buildScale(checkpoints), [checkpoints]);
  const rail = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const selectAt = useCallback(
    (clientX: number) => {
      const rect = rail.current?.getBoundingClientRect();
      if (!rect || rect.width === 0) return;
      const fraction = Math.max(0, Math.min(1, (clientX - rect.left) / rect.width));
      selectPosition(scale.nearest(fraction));
    },
    [scale, selectPosition],
  );

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || n === 0) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    selectAt(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) selectAt(e.clientX);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, () => void> = {
      ArrowLeft: () => step(-1),
      ArrowDown: () => step(-1),
      ArrowRight: () => step(1),
      ArrowUp: () => step(1),
      PageDown: () => step(-10),
      PageUp: () => step(10),
      Home: () => selectPosition(0),
      End: () => selectPosition(n - 1),
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      move();
    }
  };

  const selected = position >= 0 ? checkpoints[n - 1 - position] : undefined;
  const valueText = selected ? `${position + 1} of ${n}: ${selected.reason || 'checkpoint'}, ${absoluteTime(selected.time_ms)}` : 'no checkpoints';
  const thumb = position >= 0 ? scale.at(position) : 1;

  return (
    <section className="timeline" aria-label="Timeline">
      <div className="timeline-bar">
        <div
          className={`${n === 0 ? 'slider empty' : 'slider'}${hasHermesLane(checkpoints) ? ' with-lanes' : ''}`}
          role="slider"
          tabIndex={0}
          data-testid="timeline-slider"
          aria-label="Checkpoint timeline"
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
        >
          <div className="slider-rail" ref={rail}>
            {n > 0 && <div className="slider-fill" style={{ width: `${thumb * 100}%` }} />}
            <Ticks checkpoints={checkpoints} scale={scale} />
            <EffectMarkers effects={effects} scale={scale} hasCheckpoints={n > 0} />
            <HermesLane checkpoints={checkpoints} scale={scale} />
            <VerifyMarks checkpoints={checkpoints} scale={scale} />
            {n > 0 && <div className="slider-thumb" style={{ left: `${thumb * 100}%` }} aria-hidden="true" />}
          </div>
        </div>
        <Axis scale={scale} count={n} />
      </div>
      <Readout checkpoint={selected} position={position} count={n} />
    </section>
  );
}

/** All ticks in one SVG path (cheap for thousands); restores drawn taller in their own colour. */
const Ticks = memo(function Ticks({ checkpoints, scale }: { checkpoints: Checkpoint[]; scale: Scale }) {
  const n = checkpoints.length;
  let plain = '';
  const restores: { x: number; c: Checkpoint }[] = [];
  for (let p = 0; p < n; p++) {
    const c = checkpoints[n - 1 - p]!;
    const x = scale.at(p) * 1000;
    if (isHermes(c)) continue; // drawn in Hermes' own lane
    if (c.trigger === 'safety' || c.trigger === 'restore') restores.push({ x, c });
    else plain += `M${x.toFixed(2)} 6V18`;
  }
  return (
    <>
      <svg className="slider-ticks" viewBox="0 0 1000 24" preserveAspectRatio="none" aria-hidden="true">
        <path d={plain} className="tick" vectorEffect="non-scaling-stroke" />
      </svg>
      {restores.map(({ x, c }) => (
        <span
          key={c.id}
          className={`marker marker-${c.trigger}${tipSide(x / 1000)}`}
          style={{ left: `${x / 10}%` }}
          data-tip={`${c.trigger === 'safety' ? 'Safety checkpoint before a restore' : 'Restore'}${c.restore_target ? ` of ${shortId(c.restore_target)}` : ''} · ${absoluteTime(c.time_ms)}`}
          data-testid="restore-marker"
        />
      ))}
    </>
  );
});

const EffectMarkers = memo(function EffectMarkers({
  effects,
  scale,
  hasCheckpoints,
}: {
  effects: EffectRecord[];
  scale: Scale;
  hasCheckpoints: boolean;
}) {
  if (!hasCheckpoints) return null;
  return (
    <>
      {effects.map((e) => {
        const at = scale.forTime(e.time_ms);
        return (
        <span
          key={e.id}
          className={`marker marker-effect marker-effect-${e.status}${tipSide(at)}`}
          style={{ left: `${at * 100}%` }}
          data-tip={`${effectKindLabel(e.kind)} → ${e.target} · ${absoluteTime(e.time_ms)}${e.compensation ? ` · undo: ${e.compensation}` : ''}`}
          data-testid="effect-marker"
        />
        );
      })}
    </>
  );
});

function Axis({ scale, count }: { scale: Scale; count: number }) {
  const now = useClock((s) => s.now);
  if (count === 0) return <div className="slider-axis"><span>No checkpoints yet</span></div>;
  const oldest = scale.times[0]!;
  const newest = scale.times[count - 1]!;
  return (
    <div className="slider-axis">
      <span title={absoluteTime(oldest, now)}>{absoluteTime(oldest, now)}</span>
      <span title={absoluteTime(newest, now)}>{count > 1 ? absoluteTime(newest, now) : ''}</span>
    </div>
  );
}

function Readout({ checkpoint, position, count }: { checkpoint: Checkpoint | undefined; position: number; count: number }) {
  const now = useClock((s) => s.now);
  if (!checkpoint) return <div className="readout readout-empty" />;
  return (
    <div className="readout" aria-live="polite" data-testid="timeline-readout">
      <span className="readout-pos">
        {position + 1}
        <span className="muted"> / {count}</span>
      </span>
      <TriggerBadge trigger={checkpoint.trigger} />
      <OriginBadge checkpoint={checkpoint} />
      <span className="readout-reason" title={checkpoint.reason}>
        {checkpoint.reason || <span className="muted">No reason given</span>}
      </span>
      <span className="readout-time">
        <strong>{relativeTime(checkpoint.time_ms, now)}</strong>
        <span className="muted"> · {absoluteTime(checkpoint.time_ms, now)}</span>
      </span>
      <span className="readout-files">
        {checkpoint.stats.files} file{checkpoint.stats.files === 1 ? '' : 's'}
      </span>
      <LineStats insertions={checkpoint.stats.insertions} deletions={checkpoint.stats.deletions} />
    </div>
  );
}
