// The details' head while a prompt is selected (its header in the list, or its
// mark on the timeline): what the person asked, whole; the agent, session and
// time; how many checkpoints and files; the calls that failed; and "Restore to
// before this prompt" — the same two steps as every restore, its preview
// listing the effects that stay true outside. The diff below shows the
// prompt's whole change: the state before it → its last checkpoint (the diff
// toolbar names both).
import { useState } from 'react';
import type { PromptRecord } from '../../../shared/model.js';
import { agentName } from '../../../shared/agents.js';
import { firstLine, hasMore } from '../lib/prompt-groups.js';
import { absoluteTime, relativeTime } from '../lib/time.js';
import { useClock } from '../state/clock.js';
import { usePrompts } from '../state/prompts.js';
import { PROMPT_IDS, RestoreControls, RestorePreviewPanel } from './Restore.js';
import { failedCallWords } from './PromptMarks.js';
import { Icon } from './Icon.js';

/** `base`: the state before the prompt (state/prompts.ts promptBase), what its restore goes back to. */
export function PromptChange({ workspace, prompt, base }: { workspace: string; prompt: PromptRecord; base: string | null }) {
  const now = useClock((s) => s.now);
  const [whole, setWhole] = useState(false);
  const showCall = usePrompts((s) => s.showCall);
  const clear = usePrompts((s) => s.clearSelection);
  const more = hasMore(prompt.text) || prompt.text.length > 120;
  const failed = prompt.failed_calls.length;
  return (
    <>
      <div className="details-head prompt-change" data-testid="prompt-change" data-prompt-id={prompt.id}>
        <div className="details-title">
          <h2 title={prompt.text} data-testid="prompt-change-title">
            “{firstLine(prompt.text)}”
          </h2>
          <div className="details-meta">
            <span className="meta-chip">prompt</span>
            <span>
              {agentName(prompt.agent)} · session {prompt.session.slice(0, 8)}
            </span>
            <span title={prompt.time}>
              {relativeTime(prompt.time_ms, now)} · {absoluteTime(prompt.time_ms, now)}
            </span>
            <span data-testid="prompt-change-counts">
              {prompt.checkpoints} checkpoint{prompt.checkpoints === 1 ? '' : 's'} · {prompt.files} file{prompt.files === 1 ? '' : 's'}
            </span>
            {failed > 0 && (
              <button type="button" className="link-button small why-failed" data-testid="prompt-change-failed" onClick={() => showCall(prompt.failed_calls[failed - 1] ?? null)}>
                <Icon name="alert" size={11} /> {failed} failed call{failed === 1 ? '' : 's'}
              </button>
            )}
            {more && (
              <button type="button" className="link-button small" aria-expanded={whole} data-testid="prompt-change-whole" onClick={() => setWhole(!whole)}>
                {whole ? 'First line only' : 'Whole prompt'}
              </button>
            )}
          </div>
        </div>
        <div className="details-actions">
          <button type="button" className="button button-subtle" data-testid="prompt-change-close" title="Show the last checkpoint alone" onClick={clear}>
            Last checkpoint only
          </button>
          {base !== null && <RestoreControls workspace={workspace} id={base} scope="tree" label="Restore to before this prompt…" ids={PROMPT_IDS} origin="prompt" prompt={prompt.id} />}
        </div>
      </div>
      {whole && (
        <section className="why-panel" aria-label="The whole prompt" data-testid="prompt-change-text">
          <span className="why-prompt-text">{prompt.text}</span>
          {prompt.failed_calls.map((call, i) => (
            <button key={i} type="button" className="link-button small why-failed" onClick={() => showCall(call)}>
              Failed: {failedCallWords(call)}
            </button>
          ))}
        </section>
      )}
      <RestorePreviewPanel scope="tree" ids={PROMPT_IDS} origin="prompt" />
    </>
  );
}
