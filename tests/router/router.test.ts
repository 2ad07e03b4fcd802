// The router with the real app service, the real engine and a temporary store:
// invalid payloads are refused with one line naming the field and change
// nothing; a valid round trip goes snapshot → list → show → fileDiff →
// preview → run, with the events a renderer relies on.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckpointDetail, EventMap, InvokeResult } from '../../shared/ipc.js';
import type { Checkpoint, PromptRecord, RestoreResult, SnapshotResult } from '../../shared/model.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { createRouter, type Router } from '../../electron/router/index.js';
import { PromptLedger } from '../../electron/prompts/ledger.js';
import { tempDirs, waitFor, type TempDirs } from '../app/helpers.js';
import { createHermesStore } from '../agents/hermes-store.js';

let dirs: TempDirs;
let app: AppService;
let router: Router;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-router-');
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

/** Everything an invalid request could have changed: checkpoints, files, the workspace list, the store's files. */
async function worldState(): Promise<string> {
  const ws = await app.workspace(dirs.workspace);
  const checkpoints = (await ws.list()).map((c) => `${c.id}:${c.pinned}`);
  const files = await Promise.all((await readdir(dirs.workspace)).sort().map(async (f) => `${f}=${await readFile(path.join(dirs.workspace, f), 'utf8')}`));
  const listed = (await app.listWorkspaces()).map((w) => w.path);
  return JSON.stringify({ checkpoints, files, listed, settings: app.settings() });
}

