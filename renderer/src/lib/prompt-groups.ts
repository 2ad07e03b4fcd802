// Which prompt a checkpoint belongs to, as the list groups them (session →
// prompt → checkpoints) and the author filter lists them: the prompt's id
// where the hooks stamped one, else (older stores) its session and the
// prompt's first line as the checkpoint carries it. Pure, for the list, the
// filter and tests alike.
import type { Checkpoint } from '../../../shared/model.js';
import { sessionKey } from '../../../shared/lane-key.js';

type PromptFields = Pick<Checkpoint, 'agent' | 'session' | 'prompt' | 'prompt_id' | 'trigger' | 'change_by' | 'tool'> & { origin?: string };

/** The key of the prompt a checkpoint was made under, or null (not an agent's, or no prompt given). */
export function promptKeyOf(c: PromptFields): string | null {
  if (c.prompt_id) return c.prompt_id;
  // Taken as a prompt was given, before it (the baseline, a person's edit since the last call): under no
  // prompt, though stores of the first prompt-ledger versions labelled them with the prompt's words.
  if (c.trigger === 'baseline' || (c.trigger === 'hook' && c.change_by === 'other' && c.tool === undefined)) return null;
  const agent = c.origin === 'hermes' ? 'hermes' : c.agent;
  if (!agent || !c.prompt) return null;
  return `${sessionKey(agent, c.session)}\0${c.prompt}`;
}

/** The first line of a prompt, as a header shows it (whole prompts may run to pages). */
export function firstLine(text: string): string {
  const line = text.trimStart().split('\n', 1)[0] ?? '';
  return line.trimEnd();
}

/** A prompt spans more than its first line: the header offers to show it whole. */
export function hasMore(text: string): boolean {
  return text.trim().includes('\n');
}
