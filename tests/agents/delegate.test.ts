// Delegation: with the app (or `serve`) running, the hook process hands its
// work to it over the store's socket. Proof that the app did the work: the
// hook runs with an empty PATH (no git for it to start), as Claude Code's
// native binary may start it; alone it could take no checkpoint.
import { spawnSync } from 'node:child_process';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { openStore } from '../../electron/engine/index.js';
import { agentSocketPath } from '../../electron/agents/core/delegate-socket.js';
import { askService } from '../../electron/agents/core/service-control.js';
import { createRouter } from '../../electron/router/index.js';
import { tempDirs, waitFor, type TempDirs } from '../app/helpers.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from './run-cli.js';
import { GIT_ENV, git, gitBackdated } from '../effects/git-helpers.js';

let dirs: TempDirs;
let app: AppService | null = null;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-delegate-');
  await mkdir(join(dirs.workspace, 'src'), { recursive: true });
  await writeFile(join(dirs.workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await dirs.cleanup();
});

const edit = (env: NodeJS.ProcessEnv, id: string) =>
  runCli(['hook', 'claude-code'], {
    input: JSON.stringify({ session_id: 's', cwd: dirs.workspace, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(dirs.workspace, 'src', 'app.ts') }, tool_use_id: id }),
    env: { CHRONOSCOPE_DAEMON: '0', ...env },
    cwd: dirs.workspace,
  });

/**
 * Waits until the app watches the workspace and has nothing unrecorded: its start-up full scan (a
 * workspace with history gets one) has run, so a change written next is the watcher's to see.
 */
async function watcherSettled(): Promise<void> {
  await waitFor('the watcher', async () => (await app!.listWorkspaces()).some((w) => w.state === 'watching'));
  await waitFor('the start-up scan', async () => (await app!.unrecordedPaths(dirs.workspace))?.length === 0);
}

/** Waits until the app's watcher has seen these paths change (the delegated checkpoint is limited to what it saw). */
async function seen(...paths: string[]): Promise<void> {
  await waitFor(`the watcher to see ${paths.join(', ')}`, async () => {
    const changed = await app!.unrecordedPaths(dirs.workspace);
    return changed === null || paths.every((p) => changed.includes(p)); // null: it cannot vouch, so the app scans everything
  });
}

async function list(): Promise<Checkpoint[]> {
  const store = await openStore({ home: dirs.home });
  return (await store.workspace(dirs.workspace)).list();
}

