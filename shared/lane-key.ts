// Which lane a checkpoint belongs to, as a stable key: one per agent session,
// else one per kind of author. The timeline draws its lanes by it
// (renderer/src/lib/lanes.ts) and retention thins per lane by it, so "one per
// hour per lane" means the lanes the person sees.
import type { Checkpoint } from './model.js';

export type LaneKeyFields = Pick<Checkpoint, 'agent' | 'session' | 'trigger' | 'shared'> & { origin?: string };

/** The lane's key: `agent:<agent>:<session>`, 'restore', 'person' or 'watcher'; a teammate's (shared) prefixed with `sharedPrefix`. */
export function laneKey(c: LaneKeyFields): string {
  if (c.shared) return `${sharedPrefix(c.shared)}${ownLaneKey(c)}`;
  return ownLaneKey(c);
}

/** A teammate's lanes are their own: one set per person, machine and clone. */
export function sharedPrefix(from: NonNullable<Checkpoint['shared']>): string {
  return `shared:${from.email}:${from.machine}:${from.clone}|`;
}

function ownLaneKey(c: LaneKeyFields): string {
  const agent = c.origin === 'hermes' ? 'hermes' : c.agent;
  if (agent) return sessionKey(agent, c.session);
  if (c.trigger === 'safety' || c.trigger === 'restore') return 'restore';
  if (c.trigger === 'manual') return 'person';
  return 'watcher';
}

/** An agent's session (its lane): the checkpoints one conversation made. */
export function sessionKey(agent: string, session: string | undefined): string {
  return `agent:${agent}:${session ?? ''}`;
}
