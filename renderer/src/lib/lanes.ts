// Who made a checkpoint: an agent's session (Claude Code, Hermes, …), the
// watcher, a person, or a restore. Derived from the Checkpoint's own fields
// (agent, session, trigger and, for Hermes' own store, origin) so any agent
// that fills them gets its lane without the UI knowing it.
import type { Checkpoint } from '../../../shared/model.js';
import { agentName } from '../../../shared/agents.js';
import { laneKey, sessionKey as agentSessionKey, sharedPrefix } from '../../../shared/lane-key.js';

export interface Lane {
  /** Stable key: one per agent session, else one per kind of author (what the filter picks). */
  key: string;
  /** What a header groups: the key, and for an agent the prompt too (each prompt starts a group). */
  group: string;
  /** What the header and the tooltip say. */
  label: string;
  /** Who, without the prompt: what the list's session header says (its prompts get headers of their own). */
  author: string;
  /** Colour slot 0..LANE_COLOURS-1 (styles.css: --lane-N). */
  colour: number;
  /** The tooltip, when it says more than the label (the session beside the prompt). */
  title?: string;
}

export const LANE_COLOURS = 8;

export function toolName(agent: string): string {
  return agentName(agent);
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

type LaneFields = Pick<Checkpoint, 'agent' | 'session' | 'trigger' | 'prompt' | 'shared'> & { origin?: string };

export function laneOf(c: LaneFields): Lane {
  if (c.shared) {
    // A teammate's lanes: their own keys, labelled with person and machine.
    const { shared, ...rest } = c;
    const own = laneOf(rest);
    const prefix = sharedPrefix(shared);
    const who = `${shared.person} @ ${shared.machine}`;
    const label = own.key === 'person' ? `${who} (manual checkpoints)` : `${who} · ${own.label}`;
    return { ...own, key: `${prefix}${own.key}`, group: `${prefix}${own.group}`, label, title: `${who} · ${own.title ?? own.label}` };
  }
  const agent = c.origin === 'hermes' ? 'hermes' : c.agent;
  if (agent) {
    const session = c.session ? ` · session ${c.session.slice(0, 8)}` : '';
    const sessionKey = agentSessionKey(agent, c.session);
    // Slots 3.. for agents (one colour per session); 0-2 stay for the watcher, a person and restores.
    const colour = 3 + (hash(sessionKey) % (LANE_COLOURS - 3));
    // Where the agent gave the prompt that led to the calls, it names the lane (each prompt its own group).
    const author = `${toolName(agent)}${session}`;
    if (c.prompt) return { key: sessionKey, group: `${sessionKey}\0${c.prompt}`, label: `${toolName(agent)} · “${c.prompt}”`, author, colour, title: `${toolName(agent)}${session}: “${c.prompt}”` };
    return { key: sessionKey, group: sessionKey, label: author, author, colour };
  }
  const key = laneKey(c);
  if (key === 'restore') return { key, group: key, label: 'Restores', author: 'Restores', colour: 2 };
  if (key === 'person') return { key, group: key, label: 'You (manual checkpoints)', author: 'You (manual checkpoints)', colour: 1 };
  return { key, group: key, label: 'File watcher', author: 'File watcher', colour: 0 };
}
