// The retention rules as docs/store-health.md states them, written out again
// here on purpose (not imported from the engine), so a test can compare what
// the service kept with what the documentation promises:
//   - nothing younger than 30 days is removed;
//   - 30–90 days: the newest checkpoint of each UTC hour per lane is kept;
//   - beyond 90 days: the newest of each UTC day per lane;
//   - always kept: the newest checkpoint, pinned ones, the first and last of each agent session.
// A lane: one per agent session (agent + session), else 'restore' (safety and
// restore triggers), 'person' (manual) or 'watcher' (everything else).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Checkpoint } from '../../shared/model.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function lane(c: Checkpoint): string {
  if (c.agent) return `agent ${c.agent} ${c.session ?? ''}`;
  if (c.trigger === 'safety' || c.trigger === 'restore') return 'restore';
  if (c.trigger === 'manual') return 'person';
  return 'watcher';
}

/** The ids the documented default policy keeps at `now`. */
export function documentedKeep(checkpoints: readonly Checkpoint[], now: number): Set<string> {
  const keep = new Set<string>();
  const byTime = [...checkpoints].sort((a, b) => b.time_ms - a.time_ms);
  if (byTime[0]) keep.add(byTime[0].id);
  const sessions = new Map<string, Checkpoint[]>();
  for (const c of byTime) {
    if (c.pinned) keep.add(c.id);
    if (now - c.time_ms < 30 * DAY) keep.add(c.id);
    if (c.agent) sessions.set(lane(c), [...(sessions.get(lane(c)) ?? []), c]);
  }
  for (const list of sessions.values()) {
    keep.add(list[0]!.id);
    keep.add(list[list.length - 1]!.id);
  }
  const seen = new Set<string>();
  for (const c of byTime) {
    const age = now - c.time_ms;
    if (age < 30 * DAY) continue;
    const bucket = age < 90 * DAY ? `${lane(c)} hour ${Math.floor(c.time_ms / HOUR)}` : `${lane(c)} day ${Math.floor(c.time_ms / DAY)}`;
    if (!seen.has(bucket)) keep.add(c.id);
    seen.add(bucket);
  }
  return keep;
}

/**
 * Every ref of a store with the commit it holds, as git reads them (loose or
 * packed: upkeep packs refs while the test runs): equal before and after means
 * no checkpoint was removed or changed.
 */
export function refsSnapshot(home: string): Map<string, string> {
  const listing = execFileSync('git', ['--git-dir', join(home, 'git'), 'for-each-ref', '--format=%(refname) %(objectname)'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { PATH: process.env['PATH'] ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  const out = new Map<string, string>();
  for (const line of listing.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) out.set(line.slice(0, space), line.slice(space + 1));
  }
  return out;
}
