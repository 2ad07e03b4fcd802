// The app's verify/bisect/approval channels through the real router and app
// service: a background bisect reports progress and can be cancelled (its
// verifier stopped, no scratch copy left behind); the verifier comes from the
// settings only; a restore request is answered here and approvals:changed
// tells the renderer.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventMap, InvokeResult } from '../../shared/ipc.js';
import type { ApprovalRequest, VerificationRecord } from '../../shared/model.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { fileRequest } from '../../electron/approvals/requests.js';
import { createRouter, type Router } from '../../electron/router/index.js';
import { sleep, tempDirs, waitFor, type TempDirs } from '../app/helpers.js';

let dirs: TempDirs;
let app: AppService;
let router: Router;
let ids: string[];

function ok<T>(result: InvokeResult<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-verify-');
  app = await createAppService({ home: dirs.home, host: 'browser', version: '0.0.0-test', watch: false });
  router = createRouter(app);
  const ws = await app.workspace(dirs.workspace);
  ids = [];
  for (let i = 0; i < 8; i++) {
    await writeFile(path.join(dirs.workspace, 'step.txt'), String(i));
    const taken = await ws.snapshot({ reason: `step ${i}` });
    if (taken.id === null) throw new Error('no checkpoint');
    ids.push(taken.id);
  }
});
afterEach(async () => {
  await app.dispose();
  await dirs.cleanup();
});

describe('verify channels', () => {
  it('refuses to verify without a verifier set by the person', async () => {
    const result = await router.invoke('verify:run', { workspace: dirs.workspace, id: 'latest' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no verifier is set/);
    // And no command can be smuggled in through the channel.
    expect((await router.invoke('verify:run', { workspace: dirs.workspace, id: 'latest', verifier: 'rm -rf /' })).ok).toBe(false);
  });

  it('verifies with the setting, records, and lists the result', async () => {
    ok(await router.invoke('settings:set', { verifier: { [dirs.workspace]: 'test "$(cat step.txt)" -lt 5' } }));
    const recorded: EventMap['verify:recorded'][] = [];
    app.on('verify:recorded', (e) => recorded.push(e));
    const record = ok<VerificationRecord>(await router.invoke('verify:run', { workspace: dirs.workspace, id: ids[6] ?? '' }));
    expect(record.passed).toBe(false);
    expect(recorded.map((e) => e.record.id)).toEqual([ids[6]]);
    const listed = ok<VerificationRecord[]>(await router.invoke('verify:list', { workspace: dirs.workspace }));
    expect(listed.map((r) => [r.id, r.passed])).toEqual([[ids[6], false]]);
  });

  it('runs a bisect in the background and cancels it, stopping the verifier', async () => {
    ok(await router.invoke('settings:set', { verifier: { [dirs.workspace]: 'sleep 60' } }));
    const progress: EventMap['bisect:progress'][] = [];
    const done: EventMap['bisect:done'][] = [];
    app.on('bisect:progress', (e) => progress.push(e));
    app.on('bisect:done', (e) => done.push(e));
    const { job } = ok<{ job: string }>(await router.invoke('bisect:start', { workspace: dirs.workspace, good: ids[0] ?? '', bad: ids[7] ?? '' }));
    await waitFor('the first run to start', () => progress.length > 0);
    const scratch = path.join(dirs.home, 'tmp');
    await waitFor('the scratch copy', async () => (await readdir(scratch)).some((n) => n.startsWith('verify-')));
    expect(ok<{ cancelled: boolean }>(await router.invoke('bisect:cancel', { job }))).toEqual({ cancelled: true });
    const ended = await waitFor('bisect:done', () => done[0], 20_000);
    expect(ended).toMatchObject({ job, cancelled: true });
    expect((await readdir(scratch)).filter((n) => n.startsWith('verify-'))).toEqual([]);
    expect(ok<VerificationRecord[]>(await router.invoke('verify:list', { workspace: dirs.workspace }))).toEqual([]); // a cancelled run is not a result
  });

  it('refuses a bisect whose ends are the wrong way round, as the answer to the call', async () => {
    const result = await router.invoke('bisect:start', { workspace: dirs.workspace, good: ids[7] ?? '', bad: ids[0] ?? '' });
    expect(result.ok).toBe(false);
  });

  it('announces restore requests and answers them (deny changes nothing)', async () => {
    const changes: ApprovalRequest[][] = [];
    app.on('approvals:changed', (e) => changes.push(e.pending));
    const request = await fileRequest(dirs.home, { workspace: dirs.workspace, checkpoint: ids[0] ?? '', paths: [], waitMs: 60_000 });
    await waitFor('approvals:changed with the request', () => changes.some((p) => p.some((r) => r.id === request.id)));
    expect(ok<ApprovalRequest[]>(await router.invoke('approvals:list', {})).map((r) => r.id)).toEqual([request.id]);
    const denied = ok<ApprovalRequest>(await router.invoke('approvals:answer', { id: request.id, approve: false }));
    expect(denied.status).toBe('denied');
    expect(ok<ApprovalRequest[]>(await router.invoke('approvals:list', {}))).toEqual([]);
    expect((await router.invoke('approvals:answer', { id: request.id, approve: true })).ok).toBe(false);
    const ws = await app.workspace(dirs.workspace);
    expect((await ws.list()).length).toBe(8); // no safety checkpoint: nothing was restored
  });

  it('never approves a request whose asker stopped waiting (timed out or killed before it could withdraw)', async () => {
    const request = await fileRequest(dirs.home, { workspace: dirs.workspace, checkpoint: ids[0] ?? '', paths: [], waitMs: 300 });
    await sleep(600);
    const result = await router.invoke('approvals:answer', { id: request.id, approve: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/already expired/);
    expect(ok<ApprovalRequest[]>(await router.invoke('approvals:list', {}))).toEqual([]);
    const ws = await app.workspace(dirs.workspace);
    expect((await ws.list()).length).toBe(8);
  });
});
