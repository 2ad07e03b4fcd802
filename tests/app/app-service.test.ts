// The app service with the real engine, the real CLI as a separate process and
// real child processes: checkpoints taken elsewhere are announced, the list of
// workspaces persists, and dispose() leaves nothing that keeps a process alive.
import { execFile, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventMap } from '../../shared/ipc.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { CheckpointFeed } from '../../electron/app/checkpoint-feed.js';
import { checkpointSignal } from '../../electron/app/store-refs.js';
import { openStore } from '../../electron/engine/index.js';
import { CLI_PATH, REPO_ROOT } from '../paths.js';
import { tempDirs, waitFor, type TempDirs } from './helpers.js';

const run = promisify(execFile);

let dirs: TempDirs;
const services: AppService[] = [];

beforeEach(async () => {
  dirs = await tempDirs();
  await writeFile(path.join(dirs.workspace, 'a.txt'), 'one\n');
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.dispose();
  await dirs.cleanup();
});

async function service(options: { watch?: boolean } = {}): Promise<AppService> {
  const s = await createAppService({ home: dirs.home, host: 'browser', version: '0.0.0-test', watch: options.watch ?? false });
  services.push(s);
  return s;
}

function cliSnapshot(reason: string): Promise<{ stdout: string }> {
  return run(process.execPath, [CLI_PATH, 'snapshot', '--workspace', dirs.workspace, '--reason', reason, '--json'], {
    env: { ...process.env, CHRONOSCOPE_HOME: dirs.home },
  });
}

describe('app service', () => {
  it('announces a checkpoint taken by the CLI in another process, once', async () => {
    const app = await service();
    await app.addWorkspace(dirs.workspace);
    const added: EventMap['checkpoint:added'][] = [];
    app.on('checkpoint:added', (e) => added.push(e));

    await writeFile(path.join(dirs.workspace, 'a.txt'), 'one, edited\n'); // the baseline holds 'one'
    const { stdout } = await cliSnapshot('from the cli');
    const id = (JSON.parse(stdout) as { id: string }).id;
    const event = await waitFor('the CLI checkpoint to be announced', () => added.find((e) => e.checkpoint.id === id));
    expect(event.workspace).toBe(dirs.workspace);
    expect(event.checkpoint.reason).toBe('from the cli');

    // Ones this process took are announced by whoever took them, and never twice.
    const ws = await app.workspace(dirs.workspace);
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'two\n');
    const own = await ws.snapshot({ reason: 'own' });
    if (own.id === null) throw new Error('expected a checkpoint');
    app.emit('checkpoint:added', { workspace: dirs.workspace, checkpoint: own.checkpoint });
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'three\n');
    const { stdout: second } = await cliSnapshot('second from the cli');
    const secondId = (JSON.parse(second) as { id: string }).id;
    await waitFor('the second CLI checkpoint', () => added.some((e) => e.checkpoint.id === secondId));
    const ids = added.map((e) => e.checkpoint.id);
    expect(ids).toEqual([id, own.id, secondId]);
  });

  it('notices new checkpoints from the ref folder signal alone (no slow safety poll)', async () => {
    const store = await openStore({ home: dirs.home });
    const ws = await store.workspace(dirs.workspace);
    const seen: string[] = [];
    const feed = new CheckpointFeed({
      ...checkpointSignal(store.home, ws.meta.id),
      list: (limit) => ws.list({ limit }),
      onNew: (cp) => seen.push(cp.id),
      safetyPollMs: 3_600_000,
    });
    await feed.start();
    try {
      const { stdout } = await cliSnapshot('signal');
      const id = (JSON.parse(stdout) as { id: string }).id;
      await waitFor('the feed to see the CLI checkpoint', () => seen.includes(id));
      expect(seen).toEqual([id]);
    } finally {
      await feed.dispose();
    }
  });

  it('keeps the list of workspaces across instances, with the paused flag', async () => {
    const first = await service();
    const [entry, again] = await Promise.all([first.addWorkspace(dirs.workspace), first.addWorkspace(dirs.workspace)]);
    expect(entry.path).toBe(dirs.workspace);
    expect(again.id).toBe(entry.id);
    expect(await first.listWorkspaces()).toHaveLength(1);
    await first.setPaused(dirs.workspace, true);
    await first.dispose();

    const file = JSON.parse(await readFile(path.join(dirs.home, 'app-workspaces.json'), 'utf8')) as { workspaces: { path: string; paused: boolean }[] };
    expect(file.workspaces).toEqual([expect.objectContaining({ path: dirs.workspace, paused: true })]);

    const second = await service({ watch: true });
    const listed = await second.listWorkspaces();
    expect(listed).toEqual([expect.objectContaining({ path: dirs.workspace, id: entry.id, state: 'paused' })]);
    expect(await second.removeWorkspace(dirs.workspace)).toBe(true);
    expect(await second.removeWorkspace(dirs.workspace)).toBe(false);
    await second.dispose();

    const third = await service();
    expect(await third.listWorkspaces()).toEqual([]);
    // The store keeps the history of a removed workspace.
    expect((await third.store.listWorkspaces()).map((m) => m.path)).toContain(dirs.workspace);
  });

  it('refuses what the engine refuses and lists nothing for it', async () => {
    const app = await service();
    await expect(app.addWorkspace('/')).rejects.toMatchObject({ code: 'refused' });
    await expect(app.addWorkspace(dirs.home)).rejects.toMatchObject({ code: 'refused' });
    expect(await app.listWorkspaces()).toEqual([]);
  });

  it('takes auto checkpoints for an added workspace and announces them', async () => {
    const app = await service({ watch: true });
    await app.updateSettings({ watcher: { quiet_ms: 200 } });
    const added: EventMap['checkpoint:added'][] = [];
    app.on('checkpoint:added', (e) => added.push(e));
    const entry = await app.addWorkspace(dirs.workspace);
    expect(entry.state).toBe('watching');
    await writeFile(path.join(dirs.workspace, 'b.txt'), 'new\n');
    const auto = await waitFor('an auto checkpoint', () => added.find((e) => e.checkpoint.trigger === 'auto'));
    // The workspace as it was when added is the baseline; the auto checkpoint holds the change.
    const ws = await app.workspace(dirs.workspace);
    const baseline = added.find((e) => e.checkpoint.trigger === 'baseline');
    expect(baseline).toBeDefined();
    expect((await ws.show(baseline?.checkpoint.id ?? '')).files.map((f) => f.path)).toEqual(['a.txt']);
    const files = (await ws.show(auto.checkpoint.id)).files.map((f) => f.path).sort();
    expect(files).toEqual(['b.txt']);
    expect(added.filter((e) => e.checkpoint.id === auto.checkpoint.id)).toHaveLength(1);
  });

  it('records the original of the first edit: a baseline is taken when a workspace is added', async () => {
    const app = await service({ watch: true });
    await app.updateSettings({ watcher: { quiet_ms: 200 } });
    const added: EventMap['checkpoint:added'][] = [];
    app.on('checkpoint:added', (e) => added.push(e));
    await app.addWorkspace(dirs.workspace);
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'edited\n');
    await waitFor('an auto checkpoint', () => added.find((e) => e.checkpoint.trigger === 'auto'));
    const ws = await app.workspace(dirs.workspace);
    const list = await ws.list();
    expect(list.map((c) => c.trigger)).toEqual(['auto', 'baseline']);
    const diff = await ws.fileDiff(list[1]?.id ?? '', 'workspace', 'a.txt');
    expect(diff.old.text).toBe('one\n');
    expect(diff.new.text).toBe('edited\n');
  });

  it('a workspace served without watching still gets its baseline; reopening adds none', async () => {
    const app = await service();
    await app.addWorkspace(dirs.workspace);
    const ws = await app.workspace(dirs.workspace);
    expect((await ws.list()).map((c) => c.trigger)).toEqual(['baseline']);
    await app.dispose();
    const again = await service();
    expect((await (await again.workspace(dirs.workspace)).list()).map((c) => c.trigger)).toEqual(['baseline']);
  });

  it('dispose() leaves no handle: a process using the service exits on its own', async () => {
    const script = path.join(path.dirname(dirs.home), 'use-service.mjs');
    const appModule = path.join(REPO_ROOT, 'dist/electron/app/app-service.js');
    await writeFile(
      script,
      `import { writeFile } from 'node:fs/promises';
import { createAppService } from ${JSON.stringify(appModule)};
const [home, workspace] = process.argv.slice(2);
const app = await createAppService({ home, host: 'browser', version: 't' });
await app.updateSettings({ watcher: { quiet_ms: 100 } });
await app.addWorkspace(workspace);
const auto = new Promise((resolve) => app.on('checkpoint:added', (e) => e.checkpoint.trigger === 'auto' && resolve(e)));
await writeFile(workspace + '/c.txt', 'watched\\n');
await auto;
await app.dispose();
console.log('disposed', JSON.stringify(process.getActiveResourcesInfo()));
`,
    );
    const child = spawn(process.execPath, [script, dirs.home, dirs.workspace], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let code: number | null | undefined;
    void exited.then((c) => (code = c));
    try {
      await waitFor('the child process to exit on its own after dispose()', () => code !== undefined, 60_000);
    } finally {
      if (code === undefined) child.kill('SIGKILL');
    }
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/^disposed \[/);
  });
});

