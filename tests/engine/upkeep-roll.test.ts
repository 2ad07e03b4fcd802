// Which packs an upkeep rewrites (engine/upkeep-roll.ts): the rule alone, from sizes.
import { describe, expect, it } from 'vitest';
import { planRoll, type PackSize } from '../../electron/engine/upkeep-roll.js';

const pack = (name: string, bytes: number): PackSize => ({ name, bytes });

describe('planRoll', () => {
  it('runs in full when upkeep never compressed the store', () => {
    expect(planRoll({ packs: [pack('a', 10), pack('b', 20)], compressed: new Set(), full: new Set(), looseBytes: 0 })).toMatchObject({ kind: 'full' });
  });

  it('rolls what is new with the small earlier rolls, and keeps the full pack and the large rolls', () => {
    const packs = [pack('full', 10_000), pack('r-big', 100), pack('r-small', 8), pack('new1', 3), pack('new2', 2)];
    const plan = planRoll({ packs, compressed: new Set(['full', 'r-big', 'r-small']), full: new Set(['full']), looseBytes: 1, smallStoreBytes: 0 });
    // 6 new bytes: r-small (8 < 2 × 6) joins them; r-big (100 ≥ 2 × 14) stays.
    expect(plan).toEqual({ kind: 'roll', roll: ['new1', 'new2', 'r-small'], keep: ['r-big', 'full'] });
  });

  it('runs in full once the rolls since the last full one reach a tenth of it (new bytes, written whole, do not count)', () => {
    const compressed = new Set(['full', 'r']);
    expect(planRoll({ packs: [pack('full', 1000), pack('r', 90), pack('new', 5000)], compressed, full: new Set(['full']), looseBytes: 0, smallStoreBytes: 0 })).toMatchObject({ kind: 'roll', roll: ['new', 'r'] });
    expect(planRoll({ packs: [pack('full', 1000), pack('r', 100), pack('new', 5)], compressed, full: new Set(['full']), looseBytes: 0, smallStoreBytes: 0 })).toMatchObject({ kind: 'full', why: expect.stringMatching(/10% of it/) });
  });

  it('compresses a small store whole every time: a roll would leave it above git gc for a second or two saved', () => {
    const compressed = new Set(['full', 'r']);
    const packs = [pack('full', 8 << 20), pack('r', 1 << 20), pack('new', 5 << 20)];
    expect(planRoll({ packs, compressed, full: new Set(['full']), looseBytes: 0 })).toMatchObject({ kind: 'full', why: 'a small store: compressed whole' });
    const big = [pack('full', 64 << 20), pack('r', 1 << 20), pack('new', 5 << 20)];
    expect(planRoll({ packs: big, compressed, full: new Set(['full']), looseBytes: 0 })).toMatchObject({ kind: 'roll' });
  });

  it('runs in full rather than leave more compressed packs than its limit', () => {
    const rolls = Array.from({ length: 12 }, (_, i) => pack(`r${i}`, 2 ** (i + 1)));
    const packs = [pack('full', 1 << 20), ...rolls, pack('new', 1)];
    const compressed = new Set(['full', ...rolls.map((p) => p.name)]);
    expect(planRoll({ packs, compressed, full: new Set(['full']), looseBytes: 0, smallStoreBytes: 0 })).toMatchObject({ kind: 'full', why: expect.stringMatching(/compressed packs/) });
    expect(planRoll({ packs, compressed, full: new Set(['full']), looseBytes: 0, smallStoreBytes: 0, packLimit: 20 })).toMatchObject({ kind: 'roll', roll: ['new'] });
  });
});