describe('router: validation', () => {
  it('refuses an unknown channel with bad_input', async () => {
    const result = await router.invoke('fs:readFile', { path: '/etc/passwd' });
    expect(result).toEqual({ ok: false, error: { code: 'bad_input', message: 'unknown channel: fs:readFile' } });
    expect((await router.invoke('__proto__', {})).ok).toBe(false);
    expect((await router.invoke('constructor', {})).ok).toBe(false);
  });

  it('refuses invalid payloads with one line naming the field, and changes nothing', async () => {
    ok(await router.invoke('workspaces:add', { workspace: dirs.workspace }));
    await writeFile(path.join(dirs.workspace, 'notes.txt'), 'after the baseline\n');
    const first = ok<SnapshotResult>(await router.invoke('checkpoints:snapshot', { workspace: dirs.workspace, reason: 'base' }));
    expect(first.id).not.toBeNull();
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'two\n');
    const before = await worldState();

    const cases: { channel: string; payload: unknown; field: string }[] = [
      { channel: 'checkpoints:snapshot', payload: {}, field: 'workspace' },
      { channel: 'checkpoints:snapshot', payload: { workspace: 42 }, field: 'workspace' },
      { channel: 'checkpoints:snapshot', payload: { workspace: dirs.workspace, reason: 7 }, field: 'reason' },
      { channel: 'checkpoints:snapshot', payload: { workspace: dirs.workspace, trigger: 'auto' }, field: 'trigger' },
      { channel: 'checkpoints:show', payload: { workspace: dirs.workspace, id: 'HEAD~1' }, field: 'id' },
      { channel: 'checkpoints:show', payload: { workspace: dirs.workspace, id: '--output=/tmp/x' }, field: 'id' },
      { channel: 'checkpoints:pin', payload: { workspace: dirs.workspace, id: 'latest', pinned: 'yes' }, field: 'pinned' },
      { channel: 'checkpoints:fileDiff', payload: { workspace: dirs.workspace, from: 'latest', to: 'workspace', path: '../x' }, field: 'path' },
      { channel: 'checkpoints:fileDiff', payload: { workspace: dirs.workspace, from: 'latest', to: 'workspace', path: '/etc/passwd' }, field: 'path' },
      { channel: 'checkpoints:diff', payload: { workspace: dirs.workspace, from: 'latest', to: '@{1}' }, field: 'to' },
      { channel: 'checkpoints:fileDiff', payload: { workspace: dirs.workspace, from: 'latest', to: 'workspace', path: 'a', old_path: '../x' }, field: 'old_path' },
      { channel: 'checkpoints:pathHistory', payload: { workspace: dirs.workspace, path: '../x' }, field: 'path' },
      { channel: 'checkpoints:pathHistory', payload: { workspace: dirs.workspace, path: '-x' }, field: 'path' },
      { channel: 'restore:run', payload: { workspace: dirs.workspace, id: 'HEAD~1' }, field: 'id' },
      { channel: 'retention:undo', payload: { workspace: dirs.workspace, entry: '../refs/heads' }, field: 'entry' },
      { channel: 'retention:undo', payload: { workspace: dirs.workspace, entry: 'HEAD' }, field: 'entry' },
      { channel: 'retention:trash', payload: { workspace: dirs.workspace, all: true }, field: 'all' },
      { channel: 'restore:run', payload: { workspace: dirs.workspace, id: 'latest', paths: ['a.txt', '../../etc'] }, field: 'paths.1' },
      { channel: 'restore:run', payload: { workspace: dirs.workspace, id: 'latest', force: true }, field: 'force' },
      { channel: 'restore:preview', payload: { workspace: dirs.workspace, id: 'latest', keep_untracked: 'no' }, field: 'keep_untracked' },
      { channel: 'checkpoints:list', payload: { workspace: dirs.workspace, limit: -1 }, field: 'limit' },
      { channel: 'workspaces:remove', payload: { workspace: '' }, field: 'workspace' },
      { channel: 'workspaces:setPaused', payload: { workspace: dirs.workspace }, field: 'paused' },
      { channel: 'settings:set', payload: { watcher: { quiet_ms: 5 } }, field: 'watcher.quiet_ms' },
      { channel: 'settings:set', payload: { unknown_setting: true }, field: 'unknown_setting' },
      { channel: 'app:info', payload: { extra: 1 }, field: 'extra' },
      { channel: 'checkpoints:list', payload: 'not an object', field: 'request' },
    ];
    for (const c of cases) {
      const result = await router.invoke(c.channel, c.payload);
      expect(result.ok, `${c.channel} ${JSON.stringify(c.payload)}`).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('bad_input');
      expect(result.error.message).toContain(c.field);
      expect(result.error.message).toContain(c.channel);
      expect(result.error.message).not.toContain('\n');
    }
    expect(await worldState()).toBe(before);
  });

  it('turns engine errors into typed errors instead of throwing', async () => {
    const missing = await router.invoke('checkpoints:show', { workspace: dirs.workspace, id: 'abcdef12' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.code).toBe('not_found');
    const refused = await router.invoke('workspaces:add', { workspace: '/' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('refused');
    expect(await app.listWorkspaces()).toEqual([]);
  });
});

describe('router: round trip', () => {
  it('snapshot → list → show → fileDiff → preview → run, with events', async () => {
    const added: EventMap['checkpoint:added'][] = [];
    const restored: EventMap['restore:done'][] = [];
    app.on('checkpoint:added', (e) => added.push(e));
    app.on('restore:done', (e) => restored.push(e));

    const entry = ok<{ path: string; state: string }>(await router.invoke('workspaces:add', { workspace: dirs.workspace }));
    expect(entry.path).toBe(dirs.workspace);
    expect(ok<{ path: string }[]>(await router.invoke('workspaces:list', {})).map((w) => w.path)).toEqual([dirs.workspace]);

    // Adding took the baseline; the first snapshot here records something new.
    await writeFile(path.join(dirs.workspace, 'notes.txt'), 'after the baseline\n');
    const first = ok<SnapshotResult>(await router.invoke('checkpoints:snapshot', { workspace: dirs.workspace, reason: 'before the change' }));
    if (first.id === null) throw new Error('expected a checkpoint');
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'two\n');
    await writeFile(path.join(dirs.workspace, 'b.txt'), 'new\n');
    const second = ok<SnapshotResult>(await router.invoke('checkpoints:snapshot', { workspace: dirs.workspace }));
    if (second.id === null) throw new Error('expected a second checkpoint');
    expect(second.checkpoint.trigger).toBe('manual');
    expect(added.map((e) => e.checkpoint.trigger)).toEqual(['baseline', 'manual', 'manual']);
    expect(added.slice(1).map((e) => e.checkpoint.id)).toEqual([first.id, second.id]);

    const list = ok<Checkpoint[]>(await router.invoke('checkpoints:list', { workspace: dirs.workspace }));
    expect(list.map((c) => c.id)).toEqual([second.id, first.id, added[0]?.checkpoint.id]);

    const detail = ok<{ files: { path: string; status: string }[] }>(await router.invoke('checkpoints:show', { workspace: dirs.workspace, id: second.id }));
    expect(detail.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual(['added b.txt', 'modified a.txt']);

    const fileDiff = ok<{ old: { text?: string }; new: { text?: string } }>(
      await router.invoke('checkpoints:fileDiff', { workspace: dirs.workspace, from: first.id, to: second.id, path: 'a.txt' }),
    );
    expect([fileDiff.old.text, fileDiff.new.text]).toEqual(['one\n', 'two\n']);

    const story = ok<{ entries: { id: string; change: string }[] }>(await router.invoke('checkpoints:pathHistory', { workspace: dirs.workspace, path: 'b.txt' }));
    expect(story.entries).toEqual([{ id: second.id, change: 'added' }]);

    const preview = ok<{ modified: string[]; untracked_removed: string[]; deleted: string[]; effects_since: unknown[] }>(
      await router.invoke('restore:preview', { workspace: dirs.workspace, id: first.id }),
    );
    expect(preview.modified).toEqual(['a.txt']);
    expect([...preview.deleted, ...preview.untracked_removed]).toEqual(['b.txt']);
    expect(preview.effects_since).toEqual([]);
    expect(await readFile(path.join(dirs.workspace, 'a.txt'), 'utf8')).toBe('two\n'); // preview changed nothing

    const result = ok<RestoreResult>(await router.invoke('restore:run', { workspace: dirs.workspace, id: first.id }));
    expect(await readFile(path.join(dirs.workspace, 'a.txt'), 'utf8')).toBe('one\n');
    expect(restored).toEqual([{ workspace: dirs.workspace, result }]);
    const announced = added.map((e) => e.checkpoint.id);
    expect(announced).toContain(result.safety);
    if (result.checkpoint) expect(announced).toContain(result.checkpoint);
    expect(new Set(announced).size).toBe(announced.length); // each once

    // The safety checkpoint restores the state before the restore.
    ok(await router.invoke('restore:run', { workspace: dirs.workspace, id: result.safety }));
    expect(await readFile(path.join(dirs.workspace, 'a.txt'), 'utf8')).toBe('two\n');

    const pinned = ok<Checkpoint>(await router.invoke('checkpoints:pin', { workspace: dirs.workspace, id: first.id, pinned: true }));
    expect(pinned.pinned).toBe(true);
    expect(ok<unknown[]>(await router.invoke('effects:list', { workspace: dirs.workspace }))).toEqual([]);
  });

  it('answers app:info, settings and the folder picker per host', async () => {
    const info = ok<{ host: string; store: string }>(await router.invoke('app:info', {}));
    expect(info.host).toBe('browser');
    expect(info.store).toBe(dirs.home);
    expect(ok(await router.invoke('workspaces:pick', {}))).toEqual({ path: null, supported: false });
    const picking = createRouter(app, { pickFolder: async () => dirs.workspace });
    expect(ok(await picking.invoke('workspaces:pick', undefined))).toEqual({ path: dirs.workspace, supported: true });

    const updated = ok<{ watcher: { quiet_ms: number; max_wait_ms: number } }>(
      await router.invoke('settings:set', { watcher: { quiet_ms: 800 } }),
    );
    expect(updated.watcher).toEqual({ quiet_ms: 800, max_wait_ms: 30_000 });
    expect(ok<{ watcher: { quiet_ms: number } }>(await router.invoke('settings:get', {})).watcher.quiet_ms).toBe(800);
    const onDisk = JSON.parse(await readFile(path.join(dirs.home, 'config.json'), 'utf8')) as { watcher: { quiet_ms: number } };
    expect(onDisk.watcher.quiet_ms).toBe(800);
    // A second update of another key keeps the first.
    ok(await router.invoke('settings:set', { watcher: { max_wait_ms: 5000 } }));
    expect(app.settings().watcher).toEqual({ quiet_ms: 800, max_wait_ms: 5000 });
  });

  it('restore:preview lists the effects recorded since the target checkpoint', async () => {
    ok(await router.invoke('workspaces:add', { workspace: dirs.workspace }));
    await writeFile(path.join(dirs.workspace, 'notes.txt'), 'after the baseline\n');
    const first = ok<SnapshotResult>(await router.invoke('checkpoints:snapshot', { workspace: dirs.workspace }));
    if (first.id === null) throw new Error('expected a checkpoint');
    const { EffectLedger } = await import('../../electron/effects/ledger.js');
    const ws = await app.workspace(dirs.workspace);
    const ledger = new EffectLedger(dirs.home, ws.meta.id);
    const old = await ledger.append({
      kind: 'package_publish', target: 'old-pkg', command: 'npm publish', compensation: null, summary: 'old',
      workspace: dirs.workspace, source: 'hook', status: 'happened', checkpoint: null, time_ms: first.checkpoint.time_ms - 60_000,
    });
    const recent = await ledger.append({
      kind: 'git_push', target: 'origin/main', command: 'git push', compensation: 'git push --force-with-lease …', summary: 'pushed',
      workspace: dirs.workspace, source: 'hook', status: 'happened', checkpoint: first.id,
    });
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'changed\n');
    const preview = ok<{ effects_since: { id: string }[] }>(await router.invoke('restore:preview', { workspace: dirs.workspace, id: first.id }));
    expect(preview.effects_since.map((e) => e.id)).toEqual([recent.id]);
    const all = ok<{ id: string }[]>(await router.invoke('effects:list', { workspace: dirs.workspace }));
    expect(all.map((e) => e.id)).toEqual([old.id, recent.id]);
    // The live feed announces the lines another writer appended.
    const seen: string[] = [];
    app.on('effect:recorded', (e) => seen.push(e.effect.id));
    const third = await ledger.append({
      kind: 'container_push', target: 'img', command: 'docker push img', compensation: null, summary: 'img',
      workspace: dirs.workspace, source: 'hook', status: 'intended', checkpoint: null,
    });
    await waitFor('the appended effect to be announced', () => seen.includes(third.id));
  });

  it("checkpoints:pathHistory includes Hermes Agent's /rollback checkpoints that changed the file", async () => {
    const hermesHome = path.join(path.dirname(dirs.workspace), 'hermes-home');
    ok(await router.invoke('settings:set', { hermes_home: hermesHome }));
    const hermes = createHermesStore(hermesHome, dirs.workspace);
    ok(await router.invoke('workspaces:add', { workspace: dirs.workspace }));
    hermes.take('before write_file', 1_780_000_000); // a.txt as it is: added in Hermes' lane
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'hermes edit\n');
    hermes.take('before patch', 1_780_000_600);
    await writeFile(path.join(dirs.workspace, 'other.txt'), 'x\n');
    hermes.take('before terminal: ls', 1_780_001_200); // a.txt untouched

    const list = ok<Checkpoint[]>(await router.invoke('checkpoints:list', { workspace: dirs.workspace }));
    const id = (reason: string): string | undefined => list.find((c) => c.reason === reason)?.id;
    const story = ok<{ entries: { id: string; change: string }[] }>(await router.invoke('checkpoints:pathHistory', { workspace: dirs.workspace, path: 'a.txt' }));
    const hermesEntries = story.entries.filter((e) => e.id.startsWith('h'));
    expect(hermesEntries).toEqual([
      { id: id('before patch'), change: 'modified' },
      { id: id('before write_file'), change: 'added' },
    ]);
  });
});


