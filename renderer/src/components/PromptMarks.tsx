// On the timeline: where each prompt began (a flag above the rail, its first
// line in the tip) and each call that failed (a red mark of its own: the tool,
// the command or file, the exit code; a click opens its card with the tail of
// its output). Drawn by TimelineSlider on its rail, placed by time with the
// slider's view; kept apart so the slider knows nothing about prompts.
import { memo } from 'react';
import type { CallRecord, PromptRecord } from '../../../shared/model.js';
import { agentName } from '../../../shared/agents.js';
import { toTrack, type TimeScale, type View } from '../lib/timeline-scale.js';
import { firstLine } from '../lib/prompt-groups.js';
import { absoluteTime } from '../lib/time.js';
import { usePrompts } from '../state/prompts.js';
import { Icon } from './Icon.js';

/** Marks nearer than this (px) are drawn as one: at 10,000 checkpoints a few hundred prompts would otherwise be a solid bar. */
const MIN_GAP_PX = 4;

function tipSide(x: number): string {
  return x < 0.2 ? ' tip-start' : x > 0.8 ? ' tip-end' : '';
}

export function failedCallWords(call: CallRecord): string {
  const exit = call.exit_code !== undefined ? ` · exit ${call.exit_code}` : '';
  return `${call.tool}: ${call.reason.startsWith(`${call.tool}: `) ? call.reason.slice(call.tool.length + 2) : call.reason}${exit}`;
}

export const PromptMarks = memo(function PromptMarks({ scale, view, width }: { scale: TimeScale; view: View; width: number }) {
  const prompts = usePrompts((s) => s.list);
  const showCall = usePrompts((s) => s.showCall);
  const selectPrompt = usePrompts((s) => s.select);
  const place = (ms: number): number => toTrack(view, scale.forTime(ms));
  const starts: { p: PromptRecord; x: number }[] = [];
  let lastX = -Infinity;
  for (const p of prompts) {
    const x = place(p.time_ms);
    if (x < 0 || x > 1 || (x - lastX) * width < MIN_GAP_PX) continue;
    lastX = x;
    starts.push({ p, x });
  }
  const failed: { call: CallRecord; p: PromptRecord; x: number }[] = [];
  for (const p of prompts) {
    for (const call of p.failed_calls) {
      const x = place(call.time_ms);
      if (x >= 0 && x <= 1) failed.push({ call, p, x });
    }
  }
  return (
    <>
      {starts.map(({ p, x }) => (
        <span
          key={`p-${p.id}`}
          className={`marker marker-prompt${tipSide(x)}`}
          style={{ left: `${x * 100}%` }}
          data-tip={`Prompt to ${agentName(p.agent)} · ${absoluteTime(p.time_ms)}: “${firstLine(p.text).slice(0, 80)}”`}
          data-testid="prompt-mark"
          data-prompt-id={p.id}
          aria-hidden="true"
          onPointerDown={(e) => {
            if (p.last === null) return;
            // The prompt's whole change, not the nearest checkpoint.
            e.stopPropagation();
            selectPrompt(p.id);
          }}
        />
      ))}
      {failed.map(({ call, x }, i) => (
        <span
          key={`f-${i}-${call.time_ms}`}
          className={`marker marker-verify marker-verify-fail marker-failed-call${tipSide(x)}`}
          style={{ left: `${x * 100}%` }}
          data-tip={`Failed · ${failedCallWords(call)} · ${absoluteTime(call.time_ms)} (click for its output)`}
          data-testid="failed-call-mark"
          aria-hidden="true"
          onPointerDown={(e) => {
            e.stopPropagation();
            showCall(call);
          }}
        />
      ))}
    </>
  );
});

/** The open failed call: what ran, how it ended, the end of its output. Under the timeline, closed by its button or Escape. */
export function FailedCallCard() {
  const call = usePrompts((s) => s.shownCall);
  const showCall = usePrompts((s) => s.showCall);
  const prompt = usePrompts((s) => (call?.prompt_id ? s.byId.get(call.prompt_id) : undefined));
  if (!call) return null;
  return (
    <div className="failed-call-card" role="dialog" aria-label="Failed call" data-testid="failed-call-card" onKeyDown={(e) => e.key === 'Escape' && showCall(null)}>
      <div className="failed-call-head">
        <Icon name="alert" size={13} />
        <strong className="mono">{failedCallWords(call)}</strong>
        <span className="muted">
          {agentName(call.agent)} · {absoluteTime(call.time_ms)}
          {prompt && ` · under “${firstLine(prompt.text).slice(0, 60)}”`}
        </span>
        <span className="spacer" />
        <button type="button" className="icon-button" aria-label="Close" autoFocus onClick={() => showCall(null)}>
          <Icon name="x" size={12} />
        </button>
      </div>
      {call.output_tail ? (
        <pre className="failed-call-output mono" data-testid="failed-call-output">
          {call.output_tail}
        </pre>
      ) : (
        <p className="muted small-text">The agent reported no output for it.</p>
      )}
    </div>
  );
}