describe('hooks delegated to the running app', () => {
  it('takes the checkpoint in the app, with the watcher knowing what else changed', async () => {
    const store = await openStore({ home: dirs.home });
    await (await store.workspace(dirs.workspace)).snapshot({ reason: 'start' });
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: true, pollMs: 100 });
    await app.addWorkspace(dirs.workspace);
    expect((await stat(agentSocketPath(dirs.home))).mode & 0o777).toBe(0o600);
    await watcherSettled();
    await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
    await seen('notes.txt');
    const r = await edit({ CHRONOSCOPE_HOME: dirs.home, CHRONOSCOPE_HOOK_BUDGET_MS: '120000', PATH: '' }, 'toolu_d1');
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const cp = (await list()).find((c) => c.tool_use_id === 'toolu_d1');
    expect(cp).toMatchObject({ trigger: 'hook', reason: 'Edit src/app.ts', agent: 'claude-code' });
    const shown = await (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).show(cp!.id);
    expect(shown.files.map((f) => f.path)).toEqual(['notes.txt']);
  });

  it("tells each call's change as exactly that call's, and a change made between calls as nobody's call", async () => {
    const ws = dirs.workspace;
    // The watcher's own checkpoints wait for a quiet they never get here: every change is a hook's to record.
    await writeFile(join(dirs.home, 'config.json'), JSON.stringify({ watcher: { quiet_ms: 600_000, max_wait_ms: 3_600_000 } }));
    const store = await openStore({ home: dirs.home });
    await (await store.workspace(ws)).snapshot({ reason: 'start' });
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: true, pollMs: 100 });
    await app.addWorkspace(ws);
    await waitFor('the watcher', async () => (await app!.listWorkspaces()).some((w) => w.state === 'watching'));
    // PATH empty: only the app can have taken these checkpoints.
    const env = { CHRONOSCOPE_HOME: dirs.home, CHRONOSCOPE_HOOK_BUDGET_MS: '120000', PATH: '' };
    const call = async (event: string, tool: string, input: Record<string, unknown>, id: string): Promise<void> => {
      const extra = event === 'PostToolUse' ? { tool_response: tool === 'Bash' ? { stdout: '', stderr: '', interrupted: false, isImage: false } : { filePath: input['file_path'] } } : {};
      const r = await runCli(['hook', 'claude-code'], { input: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: event, tool_name: tool, tool_input: input, tool_use_id: id, ...extra }), env: { CHRONOSCOPE_DAEMON: '0', ...env }, cwd: ws });
      expect(r, `${event} ${id}`).toMatchObject({ code: 0, stdout: '' });
    };
    const appTs = { file_path: join(ws, 'src', 'app.ts') };

    await call('PreToolUse', 'Edit', appTs, 'e1');
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n'); // the Edit
    await call('PostToolUse', 'Edit', appTs, 'e1');
    await writeFile(join(ws, 'notes.txt'), 'a person, between two calls\n');
    await seen('notes.txt');
    await call('PreToolUse', 'Bash', { command: 'npm test' }, 'b1');
    await call('PostToolUse', 'Bash', { command: 'npm test' }, 'b1'); // changed nothing: no checkpoint, but its end is noted
    await writeFile(join(ws, 'todo.txt'), 'the person again\n');
    await seen('todo.txt');
    await call('PreToolUse', 'Edit', appTs, 'e2');

    const listed = await runCli(['list', '--all', '--json', '-w', ws], { env: baseEnv(dirs.home) });
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as (Checkpoint & { title: string; note: string | null })[];
    const words = rows.map((c) => [c.tool_use_id ?? c.reason, c.change_by ?? null, c.title]);
    expect(words).toEqual([
      ['e2', 'other', 'todo.txt changed, not by a recorded call'],
      ['b1', 'other', 'notes.txt changed, not by a recorded call'],
      ['e1', 'call', "Edit src/app.ts — by Claude Code's Edit"],
      ['start', null, 'start'],
    ]);
    // And each holds what its words say.
    const shown = async (id: string): Promise<string[]> => (await (await (await openStore({ home: dirs.home })).workspace(ws)).show(id)).files.map((f) => f.path);
    expect(await shown(rows[2]!.id)).toEqual(['src/app.ts']);
    expect(await shown(rows[1]!.id)).toEqual(['notes.txt']);
    expect(await shown(rows[0]!.id)).toEqual(['todo.txt']);
  });

  it('without the app, the same empty-PATH hook cannot checkpoint and fails open (the control)', async () => {
    const r = await edit({ CHRONOSCOPE_HOME: dirs.home, PATH: '' }, 'toolu_d2');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(await list()).toEqual([]);
  });

  it('a socket left by a crashed app does not stop the hook working alone', async () => {
    await writeFile(agentSocketPath(dirs.home), 'stale');
    const r = await edit(baseEnv(dirs.home), 'toolu_d3');
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect((await list()).map((c) => c.tool_use_id)).toEqual(['toolu_d3']);
  });

  it('a second app on the same store leaves the socket to the first', async () => {
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false });
    const second = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false });
    await second.dispose();
    // The first still answers.
    const r = await edit({ CHRONOSCOPE_HOME: dirs.home, CHRONOSCOPE_HOOK_BUDGET_MS: '120000', PATH: '' }, 'toolu_d4');
    expect(r.code).toBe(0);
    await waitFor('the checkpoint', async () => (await list()).some((c) => c.tool_use_id === 'toolu_d4'));
  });

  it('a push that said "Everything up-to-date" is recorded as nothing sent while the app runs', async () => {
    const ws = dirs.workspace;
    const bare = join(dirname(dirs.home), 'remote.git');
    git(dirname(dirs.home), 'init', '-q', '--bare', bare);
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'remote', 'add', 'origin', bare);
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'one');
    gitBackdated(ws, 120, 'push', '-q', '-u', 'origin', 'main');
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false });
    const input = { command: 'git push origin main' };
    const hook = (event: string, extra: Record<string, unknown>) =>
      runCli(['hook', 'claude-code'], {
        input: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: event, tool_name: 'Bash', tool_input: input, tool_use_id: 'toolu_up', ...extra }),
        env: { ...baseEnv(dirs.home), CHRONOSCOPE_DAEMON: '0' },
        cwd: ws,
      });
    expect(JSON.parse((await hook('PreToolUse', {})).stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    const ran = spawnSync('git', ['push', 'origin', 'main'], { cwd: ws, env: GIT_ENV, encoding: 'utf8' });
    expect(ran.stderr).toContain('Everything up-to-date');
    expect((await hook('PostToolUse', { tool_response: { stdout: ran.stdout, stderr: ran.stderr, interrupted: false, isImage: false } })).code).toBe(0);
    expect(await app.effects(ws)).toMatchObject([{ tool_use_id: 'toolu_up', status: 'nothing_sent', compensation: null }]);
  });

  it('hooks status says whether hook calls would be handed to a running app now (a stale socket is no app)', async () => {
    const status = async () => {
      const r = await runCli(['hooks', 'status', '--workspace', dirs.workspace, '--hermes-home', join(dirname(dirs.home), 'hermes'), '--json'], { env: baseEnv(dirs.home) });
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as { handoff: { store: string; socket: string; listening: boolean; service: { kind: string; host: string } | null; auto_start: boolean } }).handoff;
    };
    await writeFile(agentSocketPath(dirs.home), 'stale');
    expect(await status()).toEqual({ store: dirs.home, socket: agentSocketPath(dirs.home), listening: false, service: null, auto_start: false });
    const alone = await runCli(['hooks', 'status', '--workspace', dirs.workspace, '--hermes-home', join(dirname(dirs.home), 'hermes')], { env: baseEnv(dirs.home) });
    expect(alone.stdout).toContain(`background service: none runs for the store ${dirs.home}`);
    expect(alone.stdout).toContain('automatic start is off');

    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: false });
    expect(await status()).toMatchObject({ listening: true, service: { kind: 'app', host: 'browser' } });
    const running = await runCli(['hooks', 'status', 'claude-code', '--workspace', dirs.workspace], { env: baseEnv(dirs.home) });
    expect(running.stdout).toContain("browser host ('chronoscope serve')");
    expect(running.stdout).toContain(`serves hook calls for the store ${dirs.home}`);
    // The probe is no request: the app still answers the next hook.
    const r = await edit({ CHRONOSCOPE_HOME: dirs.home, CHRONOSCOPE_HOOK_BUDGET_MS: '120000', PATH: '' }, 'toolu_d5');
    expect(r.code).toBe(0);
    await waitFor('the checkpoint', async () => (await list()).some((c) => c.tool_use_id === 'toolu_d5'));
  });
});

