// The first page's questions asked ahead (electron/server/read-ahead.ts), over
// the real router, app service and store: the page's same question takes the
// answer asked ahead (one read, not two), only once, and never after the
// history changed.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { createRouter } from '../../electron/router/index.js';
import { readAhead, type ReadAhead } from '../../electron/server/read-ahead.js';
import { FIRST_PAGE_LIMIT, type Checkpoint } from '../../shared/model.js';
import type { InvokeResult } from '../../shared/ipc.js';
import { tempDirs, type TempDirs } from '../app/helpers.js';

let dirs: TempDirs;
let app: AppService;
let ahead: ReadAhead;
const asked: string[] = [];

beforeEach(async () => {
  asked.length = 0;
  dirs = await tempDirs('chronoscope-read-ahead-');
  app = await createAppService({ home: dirs.home, host: 'browser', version: '0.0.0-test', watch: false });
  await app.addWorkspace(dirs.workspace);
  const router = createRouter(app);
  // The real router, each question it answers counted.
  ahead = readAhead({ invoke: (channel, payload) => (asked.push(channel), router.invoke(channel, payload)) }, app);
});
afterEach(async () => {
  ahead.dispose();
  await app.dispose();
  await dirs.cleanup();
});

function ids(result: InvokeResult<unknown>): string[] {
  if (!result.ok) throw new Error(result.error.message);
  return (result.value as Checkpoint[]).map((c) => c.id);
}

/** A checkpoint taken as the page takes one (through the router, which tells the pages: checkpoint:added). */
async function snapshot(name: string): Promise<string> {
  await writeFile(path.join(dirs.workspace, `${name}.txt`), `${name}\n`);
  const workspace = (await app.listWorkspaces())[0]!.path;
  const taken = await createRouter(app).invoke('checkpoints:snapshot', { workspace, reason: name });
  if (!taken.ok) throw new Error(taken.error.message);
  return (taken.value as { id: string }).id;
}

it("hands the page the newest checkpoints and the newest one's details asked ahead: one read each, once", async () => {
  await snapshot('one');
  const newest = await snapshot('two');
  const workspace = (await app.listWorkspaces())[0]!.path;
  await ahead.start(workspace);
  expect(asked).toEqual(['checkpoints:list', 'checkpoints:show']);
  expect(ids(await ahead.invoke('checkpoints:list', { workspace, limit: FIRST_PAGE_LIMIT }))[0]).toBe(newest);
  const shown = await ahead.invoke('checkpoints:show', { workspace, id: newest });
  expect(shown.ok && (shown.value as { checkpoint: Checkpoint }).checkpoint.id).toBe(newest);
  expect(asked).toEqual(['checkpoints:list', 'checkpoints:show']);
  // Once: asked again, it is read again.
  await ahead.invoke('checkpoints:list', { workspace, limit: FIRST_PAGE_LIMIT });
  expect(asked).toEqual(['checkpoints:list', 'checkpoints:show', 'checkpoints:list']);
});

it('a question joins the read still in flight', async () => {
  await snapshot('one');
  const workspace = (await app.listWorkspaces())[0]!.path;
  const started = ahead.start(workspace);
  const listed = await ahead.invoke('checkpoints:list', { workspace, limit: FIRST_PAGE_LIMIT });
  await started;
  expect(ids(listed)).toEqual((await (await app.workspace(dirs.workspace)).list()).map((c) => c.id));
  expect(asked.filter((c) => c === 'checkpoints:list')).toHaveLength(1);
});

it('never hands out an answer from before the history changed', async () => {
  await snapshot('one');
  const workspace = (await app.listWorkspaces())[0]!.path;
  await ahead.start(workspace);
  const later = await snapshot('two'); // a checkpoint added: checkpoint:added
  expect(ids(await ahead.invoke('checkpoints:list', { workspace, limit: FIRST_PAGE_LIMIT }))[0]).toBe(later);
});

it('a different question is answered by the router as always', async () => {
  await snapshot('one');
  const workspace = (await app.listWorkspaces())[0]!.path;
  await ahead.start(workspace);
  await ahead.invoke('checkpoints:list', { workspace, limit: 5 });
  expect(asked).toEqual(['checkpoints:list', 'checkpoints:show', 'checkpoints:list']);
});
