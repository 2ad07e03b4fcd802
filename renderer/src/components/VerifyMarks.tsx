// Green/red marks on the time-slider for checkpoints whose verifier run passed
// or failed (the newest run of each). Drawn by TimelineSlider on its rail; kept
// apart so the slider itself knows nothing about verification.
import { memo } from 'react';
import type { Checkpoint } from '../../../shared/model.js';
import type { TimeScale } from '../lib/timeline-scale.js';
import { absoluteTime, shortId } from '../lib/time.js';
import { useVerify } from '../state/verify.js';

export const VerifyMarks = memo(function VerifyMarks({ checkpoints, scale }: { checkpoints: Checkpoint[]; scale: TimeScale }) {
  const byId = useVerify((s) => s.byId);
  const n = checkpoints.length;
  const marks: { key: string; at: number; passed: boolean; tip: string }[] = [];
  for (let p = 0; p < n; p++) {
    const c = checkpoints[n - 1 - p] as Checkpoint;
    const r = byId[c.id];
    if (!r) continue;
    const at = scale.at(p);
    marks.push({
      key: c.id,
      at,
      passed: r.passed,
      tip: `${shortId(c.id)} ${r.passed ? 'passed' : 'failed'}: ${r.command} · ${(r.duration_ms / 1000).toFixed(1)} s · ${absoluteTime(r.time_ms)}`,
    });
  }
  return (
    <>
      {marks.map((m) => (
        <span
          key={m.key}
          className={`marker marker-verify ${m.passed ? 'marker-verify-pass' : 'marker-verify-fail'}${m.at < 0.2 ? ' tip-start' : m.at > 0.8 ? ' tip-end' : ''}`}
          style={{ left: `${m.at * 100}%` }}
          data-tip={m.tip}
          data-testid={m.passed ? 'verify-mark-pass' : 'verify-mark-fail'}
        />
      ))}
    </>
  );
});