// The same socket serves the CLI's `snapshot` and the MCP server's `checkpoint`; the empty PATH
// again proves the app did the work.
describe('snapshots of the CLI and the MCP server handed to the running app', () => {
  const snapshot = (args: string[]) => runCli(['snapshot', '-w', dirs.workspace, '--json', ...args], { env: { CHRONOSCOPE_HOME: dirs.home, PATH: '' } });

  async function watchingApp(): Promise<void> {
    const store = await openStore({ home: dirs.home });
    await (await store.workspace(dirs.workspace)).snapshot({ reason: 'start' });
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: true, pollMs: 100 });
    await app.addWorkspace(dirs.workspace);
    await watcherSettled();
  }

  it('is limited to what the watcher saw change', async () => {
    await watchingApp();
    await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
    await seen('notes.txt');
    const r = await snapshot(['-m', 'from a shell']);
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as { id: string }).id;
    const [newest] = await list();
    expect(newest).toMatchObject({ id, reason: 'from a shell', trigger: 'manual' });
    const shown = await (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).show(id);
    expect(shown.files.map((f) => f.path)).toEqual(['notes.txt']);
    // Nothing changed since: the app says so, as a scan would.
    const again = await snapshot([]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: null });
  });

  it('--path takes exactly the paths given', async () => {
    await watchingApp();
    await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
    await writeFile(join(dirs.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await seen('notes.txt', 'src/app.ts');
    const r = await snapshot(['-p', 'src/app.ts']);
    expect(r.code, r.stderr).toBe(0);
    const shown = await (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).show((JSON.parse(r.stdout) as { id: string }).id);
    expect(shown.files.map((f) => f.path)).toEqual(['src/app.ts']);
  });

  it("the MCP server's checkpoint tool is handed over the same way", async () => {
    await watchingApp();
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp', '--workspace', dirs.workspace], env: { CHRONOSCOPE_HOME: dirs.home, PATH: '' }, stderr: 'pipe' }),
    );
    try {
      await writeFile(join(dirs.workspace, 'notes.txt'), 'changed by hand\n');
      await seen('notes.txt');
      const result = await client.callTool({ name: 'checkpoint', arguments: { reason: 'before my edit' } }, undefined, { timeout: 60_000 });
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
      expect(result.isError, text).toBeFalsy();
      const id = (JSON.parse(text) as { id: string }).id;
      const [newest] = await list();
      expect(newest).toMatchObject({ id, reason: 'before my edit', trigger: 'hook', agent: 'test-agent', tool: 'mcp' });
      const shown = await (await (await openStore({ home: dirs.home })).workspace(dirs.workspace)).show(id);
      expect(shown.files.map((f) => f.path)).toEqual(['notes.txt']);
    } finally {
      await client.close();
    }
  });

  it('without the app, the same empty-PATH snapshot fails with one line and records nothing (the control)', async () => {
    const r = await snapshot(['-m', 'alone']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(await list()).toEqual([]);
  });
});

