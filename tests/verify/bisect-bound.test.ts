// The search itself, for every place the break can be: among n checkpoints it
// names the right first failing one within ⌈log2 n⌉+1 runs and never runs an
// end. The verifier here answers from the checkpoint's position (the real one
// runs in bisect.test.ts); everything else — store, listing, order — is real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationRecord } from '../../shared/model.js';
import { bisect } from '../../electron/verify/bisect.js';
import { sandbox, write, type Sandbox } from '../engine/helpers.js';

let s: Sandbox;
let ids: string[];
const N = 17;

beforeAll(async () => {
  s = await sandbox();
  ids = [];
  for (let i = 0; i < N; i++) {
    write(s.ws, 'step.txt', String(i));
    const taken = await s.workspace.snapshot({ reason: `step ${i}` });
    if (taken.id === null) throw new Error('no checkpoint');
    ids.push(taken.id);
  }
});
afterAll(() => s.cleanup());

function verdict(id: string, firstBad: number, ran: string[]): Promise<VerificationRecord> {
  ran.push(id);
  const passed = ids.indexOf(id) < firstBad;
  return Promise.resolve({ id, passed, exit_code: passed ? 0 : 1, duration_ms: 0, command: 'position', output_tail: '', time: '', time_ms: 0, timed_out: false, log: '', notes: [] });
}

describe('bisect bound', () => {
  it(`finds every possible first failing checkpoint among ${N} within ⌈log2 n⌉+1 runs`, async () => {
    for (let firstBad = 1; firstBad < N; firstBad++) {
      const ran: string[] = [];
      const result = await bisect(s.workspace, ids[0] ?? '', ids[N - 1] ?? '', (id) => verdict(id, firstBad, ran));
      expect(result.first_bad).toBe(ids[firstBad]);
      expect(result.last_good).toBe(ids[firstBad - 1]);
      expect(ran.length).toBeLessThanOrEqual(Math.ceil(Math.log2(N)) + 1);
      expect(ran).not.toContain(ids[0]);
      expect(ran).not.toContain(ids[N - 1]);
      expect(result.runs.map((r) => r.id)).toEqual(ran);
    }
  });

  it('searches a sub-range when the ends are inside the timeline', async () => {
    const ran: string[] = [];
    const result = await bisect(s.workspace, ids[4] ?? '', ids[9] ?? '', (id) => verdict(id, 7, ran));
    expect(result).toMatchObject({ first_bad: ids[7], last_good: ids[6] });
    for (const id of ran) expect(ids.indexOf(id)).toBeGreaterThan(4);
  });
});
