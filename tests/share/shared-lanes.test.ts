// A teammate's checkpoints get lanes of their own, labelled with person and
// machine, in the timeline (renderer lanes) and in retention's lane keys.
import { expect, it } from 'vitest';
import { laneKey } from '../../shared/lane-key.js';
import { laneOf } from '../../renderer/src/lib/lanes.js';

const alice = { person: 'Alice', email: 'alice@example.com', machine: 'laptop', clone: 'w0123456789' };

it("keeps a teammate's session apart from the same session id of ours, and names who and where", () => {
  const ours = { agent: 'claude-code', session: 's1', trigger: 'agent' as const };
  const theirs = { ...ours, shared: alice };
  expect(laneKey(theirs)).not.toBe(laneKey(ours));
  expect(laneOf(theirs).key).toBe(laneKey(theirs));
  expect(laneOf(theirs).label).toMatch(/^Alice @ laptop · /);
  expect(laneOf({ trigger: 'manual', shared: alice }).label).toBe('Alice @ laptop (manual checkpoints)');
  expect(laneOf({ trigger: 'manual' }).key).toBe('person');
});