describe('router: store health', () => {
  it('health:get says what the last check found; health:check runs one now', async () => {
    ok(await router.invoke('workspaces:add', { workspace: dirs.workspace }));
    await writeFile(path.join(dirs.workspace, 'b.txt'), 'only in the second\n');
    const second = ok<SnapshotResult>(await router.invoke('checkpoints:snapshot', { workspace: dirs.workspace, reason: 'second' }));
    expect(second.id).not.toBeNull();
    expect(ok(await router.invoke('health:get', { workspace: dirs.workspace }))).toEqual({ checked_ms: null, damaged: [], files: [] });
    // A record as a check that found the second checkpoint damaged writes it.
    const wsId = (await app.workspace(dirs.workspace)).meta.id;
    const record = path.join(dirs.home, 'workspaces', wsId, 'check.json');
    await writeFile(record, JSON.stringify({ v: 2, started_ms: 1, finished_ms: 2, checkpoints: 2, damaged: { [second.id!]: { lost: ['b.txt'], lost_count: 1 } } }));
    expect(ok(await router.invoke('health:get', { workspace: dirs.workspace }))).toEqual({ checked_ms: 2, damaged: [{ id: second.id, lost: ['b.txt'], lost_count: 1 }], files: [{ path: 'b.txt', checkpoints: 1 }] });
    // The store is sound: checking again clears it, and the list's marks with it.
    const checked = ok<{ checked_ms: number; damaged: unknown[] }>(await router.invoke('health:check', { workspace: dirs.workspace }));
    expect(checked.damaged).toEqual([]);
    expect(checked.checked_ms).toBeGreaterThan(2);
    expect(ok<Checkpoint[]>(await router.invoke('checkpoints:list', { workspace: dirs.workspace })).filter((c) => c.damaged)).toEqual([]);
    expect((await router.invoke('health:check', { workspace: path.join(dirs.workspace, 'nope') })).ok).toBe(false);
  });
});

