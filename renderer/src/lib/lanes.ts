// Who made a checkpoint: an agent's session (Claude Code, Hermes, …), the
// watcher, a person, or a restore. Derived from the Checkpoint's own fields
// (agent, session, trigger and, for Hermes' own store, origin) so any agent
// that fills them gets its lane without the UI knowing it.
import type { Checkpoint } from '../../../shared/model.js';

export interface Lane {
  /** Stable key: one per agent session, else one per kind of author. */
  key: string;
  /** What the header and the tooltip say. */
  label: string;
  /** Colour slot 0..LANE_COLOURS-1 (styles.css: --lane-N). */
  colour: number;
}

export const LANE_COLOURS = 8;

const TOOL_NAMES: Record<string, string> = {
  'claude-code': 'Claude Code',
  claude: 'Claude Code',
  hermes: 'Hermes',
  codex: 'Codex',
  aider: 'Aider',
};

export function toolName(agent: string): string {
  return TOOL_NAMES[agent.toLowerCase()] ?? agent;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

type LaneFields = Pick<Checkpoint, 'agent' | 'session' | 'trigger'> & { origin?: string };

export function laneOf(c: LaneFields): Lane {
  const agent = c.origin === 'hermes' ? 'hermes' : c.agent;
  if (agent) {
    const session = c.session ? ` · session ${c.session.slice(0, 8)}` : '';
    const key = `agent:${agent}:${c.session ?? ''}`;
    // Slots 3.. for agents; 0-2 stay for the watcher, a person and restores.
    return { key, label: `${toolName(agent)}${session}`, colour: 3 + (hash(key) % (LANE_COLOURS - 3)) };
  }
  if (c.trigger === 'safety' || c.trigger === 'restore') return { key: 'restore', label: 'Restores', colour: 2 };
  if (c.trigger === 'manual') return { key: 'person', label: 'You (manual checkpoints)', colour: 1 };
  return { key: 'watcher', label: 'File watcher', colour: 0 };
}
