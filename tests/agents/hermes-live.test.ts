// Hermes' /rollback checkpoints in the app: the IPC list feed includes them
// (with the Hermes home taken from the hermes_home setting), a checkpoint
// Hermes takes while the app runs is announced live, a restore of one goes
// through the router like any other, and a damaged store is one warning event.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventMap, InvokeResult } from '../../shared/ipc.js';
import type { Checkpoint, RestoreResult } from '../../shared/model.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { createRouter } from '../../electron/router/index.js';
import { tempDirs, waitFor, type TempDirs } from '../app/helpers.js';
import { createHermesStore, storeFingerprint, type HermesFixture } from './hermes-store.js';

let dirs: TempDirs;
let hermes: HermesFixture;
let app: AppService | null = null;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-hermes-live-');
  fs.writeFileSync(path.join(dirs.workspace, 'a.txt'), 'one\n');
  // The setting, not the environment, names Hermes' home here.
  hermes = createHermesStore(path.join(path.dirname(dirs.home), 'hermes-home'), dirs.workspace);
  fs.writeFileSync(path.join(dirs.home, 'config.json'), JSON.stringify({ hermes_home: hermes.home }));
  hermes.take('before write_file', Math.floor(Date.now() / 1000) - 60);
});

afterEach(async () => {
  await app?.dispose();
  app = null;
  await dirs.cleanup();
});

function value<T>(result: InvokeResult<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

describe("Hermes' checkpoints in the app", () => {
  it('lists them over IPC, announces a new one live, restores one', async () => {
    app = await createAppService({ home: dirs.home, host: 'browser', version: 't', watch: false, pollMs: 200 });
    await app.addWorkspace(dirs.workspace);
    const router = createRouter(app);
    const added: EventMap['checkpoint:added'][] = [];
    app.on('checkpoint:added', (e) => added.push(e));

    const first = value<Checkpoint[]>(await router.invoke('checkpoints:list', { workspace: dirs.workspace }));
    // Adding the workspace took our baseline (newest); Hermes' older checkpoint follows in its lane.
    expect(first.map((c) => [c.trigger === 'baseline' ? 'baseline' : c.reason, c.origin])).toEqual([
      ['baseline', undefined],
      ['before write_file', 'hermes'],
    ]);

    // Hermes takes one while the app runs: the ref's file is the signal (the safety poll is 15 s away).
    fs.writeFileSync(path.join(dirs.workspace, 'a.txt'), 'two\n');
    hermes.take('before terminal: make', Math.floor(Date.now() / 1000));
    const live = await waitFor('the new Hermes checkpoint to be announced', () => added.find((e) => e.checkpoint.reason === 'before terminal: make'), 12_000);
    expect(live.workspace).toBe(dirs.workspace);
    expect(live.checkpoint).toMatchObject({ origin: 'hermes', agent: 'hermes', tool: 'terminal' });
    expect(added.filter((e) => e.checkpoint.origin === 'hermes')).toHaveLength(1); // the older one was history, not news

    const before = storeFingerprint(hermes.home);
    const target = first.find((c) => c.origin === 'hermes') as Checkpoint;
    const result = value<RestoreResult>(await router.invoke('restore:run', { workspace: dirs.workspace, id: target.id, paths: ['a.txt'] }));
    expect(fs.readFileSync(path.join(dirs.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(added.find((e) => e.checkpoint.id === result.safety)?.checkpoint.trigger).toBe('safety');

    expect(storeFingerprint(hermes.home)).toBe(before);

    // A file only Hermes ever saw: its objects are copied in to diff, and compaction drops
    // them again (no checkpoint of ours uses them); the next use copies them anew.
    fs.writeFileSync(path.join(dirs.workspace, 'only-hermes.txt'), 'seen by Hermes alone\n');
    hermes.take('before patch', Math.floor(Date.now() / 1000));
    fs.rmSync(path.join(dirs.workspace, 'only-hermes.txt'));
    const third = await waitFor('the third Hermes checkpoint', () => added.find((e) => e.checkpoint.reason === 'before patch'), 12_000);
    const toDisk = async () =>
      value<{ files: { path: string; status: string }[] }>(await router.invoke('checkpoints:diff', { workspace: dirs.workspace, from: third.checkpoint.id, to: 'workspace' })).files;
    expect(await toDisk()).toEqual([expect.objectContaining({ path: 'only-hermes.txt', status: 'deleted' })]);
    await app.store.compact();
    expect(await toDisk()).toEqual([expect.objectContaining({ path: 'only-hermes.txt', status: 'deleted' })]);
  });

  it('a damaged Hermes store is one warning event; our own list still answers', async () => {
    fs.writeFileSync(path.join(hermes.store, ...hermes.ref.split('/')), 'not a commit\n');
    app = await createAppService({ home: dirs.home, host: 'browser', version: 't', watch: false, pollMs: 200 });
    const errors: EventMap['error'][] = [];
    app.on('error', (e) => errors.push(e));
    await app.addWorkspace(dirs.workspace);
    const router = createRouter(app);
    const list = value<Checkpoint[]>(await router.invoke('checkpoints:list', { workspace: dirs.workspace }));
    expect(list.map((c) => c.trigger)).toEqual(['baseline']); // ours only
    expect(errors.length).toBeGreaterThan(0);
    expect(new Set(errors.map((e) => e.error.message)).size).toBe(1);
    expect(errors[0]?.error.message).toMatch(/^Hermes checkpoints left out: .*does not hold a commit id$/);
  });
});
