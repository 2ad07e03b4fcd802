// Upkeep is due by bytes, not only by git's object counts (issue 30, item 4):
// 150 snapshots of 40 edited files in a workspace of 2,000 files in 40
// folders leave far fewer objects than git's thresholds, yet twice the bytes
// git gc would. After them, upkeep's own due rule must run it, and the store
// must end ≤ 1.1× `git gc --prune=now` of a copy of the same objects. Real
// git, real snapshots; the 1,000- and 10,000-snapshot sizes are bench-only
// (scripts/bench.ts --upkeep-sizes): too slow for a test.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleAllIndexes, settlePackMerges } from '../../electron/engine/index.js';
import { fsckStore, objectsFootprint, upkeepDue, upkeepIfDue } from '../../electron/engine/upkeep.js';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

function line(seed: number): string {
  let x = (seed * 2654435761) >>> 0;
  let out = '';
  for (let i = 0; i < 8; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += x.toString(36);
  }
  return `${out}\n`;
}

const FILES = 2000;
const file = (f: number): string => `d${f % 40}/f${f}.txt`;

describe('upkeep is due by bytes', () => {
  it('after 150 snapshots of 40 edited files: due by its own rule, and then ≤ 1.1× git gc --prune=now of the same objects', async () => {
    for (let f = 0; f < FILES; f++) {
      let text = '';
      for (let i = 0; i < 30; i++) text += line(f * 1000 + i);
      write(s.ws, file(f), text);
    }
    await s.workspace.snapshot({ reason: 'first', trigger: 'manual' });
    // The first look takes the store as it is as its baseline (what a CLI command does after its snapshot).
    await upkeepDue(s.storeHome);
    for (let round = 0; round < 150; round++) {
      for (let k = 0; k < 40; k++) {
        const f = (round * 53 + k * 50) % FILES;
        fs.appendFileSync(path.join(s.ws, file(f)), line(round * 100 + k + 5_000_000));
      }
      const { id } = await s.workspace.snapshot({ reason: `round ${round}`, trigger: 'manual' });
      if (id === null) throw new Error(`round ${round} took no checkpoint`);
    }
    await settleAllIndexes();
    await settlePackMerges();
    const gitDir = path.join(s.storeHome, 'git');
    const due = await upkeepDue(s.storeHome);
    expect(due.reason).toMatch(/whole objects/);
    const copy = path.join(s.storeHome, 'gc-copy.git'); // inside the sandbox, outside git/objects
    fs.cpSync(gitDir, copy, { recursive: true });
    execFileSync('git', ['--git-dir', copy, 'gc', '--quiet', '--prune=now']);
    const gc = await objectsFootprint(copy);
    const before = await objectsFootprint(gitDir);
    expect(before.bytes).toBeGreaterThan(gc.bytes * 1.1);
    const result = await upkeepIfDue(s.storeHome, { niceness: 0 });
    expect(result.ran).toBe(true);
    expect(result.after.bytes).toBeLessThanOrEqual(gc.bytes * 1.1);
    expect(await fsckStore(s.storeHome)).toBe('');
    // And right after it, not due again.
    expect((await upkeepDue(s.storeHome)).due).toBe(false);
    console.log(`150×40: before ${before.bytes} B, git gc --prune=now ${gc.bytes} B, after upkeep ${result.after.bytes} B (${(result.after.bytes / gc.bytes).toFixed(2)}×)`);
  }, 300_000);
});
