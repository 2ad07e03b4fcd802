// Hermes Agent's own /rollback checkpoints (origin 'hermes') as a lane of their
// own under the slider's track, and the badge that marks them in the list, the
// readout and the details. Kept apart from the slider so a generic lane view
// (by agent, session, origin) can replace it without touching the rest.
import { memo } from 'react';
import type { Checkpoint } from '../../../shared/model.js';
import { absoluteTime } from '../lib/time.js';
import type { TimeScale } from '../lib/timeline-scale.js';

export function isHermes(c: Checkpoint): boolean {
  return c.origin === 'hermes';
}

export function hasHermesLane(checkpoints: readonly Checkpoint[]): boolean {
  return checkpoints.some(isHermes);
}

/** Markers at the same positions as the slider's (position p is checkpoints[n-1-p]). */
export const HermesLane = memo(function HermesLane({ checkpoints, scale }: { checkpoints: Checkpoint[]; scale: TimeScale }) {
  const n = checkpoints.length;
  const markers: { x: number; c: Checkpoint }[] = [];
  for (let p = 0; p < n; p++) {
    const c = checkpoints[n - 1 - p]!;
    if (isHermes(c)) markers.push({ x: scale.at(p), c });
  }
  if (markers.length === 0) return null;
  return (
    <div className="lane lane-hermes" data-testid="hermes-lane" aria-label={`Hermes /rollback checkpoints: ${markers.length}`}>
      {markers.map(({ x, c }) => (
        <span
          key={c.id}
          className={`marker marker-hermes${x < 0.2 ? ' tip-start' : x > 0.8 ? ' tip-end' : ''}`}
          style={{ left: `${x * 100}%` }}
          data-tip={`Hermes /rollback · ${c.reason} · ${absoluteTime(c.time_ms)}`}
          data-testid="hermes-marker"
          data-checkpoint-id={c.id}
        />
      ))}
    </div>
  );
});

export function OriginBadge({ checkpoint }: { checkpoint: Checkpoint }) {
  if (!isHermes(checkpoint)) return null;
  return (
    <span className="badge badge-origin-hermes" data-testid="hermes-badge" title="From Hermes Agent's own /rollback store (read-only; Hermes prunes it)">
      Hermes
    </span>
  );
}
