// The background service, with real processes: hooks that find nobody serving
// the store start `chronoscope daemon` themselves, later calls are handed to
// it, and what it checkpoints is what a full scan would hold. Proof that the
// daemon did the work: those hook calls run with an empty PATH (no git for the
// hook alone; see delegate.test.ts for the control).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import type { ServiceStatus } from '../../electron/agents/core/service-control.js';
import { agentSocketPath } from '../../electron/agents/core/delegate-socket.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { openStore } from '../../electron/engine/index.js';
import { processAlive, sleep, tempDirs, waitFor, type TempDirs } from '../app/helpers.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from '../agents/run-cli.js';

let dirs: TempDirs;
const homes = new Set<string>();
const children = new Set<ChildProcess>();
let app: AppService | null = null;

/** A hook's environment with auto-start on (the test suite turns it off everywhere else). */
const envFor = (home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => baseEnv(home, { CHRONOSCOPE_DAEMON: '1', ...extra });

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-daemon-');
  homes.add(dirs.home);
  await mkdir(join(dirs.workspace, 'src'), { recursive: true });
  await writeFile(join(dirs.workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
  // Automatic checkpoints out of the way: every checkpoint here is one a hook asked for.
  await quietSettings(dirs.home);
});

afterEach(async () => {
  await app?.dispose();
  app = null;
  for (const home of homes) {
    const s = await status(home).catch(() => null);
    await runCli(['daemon', '--stop'], { env: baseEnv(home) }).catch(() => undefined);
    if (s !== null && s.kind === 'daemon' && alive(s.pid)) process.kill(s.pid, 'SIGKILL');
  }
  homes.clear();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  await dirs.cleanup();
});

async function quietSettings(home: string, extra: Record<string, unknown> = {}): Promise<void> {
  await writeFile(join(home, 'config.json'), JSON.stringify({ watcher: { quiet_ms: 600_000, max_wait_ms: 3_600_000 }, ...extra }));
}

const alive = processAlive;

const preEdit = (home: string, ws: string, id: string, extra: NodeJS.ProcessEnv = {}) =>
  runCli(['hook', 'claude-code'], {
    input: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, 'src', 'app.ts') }, tool_use_id: id }),
    env: envFor(home, extra),
    cwd: ws,
  });

