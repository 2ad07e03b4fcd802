// prompts:list and the `why` of checkpoints:show through the router, with the
// real app service, the real engine and a prompt ledger written as the hooks
// write it (PromptLedger): two prompts, three checkpoints carrying their
// prompt_id, a failed call; one folder the store does not know.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointDetail, InvokeResult } from '../../shared/ipc.js';
import type { PromptRecord } from '../../shared/model.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { PromptLedger } from '../../electron/prompts/ledger.js';
import { createRouter, type Router } from '../../electron/router/index.js';
import { tempDirs, type TempDirs } from '../app/helpers.js';

let dirs: TempDirs;
let app: AppService;
let router: Router;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-router-prompts-');
  await writeFile(path.join(dirs.workspace, 'a.txt'), 'one\n');
  app = await createAppService({ home: dirs.home, host: 'browser', version: '0.0.0-test', watch: false });
  router = createRouter(app);
});
afterEach(async () => {
  await app.dispose();
  await dirs.cleanup();
});

function ok<T>(result: InvokeResult<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

async function taken(ws: Awaited<ReturnType<AppService['workspace']>>, options: Parameters<typeof ws.snapshot>[0]): Promise<string> {
  const result = await ws.snapshot(options);
  if (result.id === null) throw new Error('expected a checkpoint');
  return result.id;
}

describe('router: prompts', () => {
  it('lists prompts newest first with their checkpoints, files and failed calls; show carries why', async () => {
    const ws = await app.workspace(dirs.workspace);
    const base = await taken(ws, { trigger: 'manual', reason: 'base' });
    const ledger = new PromptLedger(app.store.home, ws.meta.id);
    const p1 = await ledger.appendPrompt({ text: 'Refactor the storage', agent: 'claude-code', session: 's1', before: base, time_ms: 1_000 });
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'two\n');
    const c1 = await taken(ws, { trigger: 'hook', agent: 'claude-code', tool: 'Edit', tool_use_id: 'tu1', session: 's1', prompt_id: p1.id, reason: 'Edit a.txt' });
    await ledger.appendCall({ prompt_id: p1.id, agent: 'claude-code', session: 's1', tool: 'Edit', reason: 'Edit a.txt', tool_use_id: 'tu1', status: 'ok', intent: 'I will rename the store', checkpoint: c1 });
    await ledger.appendCall({ prompt_id: p1.id, agent: 'claude-code', session: 's1', tool: 'Bash', reason: 'Bash: npm test', status: 'failed', exit_code: 1, output_tail: '1 failing' });
    await writeFile(path.join(dirs.workspace, 'b.txt'), 'new\n');
    await writeFile(path.join(dirs.workspace, 'c.txt'), 'new\n');
    const c2 = await taken(ws, { trigger: 'hook', agent: 'claude-code', tool: 'Bash', session: 's1', prompt_id: p1.id, reason: 'Bash: gen' });
    const p2 = await ledger.appendPrompt({ text: 'Fix the flaky test', agent: 'claude-code', session: 's1', before: c2, time_ms: 2_000 });

    const listed = ok<PromptRecord[]>(await router.invoke('prompts:list', { workspace: dirs.workspace }));
    expect(listed.map((p) => p.id)).toEqual([p2.id, p1.id]);
    const [second, first] = listed;
    expect(first).toMatchObject({ text: 'Refactor the storage', before: base, first: c1, last: c2, checkpoints: 2, files: 3 });
    expect(first?.failed_calls.map((c) => [c.reason, c.exit_code, c.output_tail])).toEqual([['Bash: npm test', 1, '1 failing']]);
    expect(second).toMatchObject({ text: 'Fix the flaky test', first: null, last: null, checkpoints: 0, files: 0, failed_calls: [] });

    const detail = ok<CheckpointDetail>(await router.invoke('checkpoints:show', { workspace: dirs.workspace, id: c1 }));
    expect(detail.why?.prompt?.id).toBe(p1.id);
    expect(detail.why?.call).toMatchObject({ tool: 'Edit', intent: 'I will rename the store', checkpoint: c1 });
    // A checkpoint no hook recorded: why is there, and empty.
    const plain = ok<CheckpointDetail>(await router.invoke('checkpoints:show', { workspace: dirs.workspace, id: base }));
    expect(plain.why).toEqual({ prompt: null, call: null });
  });

  it('answers [] for a folder the store does not know, registering nothing; refuses a bad request in one line', async () => {
    expect(ok<PromptRecord[]>(await router.invoke('prompts:list', { workspace: dirs.workspace }))).toEqual([]);
    expect((await app.listWorkspaces()).map((w) => w.path)).toEqual([]);
    const bad = await router.invoke('prompts:list', { workspace: dirs.workspace, all: true });
    expect(bad).toEqual({ ok: false, error: { code: 'bad_input', message: 'prompts:list: unexpected field "all"' } });
  });
});
