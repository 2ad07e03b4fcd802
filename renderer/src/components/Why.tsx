// Why a checkpoint exists, beside its diff: the prompt it was made under, the
// agent and session, the call that made the change (tool, file or command, how
// it ended; for a failed call the end of its output) and the intent the
// assistant stated just before the call, where its transcript gave one.
// Compact: one line in the details' meta row (it takes no height from the
// diff); "Why" opens the whole of it below the head, the whole prompt there,
// and where the agent named a transcript the host reads, "Open conversation"
// (Conversation.tsx); for an agent whose conversation it cannot read, why.
import type { CallRecord, Checkpoint, CheckpointWhy, PromptRecord } from '../../../shared/model.js';
import { agentName } from '../../../shared/agents.js';
import { conversationLocated, conversationUnreadableReason } from '../../../shared/conversation.js';
import { firstLine } from '../lib/prompt-groups.js';
import { absoluteTime } from '../lib/time.js';
import { usePrompts } from '../state/prompts.js';
import { OpenConversation } from './Conversation.js';
import { Icon } from './Icon.js';

/** What the details know of why: from checkpoints:show, else the prompt the checkpoint names (the prompts' list). */
export function useWhy(checkpoint: Checkpoint, fromDetail: CheckpointWhy | undefined): CheckpointWhy | null {
  const known = usePrompts((s) => (checkpoint.prompt_id ? s.byId.get(checkpoint.prompt_id) : undefined));
  const prompt = fromDetail?.prompt ?? known ?? null;
  const call = fromDetail?.call ?? null;
  return prompt === null && call === null ? null : { prompt, call };
}

/** What the call did, once: "Bash: npm test" → "Bash npm test", "Edit src/a.ts" as it is. */
export function callWords(call: CallRecord): string {
  if (call.reason.startsWith(`${call.tool}: `)) return `${call.tool} ${call.reason.slice(call.tool.length + 2)}`;
  return call.reason.startsWith(call.tool) ? call.reason : `${call.tool} ${call.reason}`;
}

export function callOutcome(call: CallRecord): string {
  if (call.status === 'ok') return call.exit_code !== undefined ? `exit ${call.exit_code}` : 'succeeded';
  return call.exit_code !== undefined ? `failed, exit ${call.exit_code}` : 'failed';
}

/** The one line in the meta row: the prompt's first line, the call and how it ended, and the toggle. */
export function WhyLine({ why, open, onToggle }: { why: CheckpointWhy; open: boolean; onToggle: () => void }) {
  const { prompt, call } = why;
  const agent = prompt?.agent ?? call?.agent;
  return (
    <span className="why-line" data-testid="why-line">
      <button type="button" className={open ? 'why-toggle active' : 'why-toggle'} aria-expanded={open} aria-controls="why-panel" data-testid="why-toggle" onClick={onToggle} title={open ? 'Hide why' : 'Why: the whole prompt, the call and what the agent said it would do'}>
        <Icon name={open ? 'chevronUp' : 'chevronDown'} size={11} /> Why
      </button>
      {prompt && (
        <span className="why-prompt" title={prompt.text} data-testid="why-line-prompt">
          “{firstLine(prompt.text)}”
        </span>
      )}
      {agent && <span className="why-agent">{agentName(agent)}</span>}
      {call && (
        <span className={`why-call why-call-${call.status}`} data-testid="why-line-call" title={call.reason}>
          <span className="mono">{callWords(call)}</span> · {callOutcome(call)}
        </span>
      )}
    </span>
  );
}

/** The whole of it, opened from the line: the prompt in full, who, the call, its intent and (failed) its output. */
export function WhyPanel({ why, workspace, checkpointId }: { why: CheckpointWhy; workspace: string; checkpointId: string }) {
  const { prompt, call } = why;
  return (
    <section className="why-panel" id="why-panel" aria-label="Why this checkpoint" data-testid="why-panel">
      {prompt && <PromptWords prompt={prompt} showChange />}
      {call && (
        <div className="why-row" data-testid="why-call">
          <span className="why-label">Call</span>
          <span>
            <span className="mono">{callWords(call)}</span> ·{' '}
            <span className={call.status === 'failed' ? 'why-failed' : 'why-ok'} data-testid="why-call-outcome">
              {callOutcome(call)}
            </span>
            {call.paths && call.paths.length > 0 && <span className="muted"> · {call.paths.slice(0, 5).join(', ')}{call.paths.length > 5 ? ` and ${call.paths.length - 5} more` : ''}</span>}
          </span>
        </div>
      )}
      {call?.intent && (
        <div className="why-row" data-testid="why-intent">
          <span className="why-label">Intent</span>
          <q className="why-intent">{call.intent}</q>
        </div>
      )}
      {call && <TranscriptRow call={call} workspace={workspace} checkpointId={checkpointId} />}
      {call?.status === 'failed' && call.output_tail && (
        <pre className="why-output mono" data-testid="why-output">
          {call.output_tail}
        </pre>
      )}
    </section>
  );
}

/** "Open conversation" where the host can read the agent's transcript; where it cannot, why (no button that would fail). */
function TranscriptRow({ call, workspace, checkpointId }: { call: CallRecord; workspace: string; checkpointId: string }) {
  const unreadable = conversationUnreadableReason(call.agent);
  if (unreadable === null && !conversationLocated(call)) return null;
  return (
    <div className="why-row">
      <span className="why-label">Transcript</span>
      {unreadable === null ? (
        <OpenConversation workspace={workspace} id={checkpointId} />
      ) : (
        <span className="muted" data-testid="why-conversation-unreadable">
          {unreadable}
        </span>
      )}
    </div>
  );
}

/** A prompt whole: its words (scrolling past a few lines), who it was given to, in which session, when; from a checkpoint's Why, a way to its whole change (a button: the list's header is a pointer's way). */
export function PromptWords({ prompt, showChange = false }: { prompt: PromptRecord; showChange?: boolean }) {
  return (
    <div className="why-row" data-testid="why-prompt">
      <span className="why-label">Prompt</span>
      <span className="why-prompt-body">
        <span className="why-prompt-text" data-testid="why-prompt-text">
          {prompt.text}
        </span>
        <span className="muted small-text">
          {agentName(prompt.agent)} · session {prompt.session.slice(0, 8)} · {absoluteTime(prompt.time_ms)}
          {showChange && prompt.last !== null && (
            <>
              {' · '}
              <button type="button" className="link-button" data-testid="why-prompt-change" title="The prompt's whole change, from the state before it (Shift+P)" onClick={() => usePrompts.getState().select(prompt.id)}>
                Show the prompt's whole change
              </button>
            </>
          )}
        </span>
      </span>
    </div>
  );
}
