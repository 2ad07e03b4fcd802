// Bisect, verify and restore name checkpoints for a person (issue 42): by
// title and time, the id second — “step 3” (10:42, 2528b998) — never a bare
// hash. The real CLI over a real store.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from './run-cli.js';

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

const verifier = `node -e "process.exit(Number(require('fs').readFileSync('value.txt', 'utf8')) < 3 ? 0 : 1)"`;

function steps(n: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    writeFileSync(join(box.workspace, 'value.txt'), String(i));
    ids.push(box.json<{ id: string }>(['snapshot', '-m', `step ${i}`]).id);
  }
  return ids;
}

/** “title” (HH:MM, first 8 of the id). */
const named = (title: string, id: string) => new RegExp(`“${title}” \\(\\d\\d:\\d\\d, ${id.slice(0, 8)}\\)`);

describe('checkpoint names in CLI messages', () => {
  it('bisect: "It broke at “step 3” (10:42, 2528b998); the last passing checkpoint is “step 2” (…)"', () => {
    const ids = steps(5);
    const run = box.cli(['bisect', '--good', ids[0]!, '--bad', ids[4]!, '--verifier', verifier]);
    expect(run.code, run.stderr).toBe(0);
    const first = run.stdout.split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^It broke at ${named('step 3', ids[3]!).source}; the last passing checkpoint is ${named('step 2', ids[2]!).source}\\.$`));
  });

  it('verify and restore name the checkpoint by title and time', () => {
    const ids = steps(2);
    const verified = box.cli(['verify', ids[0]!, '--verifier', verifier]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout.split('\n')[0]).toMatch(new RegExp(`^${named('step 0', ids[0]!).source} passed in `));
    const restored = box.cli(['restore', ids[0]!, '--yes']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout.split('\n')[0]).toMatch(new RegExp(`^restored ${named('step 0', ids[0]!).source}: 1 file changed`));
  });
});