// What runs is visible: the app lists every folder the service watches (one
// watched for an agent's hooks too, marked, and removing it stops watching),
// a CLI snapshot handed to the service adds no watch, and `daemon --status`
// (the service's status answer) says the same as the app's list.
async function statusWorkspaces(): Promise<string[]> {
  return (await askService(agentSocketPath(dirs.home), { control: 'status' }, 10_000))?.workspaces ?? [];
}

describe("the app's workspace list and `daemon --status`", () => {
  it('agree after a CLI snapshot (no watch added) and after an agent\'s hook (watched, shown, stoppable)', async () => {
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: true, pollMs: 100 });
    const router = createRouter(app);
    const list = async (): Promise<{ path: string; for_agents?: true }[]> => {
      const r = await router.invoke('workspaces:list', {});
      if (!r.ok) throw new Error(r.error.message);
      return r.value as { path: string; for_agents?: true }[];
    };

    const snap = await runCli(['snapshot', '-m', 'by hand', '-w', dirs.workspace], { env: { ...process.env, ...baseEnv(dirs.home) }, cwd: dirs.workspace });
    expect(snap.code, snap.stderr).toBe(0);
    expect(snap.stdout).toMatch(/^checkpoint /);
    expect(await list()).toEqual([]);
    expect(await statusWorkspaces()).toEqual([]);

    const hook = await runCli(['hook', 'claude-code'], {
      input: JSON.stringify({ session_id: 's', cwd: dirs.workspace, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(dirs.workspace, 'src', 'app.ts') }, tool_use_id: 't1' }),
      env: { ...process.env, ...baseEnv(dirs.home) },
      cwd: dirs.workspace,
    });
    expect(hook.code, hook.stderr).toBe(0);
    const shown = await waitFor('the agent\'s workspace in the list', async () => ((await list()).length > 0 ? list() : undefined));
    expect(shown).toMatchObject([{ path: dirs.workspace, for_agents: true }]);
    expect(await statusWorkspaces()).toEqual([dirs.workspace]);

    // "Stop watching": the list and the status both drop it.
    const removed = await router.invoke('workspaces:remove', { workspace: dirs.workspace });
    expect(removed).toMatchObject({ ok: true, value: { removed: true } });
    expect(await list()).toEqual([]);
    expect(await statusWorkspaces()).toEqual([]);
  });
});