describe('app service: effects', () => {
  it('announces a push made with plain git in a watched workspace, with its compensation', async () => {
    const git = (cwd: string, ...args: string[]) =>
      run('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
        cwd,
        env: { PATH: process.env['PATH'] ?? '', HOME: dirs.home, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      });
    const remote = path.join(path.dirname(dirs.home), 'remote.git');
    await git(path.dirname(dirs.home), 'init', '--bare', '--quiet', remote);
    await git(dirs.workspace, 'init', '--quiet');
    await git(dirs.workspace, 'remote', 'add', 'origin', remote);
    await git(dirs.workspace, 'add', 'a.txt');
    await git(dirs.workspace, 'commit', '--quiet', '-m', 'first');

    const app = await service();
    await app.addWorkspace(dirs.workspace);
    const effects: EventMap['effect:recorded'][] = [];
    app.on('effect:recorded', (e) => effects.push(e));

    await git(dirs.workspace, 'push', '--quiet', '-u', 'origin', 'main');
    const pushed = await waitFor('the push to be announced', () => effects.find((e) => e.effect.kind === 'git_push'));
    expect(pushed.workspace).toBe(dirs.workspace);
    expect(pushed.effect.source).toBe('reflog');
    expect(pushed.effect.target).toContain('origin/main');
    expect(pushed.effect.compensation).toBeTruthy();
    // It is in the ledger too, once.
    const listed = await app.effects(dirs.workspace);
    expect(listed.filter((e) => e.id === pushed.effect.id)).toHaveLength(1);
    expect(effects.filter((e) => e.effect.id === pushed.effect.id)).toHaveLength(1);
  });
});