// ---- issue 41: prompts:list and the `why` of checkpoints:show, with a prompt
// ledger written as the hooks write it (PromptLedger): two prompts, three
// checkpoints carrying their prompt_id, a failed call; a folder the store does not know.

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
    const p1 = await ledger.appendPrompt({ text: 'Refactor the storage', agent: 'claude-code', session: 's1', before: base });
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'two\n');
    const c1 = await taken(ws, { trigger: 'hook', agent: 'claude-code', tool: 'Edit', tool_use_id: 'tu1', session: 's1', prompt_id: p1.id, reason: 'Edit a.txt' });
    await ledger.appendCall({ prompt_id: p1.id, agent: 'claude-code', session: 's1', tool: 'Edit', reason: 'Edit a.txt', tool_use_id: 'tu1', status: 'ok', intent: 'I will rename the store', checkpoint: c1 });
    await ledger.appendCall({ prompt_id: p1.id, agent: 'claude-code', session: 's1', tool: 'Bash', reason: 'Bash: npm test', status: 'failed', exit_code: 1, output_tail: '1 failing' });
    await writeFile(path.join(dirs.workspace, 'b.txt'), 'new\n');
    await writeFile(path.join(dirs.workspace, 'c.txt'), 'new\n');
    const c2 = await taken(ws, { trigger: 'hook', agent: 'claude-code', tool: 'Bash', session: 's1', prompt_id: p1.id, reason: 'Bash: gen' });
    const p2 = await ledger.appendPrompt({ text: 'Fix the flaky test', agent: 'claude-code', session: 's1', before: c2 });

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
