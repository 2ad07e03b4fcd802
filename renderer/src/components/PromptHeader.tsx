// A prompt's header in the checkpoint list: what the person asked (its first
// line; the whole prompt on expand), the agent, when, how many checkpoints and
// failed calls. Selecting it shows the prompt's whole change (the state before
// it → its last checkpoint) with "Restore to before this prompt". An option of
// the list like the rows (a control inside an option is unreachable to
// assistive technology), the expand chevron a pointer shortcut: the details
// show the whole prompt too.
import { memo } from 'react';
import type { PromptRecord } from '../../../shared/model.js';
import { agentName } from '../../../shared/agents.js';
import { firstLine, hasMore } from '../lib/prompt-groups.js';
import { absoluteTime, timeOfDay } from '../lib/time.js';
import { Icon } from './Icon.js';

export const PROMPT_HEADER_HEIGHT = 40;
/** An expanded header shows this many lines of the prompt at most (it scrolls beyond). */
const EXPANDED_LINES = 6;
const LINE_PX = 16;

export function promptHeaderHeight(expanded: boolean): number {
  return expanded ? PROMPT_HEADER_HEIGHT + EXPANDED_LINES * LINE_PX + 8 : PROMPT_HEADER_HEIGHT;
}

export interface PromptHeaderProps {
  promptKey: string;
  /** The ledger's record; absent for an older store's prompt (known by its first line only), or until the prompts are in. */
  record: PromptRecord | undefined;
  /** The prompts are not in yet and this one is known by its id: a click selects it once they are. */
  awaited: boolean;
  /** The prompt's words as the checkpoint carries them (its first line, shortened). */
  fallback: string;
  agent: string | undefined;
  /** Checkpoints of this run listed under it. */
  count: number;
  colour: number;
  top: number;
  expanded: boolean;
  selected: boolean;
  onSelect: (id: string) => void;
  onToggle: (key: string) => void;
}

export const PromptHeader = memo(function PromptHeader({ promptKey, record, awaited, fallback, agent, count, colour, top, expanded, selected, onSelect, onToggle }: PromptHeaderProps) {
  const text = record?.text ?? fallback;
  const who = agentName(record?.agent ?? agent ?? '');
  const failed = record?.failed_calls.length ?? 0;
  const selectable = (record !== undefined && record.last !== null) || (record === undefined && awaited);
  const more = hasMore(text) || text.length > 80;
  const tip = `${who}${record ? ` · ${absoluteTime(record.time_ms)}` : ''}: “${text}”${selectable ? '\nSelect to see the whole change this prompt made' : ''}`;
  return (
    <div
      role="option"
      aria-selected={selected}
      aria-label={`Prompt to ${who}: ${firstLine(text)}, ${count} checkpoint${count === 1 ? '' : 's'}${failed > 0 ? `, ${failed} failed call${failed === 1 ? '' : 's'}` : ''}`}
      id={record ? `prompt-${record.id}` : undefined}
      className={`prompt-header lane-bg-${colour}${selected ? ' selected' : ''}${selectable ? ' selectable' : ''}${expanded ? ' expanded' : ''}`}
      data-testid="prompt-header"
      data-prompt-id={record?.id}
      style={{ top, height: promptHeaderHeight(expanded) }}
      title={tip}
      onClick={() => (selectable ? onSelect(record?.id ?? promptKey) : onToggle(promptKey))}
    >
      <div className="prompt-header-line">
        {more ? (
          <span
            aria-hidden="true"
            className="prompt-expand"
            data-testid="prompt-expand"
            title={expanded ? 'Show the first line only' : 'Show the whole prompt'}
            onClick={(e) => {
              e.stopPropagation();
              onToggle(promptKey);
            }}
          >
            <Icon name={expanded ? 'chevronUp' : 'chevronDown'} size={12} />
          </span>
        ) : (
          <span className="lane-swatch" aria-hidden="true" />
        )}
        <span className="prompt-text" data-testid="prompt-header-text">
          “{firstLine(text)}”
        </span>
        <span className="count">{count}</span>
      </div>
      {/* Who and when on a line of their own: the prompt's words keep the header's width. */}
      <div className="prompt-header-line prompt-meta muted">
        {who}
        {record && ` · ${timeOfDay(record.time_ms)}`}
        {failed > 0 && (
          <span className="prompt-failed" data-testid="prompt-header-failed" title={`${failed} call${failed === 1 ? '' : 's'} failed under this prompt`}>
            <Icon name="alert" size={11} /> {failed} failed
          </span>
        )}
      </div>
      {expanded && (
        <div className="prompt-full" data-testid="prompt-header-full" style={{ maxHeight: EXPANDED_LINES * LINE_PX }}>
          {text}
        </div>
      )}
    </div>
  );
});
