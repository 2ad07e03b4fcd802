// The app's pull (SharePuller): at once when a workspace that uses sharing
// opens, then on its timer; never for one that does not use sharing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SharePuller } from '../../electron/share/pull-timer.js';
import { pullTarget, type PullResult } from '../../electron/share/pull.js';
import { openStore } from '../../electron/engine/index.js';
import { makeTeam, type Team } from './team.js';

let team: Team | undefined;
const pullers: SharePuller[] = [];
afterEach(async () => {
  await Promise.all(pullers.splice(0).map((p) => p.dispose()));
  team?.cleanup();
  team = undefined;
});

async function until<T>(get: () => T | undefined): Promise<T> {
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

it("pulls a workspace that uses sharing when it opens, and leaves one that does not alone", async () => {
  team = makeTeam();
  const alice = team.clone('alice');
  writeFileSync(join(alice.dir, 'notes.txt'), 'one\n');
  expect(alice.cli(['snapshot', '-m', 'first']).code).toBe(0);
  team.publish(alice);

  const bob = team.clone('bob');
  const store = await openStore({ home: bob.home });
  const ws = await store.workspace(bob.dir);
  const target = pullTarget(store.home, ws.meta.id, ws.root);
  const start = (onPulled: (r: PullResult) => void, errors: string[]): SharePuller => {
    const puller = new SharePuller({ target, minutes: () => 10, onPulled, onError: (m) => errors.push(m) });
    pullers.push(puller);
    puller.start();
    return puller;
  };

  // Never shared nor pulled by hand: the app does not reach for the network.
  const errors: string[] = [];
  let first: PullResult | undefined;
  const idle = start((r) => (first = r), errors);
  await idle.dispose();
  expect(first).toBeUndefined();
  expect((await ws.list({ lanes: true })).some((c) => c.shared)).toBe(false);

  // Pulled by hand once: from now on the app pulls on its own, at once.
  expect(bob.cli(['share', 'pull']).code).toBe(0);
  writeFileSync(join(alice.dir, 'notes.txt'), 'two\n');
  expect(alice.cli(['snapshot', '-m', 'second']).code).toBe(0);
  team.publish(alice);
  let pulled: PullResult | undefined;
  start((r) => (pulled = r), errors);
  expect(await until(() => pulled)).toMatchObject({ remote: 'origin', updated: 1 });
  expect(errors).toEqual([]);
  expect((await ws.list({ lanes: true })).filter((c) => c.shared).map((c) => c.reason)).toEqual(['second', 'first']);
});
