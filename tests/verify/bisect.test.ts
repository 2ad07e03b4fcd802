// chronoscope bisect among 20 checkpoints: names the first failing one with at
// most ⌈log2 n⌉+1 verifier runs, never re-running the trusted ends.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import { makeSandbox, type Sandbox } from '../cli/run-cli.js';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

/** Passes while the checkpoint's step number is below `firstBad`: one set of checkpoints serves several searches. */
const verifier = (firstBad: number): string => `node -e "process.exit(Number(require('fs').readFileSync('value.txt', 'utf8')) < ${firstBad} ? 0 : 1)"`;

interface BisectJson {
  first_bad: string;
  last_good: string;
  runs: Array<{ id: string; passed: boolean }>;
}

/** Checkpoints taken in-process through the engine (the CLI is what is under test, not snapshot's start-up). */
async function takeCheckpoints(n: number): Promise<string[]> {
  const store = await openStore({ home: sb.home });
  const workspace = await store.workspace(sb.workspace);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    fs.writeFileSync(path.join(sb.workspace, 'value.txt'), String(i));
    fs.writeFileSync(path.join(sb.workspace, `step-${i}.txt`), `${i}\n`);
    const taken = await workspace.snapshot({ reason: `step ${i}` });
    if (taken.id === null) throw new Error('no checkpoint taken');
    ids.push(taken.id);
  }
  return ids;
}

describe('bisect', () => {
  it('finds the first failing checkpoint among 20, wherever it is, within ⌈log2 n⌉+1 runs', async () => {
    const n = 20;
    const ids = await takeCheckpoints(n);
    for (const firstBad of [1, 7, 13, 19]) {
      const run = sb.cli(['bisect', '--good', ids[0] ?? '', '--bad', ids[n - 1] ?? '', '--verifier', verifier(firstBad), '--json']);
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as BisectJson;
      expect(Object.keys(result).sort()).toEqual(['first_bad', 'last_good', 'runs']);
      expect(result.first_bad).toBe(ids[firstBad]);
      expect(result.last_good).toBe(ids[firstBad - 1]);
      expect(result.runs.length).toBeLessThanOrEqual(Math.ceil(Math.log2(n)) + 1);
      const ends = new Set([ids[0], ids[n - 1]]);
      expect(result.runs.some((r) => ends.has(r.id))).toBe(false);
      // Each run's outcome is the truth about that checkpoint.
      for (const r of result.runs) expect(r.passed).toBe(ids.indexOf(r.id) < firstBad);
      expect(run.stderr).toMatch(/verifying [0-9a-f]{8}/); // progress on stderr
    }
  });

  it('refuses ends in the wrong order, changing nothing', async () => {
    const ids = await takeCheckpoints(3);
    const run = sb.cli(['bisect', '--good', ids[2] ?? '', '--bad', ids[0] ?? '', '--verifier', verifier(2)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/newer than the bad one/);
  });
});
