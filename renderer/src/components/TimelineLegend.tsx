// What the time-slider's colours and marks mean (a legend a person can open),
// and the card a hovered tick shows: when, who, what, how many files.
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Checkpoint } from '../../../shared/model.js';
import { laneOf } from '../lib/lanes.js';
import { absoluteTime, relativeTime } from '../lib/time.js';
import { useClock } from '../state/clock.js';
import { LineStats } from './bits.js';
import { wordsIn } from '../lib/checkpoint-title.js';

/** Card width (px) the position is clamped with, so the card stays over the track. */
const CARD_PX = 300;
/** Room (px) kept between the card and the window's edge, or the track it points at. */
const CARD_MARGIN = 4;

/** `all`: the timeline's whole list, newest first (the card words the checkpoint as the list does). */
export function HoverCard({ checkpoint, all, x, width }: { checkpoint: Checkpoint; all: readonly Checkpoint[]; x: number; width: number }) {
  const now = useClock((s) => s.now);
  const lane = laneOf(checkpoint);
  // The rail starts 10 px into the slider (styles.css); the card stays inside the track's width.
  const left = 10 + Math.max(0, Math.min(Math.max(0, width - CARD_PX), x - CARD_PX / 2));
  const files = checkpoint.stats.files;
  const words = wordsIn(all, checkpoint);
  // Above the track when the window has room there; else below it; never past the window's edge.
  const card = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = card.current;
    const bar = el?.parentElement;
    if (!el || !bar) return;
    const barBox = bar.getBoundingClientRect();
    const height = el.offsetHeight;
    const aboveTop = barBox.top + 4 - height; // where the stylesheet puts it (bottom: calc(100% - 4px))
    if (aboveTop >= CARD_MARGIN) {
      setTop(null);
      return;
    }
    const railBox = bar.querySelector('.slider-rail')?.getBoundingClientRect();
    const below = (railBox ? railBox.bottom : barBox.top) + CARD_MARGIN;
    const viewTop = Math.max(CARD_MARGIN, Math.min(below, window.innerHeight - CARD_MARGIN - height));
    setTop(viewTop - barBox.top);
  }, [checkpoint, x, width]);
  const style = top === null ? { left } : { left, top, bottom: 'auto' };
  return (
    <div ref={card} className={top === null ? 'hover-card' : 'hover-card below'} data-testid="hover-card" role="tooltip" style={style}>
      <div className="hover-card-time">
        <strong>{absoluteTime(checkpoint.time_ms, now)}</strong>
        <span className="muted"> · {relativeTime(checkpoint.time_ms, now)}</span>
      </div>
      <div className="hover-card-who">
        <span className={`lane-swatch lane-bg-${lane.colour}`} aria-hidden="true" /> {lane.label}
      </div>
      <div className="hover-card-title">{words.title}</div>
      {words.note && <div className="hover-card-note muted">{words.note}</div>}
      <div className="hover-card-files muted">
        {files} file{files === 1 ? '' : 's'} <LineStats insertions={checkpoint.stats.insertions} deletions={checkpoint.stats.deletions} />
        {checkpoint.damaged ? <span className="hover-card-damaged"> · damaged</span> : null}
      </div>
    </div>
  );
}

/** Who made checkpoints (the lane colours present) and what each mark means. */
export function TimelineLegend({ checkpoints }: { checkpoints: Checkpoint[] }) {
  const lanes = useMemo(() => {
    const seen = new Map<string, { label: string; colour: number }>();
    for (const c of checkpoints) {
      const lane = laneOf(c);
      if (!seen.has(lane.key)) seen.set(lane.key, { label: lane.label, colour: lane.colour });
      if (seen.size >= 8) break;
    }
    return [...seen.entries()];
  }, [checkpoints]);
  return (
    <details className="timeline-legend" data-testid="timeline-legend">
      <summary>Legend</summary>
      <ul>
        {lanes.map(([key, l]) => (
          <li key={key}>
            <span className={`lane-swatch lane-bg-${l.colour}`} aria-hidden="true" /> {l.label}
          </li>
        ))}
        <li>
          <span className="legend-mark legend-tick" aria-hidden="true" /> a checkpoint (dimmed: hidden by the filter; zoomed out, a taller band where there are more)
        </li>
        <li>
          <span className="legend-mark legend-diamond legend-restore" aria-hidden="true" /> a restore; <span className="legend-mark legend-diamond legend-safety" aria-hidden="true" /> the safety checkpoint before it
        </li>
        <li>
          <span className="legend-mark legend-triangle" aria-hidden="true" /> an effect outside the workspace (a push, a publish); amber: intended, grey: failed
        </li>
        <li>
          <span className="legend-mark legend-damaged" aria-hidden="true" /> a damaged checkpoint (chronoscope check)
        </li>
        <li>
          <span className="legend-mark legend-count" aria-hidden="true">3</span> marks too close to tell apart, with their count
        </li>
        <li>
          <span className="legend-mark legend-break" aria-hidden="true" /> an idle pause, shortened
        </li>
        <li>
          <span className="legend-mark legend-now" aria-hidden="true" /> now
        </li>
      </ul>
    </details>
  );
}