async function status(home: string): Promise<ServiceStatus | null> {
  const r = await runCli(['daemon', '--status', '--json'], { env: baseEnv(home) });
  if (r.code !== 0) throw new Error(`daemon --status: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { service: ServiceStatus | null }).service;
}

const serving = (home: string, ws?: string) =>
  waitFor('the daemon serving', async () => {
    const s = await status(home);
    return s !== null && s.kind === 'daemon' && (ws === undefined || s.workspaces.includes(ws)) ? s : undefined;
  });

async function checkpoints(home: string, ws: string): Promise<Checkpoint[]> {
  return (await (await openStore({ home })).workspace(ws)).list();
}

async function byToolUse(home: string, ws: string, id: string): Promise<Checkpoint> {
  return waitFor(`the checkpoint of ${id}`, async () => (await checkpoints(home, ws)).find((c) => c.tool_use_id === id));
}

async function changedFiles(home: string, ws: string, id: string): Promise<string[]> {
  return (await (await (await openStore({ home })).workspace(ws)).show(id)).files.map((f) => f.path).sort();
}

/** The control: a full scan right after finds nothing the delegated checkpoint missed. */
async function fullScanFindsNothingNew(home: string, ws: string): Promise<void> {
  const result = await (await (await openStore({ home })).workspace(ws)).snapshot({ reason: 'control: full scan' });
  expect(result.id, 'a full scan found changes the delegated checkpoint missed').toBeNull();
}

function startDaemon(home: string, args: string[] = []): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [CLI_PATH, 'daemon', ...args], { env: envFor(home), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
  return { child, output: () => out, exited };
}

describe('the background service started by hooks', () => {
  it('a hook that finds nobody works alone and starts the daemon; the next calls are handed to it and hold what a full scan would', async () => {
    const first = await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect((await checkpoints(dirs.home, dirs.workspace)).map((c) => c.tool_use_id)).toEqual(['toolu_1']);
    const s = await serving(dirs.home, dirs.workspace);
    expect(s.idle_exit_ms).toBe(30 * 60_000);

    // A change made just before the call.
    await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
    const second = await preEdit(dirs.home, dirs.workspace, 'toolu_2', { PATH: '' });
    expect(second).toMatchObject({ code: 0, stdout: '' });
    const cp = await byToolUse(dirs.home, dirs.workspace, 'toolu_2');
    expect(cp).toMatchObject({ trigger: 'hook', reason: 'Edit src/app.ts', agent: 'claude-code' });
    expect(await changedFiles(dirs.home, dirs.workspace, cp.id)).toEqual(['notes.txt']);
    await fullScanFindsNothingNew(dirs.home, dirs.workspace);
    expect((await status(dirs.home))?.last_call).not.toBeNull();
  });

  it("catches up a change made before its watcher started", async () => {
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    // At once, before the daemon the hook started can be watching.
    await writeFile(join(dirs.workspace, 'early.txt'), 'made before anyone watched\n');
    await serving(dirs.home, dirs.workspace);
    await preEdit(dirs.home, dirs.workspace, 'toolu_2', { PATH: '' });
    const cp = await byToolUse(dirs.home, dirs.workspace, 'toolu_2');
    expect(await changedFiles(dirs.home, dirs.workspace, cp.id)).toEqual(['early.txt']);
    await fullScanFindsNothingNew(dirs.home, dirs.workspace);
  });

  it('the first call for a workspace it does not watch yet gets a complete checkpoint, and the workspace is watched from then on', async () => {
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    await serving(dirs.home, dirs.workspace);
    const other = join(dirs.workspace, '..', 'other');
    await mkdir(join(other, 'src'), { recursive: true });
    await writeFile(join(other, 'src', 'app.ts'), 'one\n');
    await writeFile(join(other, 'README'), 'other\n');
    await (await (await openStore({ home: dirs.home })).workspace(other)).snapshot({ reason: 'start' });
    await writeFile(join(other, 'README'), 'changed before the first call\n');
    await writeFile(join(other, 'new.txt'), 'new\n');

    const r = await preEdit(dirs.home, other, 'toolu_o1', { PATH: '' });
    expect(r.code).toBe(0);
    const cp = await byToolUse(dirs.home, other, 'toolu_o1');
    expect(await changedFiles(dirs.home, other, cp.id)).toEqual(['README', 'new.txt']);
    await fullScanFindsNothingNew(dirs.home, other);
    const s = await serving(dirs.home, other);
    expect(s.workspaces).toContain(dirs.workspace);
  });

  it('killed with SIGKILL in the middle of a hand-off: the hook falls back to its own scan, nothing is lost, the next call starts a new daemon', async () => {
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    const before = await serving(dirs.home, dirs.workspace);
    await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
    // Stopped, the daemon accepts the connection (the kernel does) but never answers: the hook waits on it.
    process.kill(before.pid, 'SIGSTOP');
    const pending = preEdit(dirs.home, dirs.workspace, 'toolu_2');
    await sleep(1000);
    process.kill(before.pid, 'SIGKILL');
    const r = await pending;
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const cp = await byToolUse(dirs.home, dirs.workspace, 'toolu_2');
    expect(await changedFiles(dirs.home, dirs.workspace, cp.id)).toEqual(['notes.txt']);
    await fullScanFindsNothingNew(dirs.home, dirs.workspace);
    // The dead daemon's lock and socket do not stand in the way of the next one.
    const after = await serving(dirs.home, dirs.workspace);
    expect(after.pid).not.toBe(before.pid);
    await writeFile(join(dirs.workspace, 'later.txt'), 'later\n');
    await preEdit(dirs.home, dirs.workspace, 'toolu_3', { PATH: '' });
    expect(await changedFiles(dirs.home, dirs.workspace, (await byToolUse(dirs.home, dirs.workspace, 'toolu_3')).id)).toEqual(['later.txt']);
  });

  it('the workspace folder replaced between two calls: the next delegated checkpoint holds the new folder as a full scan would', async () => {
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    await serving(dirs.home, dirs.workspace);
    // Swapped by renames (as a checkout tool or a person's mv does): the old folder lives on elsewhere.
    const next = `${dirs.workspace}-next`;
    await mkdir(join(next, 'src'), { recursive: true });
    await writeFile(join(next, 'src', 'app.ts'), 'export const answer = 43;\n');
    await writeFile(join(next, 'replaced.txt'), 'a new folder of the same name\n');
    await rename(dirs.workspace, `${dirs.workspace}-old`);
    await rename(next, dirs.workspace);
    const r = await preEdit(dirs.home, dirs.workspace, 'toolu_2', { PATH: '' });
    expect(r.code).toBe(0);
    const cp = await byToolUse(dirs.home, dirs.workspace, 'toolu_2');
    expect(await changedFiles(dirs.home, dirs.workspace, cp.id)).toEqual(['replaced.txt', 'src/app.ts']);
    await fullScanFindsNothingNew(dirs.home, dirs.workspace);
  });

  it('a stale socket file with no listener: the hook works alone and the daemon it starts replaces the file', async () => {
    await writeFile(agentSocketPath(dirs.home), 'stale');
    const r = await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    expect(r).toMatchObject({ code: 0, stdout: '' });
    await byToolUse(dirs.home, dirs.workspace, 'toolu_1');
    await serving(dirs.home, dirs.workspace);
    expect((await stat(agentSocketPath(dirs.home))).isSocket()).toBe(true);
  });

  it('two stores on one machine: each daemon serves only its own, through an owner-only socket in an owner-only folder', async () => {
    const second = await tempDirs('chronoscope-daemon-b-');
    homes.add(second.home);
    try {
      await quietSettings(second.home);
      await writeFile(join(second.workspace, 'b.txt'), 'b\n');
      await preEdit(dirs.home, dirs.workspace, 'toolu_a');
      await runCli(['hook', 'claude-code'], {
        input: JSON.stringify({ session_id: 's', cwd: second.workspace, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(second.workspace, 'b.txt') }, tool_use_id: 'toolu_b' }),
        env: envFor(second.home),
        cwd: second.workspace,
      });
      const a = await serving(dirs.home, dirs.workspace);
      const b = await serving(second.home, second.workspace);
      expect(a.pid).not.toBe(b.pid);
      expect(a.workspaces).toEqual([dirs.workspace]);
      expect(b.workspaces).toEqual([second.workspace]);
      for (const home of [dirs.home, second.home]) {
        expect((await stat(agentSocketPath(home))).mode & 0o777).toBe(0o600);
        expect((await stat(home)).mode & 0o777).toBe(0o700);
      }
    } finally {
      await runCli(['daemon', '--stop'], { env: baseEnv(second.home) });
      await second.cleanup();
    }
  });

  it('"daemon": false in the settings: the hook works alone and starts nothing', async () => {
    await quietSettings(dirs.home, { daemon: false });
    const r = await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    expect(r.code).toBe(0);
    await byToolUse(dirs.home, dirs.workspace, 'toolu_1');
    await sleep(1500);
    expect(await status(dirs.home)).toBeNull();
    expect(existsSync(join(dirs.home, 'daemon.log'))).toBe(false);
    const text = await runCli(['hooks', 'status', 'claude-code', '-w', dirs.workspace], { env: envFor(dirs.home) });
    expect(text.stdout).toContain('automatic start is off');
  });
});

describe('the daemon process', () => {
  it('leaves by itself when idle, releasing its socket and its lock', async () => {
    const d = startDaemon(dirs.home, ['--idle-exit-ms', '1500', '-w', dirs.workspace]);
    // Its log says it served (asking `daemon --status` raced the 1.5 s idle exit on a loaded machine:
    // the daemon could be gone before the first status process started).
    expect(await d.exited).toBe(0);
    expect(d.output()).toContain('serving agent hooks');
    expect(d.output()).toContain(`watching ${dirs.workspace}`);
    expect(d.output()).toContain('leaving (idle)');
    expect(existsSync(agentSocketPath(dirs.home))).toBe(false);
    expect(existsSync(join(dirs.home, 'agent.lock.lock'))).toBe(false);
  });

  it('SIGTERM: it stops, releasing its socket and its lock; a hook then works alone and starts a new one', async () => {
    const d = startDaemon(dirs.home, ['-w', dirs.workspace]);
    const s = await serving(dirs.home, dirs.workspace);
    expect(s.pid).toBe(d.child.pid);
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(existsSync(agentSocketPath(dirs.home))).toBe(false);
    expect(existsSync(join(dirs.home, 'agent.lock.lock'))).toBe(false);
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    expect((await serving(dirs.home, dirs.workspace)).pid).not.toBe(s.pid);
  });

  it('two started at the same moment: one serves, the other leaves quietly', async () => {
    const one = startDaemon(dirs.home, ['-w', dirs.workspace]);
    const two = startDaemon(dirs.home, ['-w', dirs.workspace]);
    const first = await Promise.race([one.exited.then(() => one), two.exited.then(() => two)]);
    expect(first.child.exitCode).toBe(0);
    expect(first.output()).toContain('serves this store already');
    const s = await serving(dirs.home, dirs.workspace);
    const other = first === one ? two : one;
    expect(s.pid).toBe(other.child.pid);
  });

  it('daemon --stop stops it; --stop with nothing running says so', async () => {
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    const s = await serving(dirs.home, dirs.workspace);
    const stop = await runCli(['daemon', '--stop'], { env: baseEnv(dirs.home) });
    expect(stop).toMatchObject({ code: 0, stdout: `stopped the background service (pid ${s.pid})\n` });
    await waitFor('the daemon gone', () => !alive(s.pid));
    const again = await runCli(['daemon', '--stop'], { env: baseEnv(dirs.home) });
    expect(again).toMatchObject({ code: 0, stdout: `no background service runs for the store ${dirs.home}\n` });
  });

  it('hooks status says it runs, since when, what it watches and how to stop it', async () => {
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    const s = await serving(dirs.home, dirs.workspace);
    const r = await runCli(['hooks', 'status', 'claude-code', '-w', dirs.workspace], { env: baseEnv(dirs.home) });
    expect(r.stdout).toContain(`the background service (chronoscope daemon, pid ${s.pid}) serves hook calls for the store ${dirs.home}, since ${s.since}`);
    expect(r.stdout).toContain(`watching: ${dirs.workspace}`);
    expect(r.stdout).toContain('stop it now: chronoscope daemon --stop');
  });
});

describe('the app and the daemon share one socket', () => {
  it('daemon first, then the app: the app takes the socket over and goes on watching the daemon\'s workspaces', async () => {
    await preEdit(dirs.home, dirs.workspace, 'toolu_1');
    const d = await serving(dirs.home, dirs.workspace);
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', pollMs: 100 });
    await waitFor('the daemon gone', () => !alive(d.pid));
    const s = await status(dirs.home);
    expect(s).toMatchObject({ kind: 'app', pid: process.pid, workspaces: [dirs.workspace] });
    // Shown as the status says (what runs is visible), marked as watched for the hooks: not added to the person's list.
    expect(await app.listWorkspaces()).toMatchObject([{ path: dirs.workspace, for_agents: true }]);
    await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
    await sleep(300);
    const r = await preEdit(dirs.home, dirs.workspace, 'toolu_2', { PATH: '' });
    expect(r.code).toBe(0);
    const cp = await byToolUse(dirs.home, dirs.workspace, 'toolu_2');
    expect(await changedFiles(dirs.home, dirs.workspace, cp.id)).toEqual(['notes.txt']);
    await fullScanFindsNothingNew(dirs.home, dirs.workspace);
  });

  it('the app first, then a hook: the hook is served by the app and starts no daemon', async () => {
    await (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).snapshot({ reason: 'start' });
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', pollMs: 100 });
    await app.addWorkspace(dirs.workspace);
    await waitFor('the watcher', async () => (await app!.listWorkspaces()).some((w) => w.state === 'watching'));
    await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
    await sleep(300);
    const r = await preEdit(dirs.home, dirs.workspace, 'toolu_1', { PATH: '' });
    expect(r.code).toBe(0);
    expect(await changedFiles(dirs.home, dirs.workspace, (await byToolUse(dirs.home, dirs.workspace, 'toolu_1')).id)).toEqual(['notes.txt']);
    await sleep(1000);
    expect(await status(dirs.home)).toMatchObject({ kind: 'app', pid: process.pid });
    expect(existsSync(join(dirs.home, 'daemon.log'))).toBe(false);
    // A daemon started by hand meanwhile leaves at once: the app serves.
    const d = startDaemon(dirs.home, ['-w', dirs.workspace]);
    expect(await d.exited).toBe(0);
    expect(d.output()).toContain('serves this store already');
  });
});
