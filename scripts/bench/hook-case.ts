// The agent hook's cost, measured as Claude Code pays it: a whole process,
// from spawn with the PreToolUse payload on stdin to exit, on the bench's
// workspace with one file changed since the latest checkpoint — beside a bare
// `node -e ''` start in the same run (the floor any Node hook pays).
//
// Alone (no app running): the hook loads the engine and scans the workspace.
// Delegated: an app service runs in this process (as the desktop app or
// `chronoscope serve` would), and the hook hands its work to it over the
// store's socket.
// Auto: no app; the first hook call starts the background service
// (`chronoscope daemon`) itself, and the measured calls are handed to it —
// as it is for an agent in a terminal. First call: the call that finds no
// service (works alone, then starts one), beside the hook alone with
// auto-start off, interleaved.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { cliEntryPath } from '../../electron/agents/core/node-command.js';
import { agentSocketPath, someoneListens } from '../../electron/agents/core/delegate-socket.js';
import { askService } from '../../electron/agents/core/service-control.js';
import { openStore } from '../../electron/engine/index.js';
import { editFiles, pickFiles, type GeneratedWorkspace } from './workspace.js';

/** The entry `hooks install` writes into the agent's settings (the package's bin). */
const CLI = cliEntryPath();

/** Runs one process to its exit; resolves to wall milliseconds. Rejects on a non-zero exit. */
function timedProcess(args: string[], input: string, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  return new Promise((resolveMs, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`));
      else if (stderr.includes('chronoscope:')) reject(new Error(`hook: ${stderr.trim()}`)); // it failed open: not a measurement
      else resolveMs(ms);
    });
    child.stdin.end(input);
  });
}

export interface HookTimes {
  hook: number[];
  bare: number[];
}

export interface HookCaseOptions {
  ws: GeneratedWorkspace;
  home: string;
  runs: number;
  /** Hand the work to a running app (started here) instead of working alone. */
  delegated: boolean;
  /** Where the round of picked files starts, so cases edit different files. */
  round: number;
}

/**
 * Waits until the app's watcher is subscribed and its start-up catch-up (a full scan, due while it
 * is pending) has run: one change is made and its auto-checkpoint awaited, with a short quiet period.
 */
async function settle(app: AppService, ws: GeneratedWorkspace): Promise<void> {
  const end = Date.now() + 600_000;
  for (;;) {
    const [entry] = (await app.listWorkspaces()).filter((w) => w.path === ws.root);
    if (entry?.state === 'watching') break;
    if (Date.now() > end) throw new Error(`the watcher did not start (state ${entry?.state ?? 'none'})`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const flushed = new Promise<void>((resolveFlush) => {
    const off = app.on('checkpoint:added', (e) => {
      if (e.workspace !== ws.root) return;
      off();
      resolveFlush();
    });
  });
  editFiles(ws.root, [ws.textFiles[0] ?? 'README.md'], 'settle');
  await flushed;
}

export async function measureHookPreEdit(options: HookCaseOptions): Promise<HookTimes> {
  const { ws, home, runs } = options;
  // A long budget: past the default 5 s the hook would fail open, and its cost would go unmeasured.
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], CHRONOSCOPE_HOME: home, CHRONOSCOPE_HOOK_BUDGET_MS: '600000' };
  if (!options.delegated) env['CHRONOSCOPE_NO_DELEGATE'] = '1';
  let app: AppService | null = null;
  if (options.delegated) {
    // Watch on; a short quiet period until the start-up catch-up has run, then one long enough that
    // no auto-checkpoint interleaves with the measured hooks.
    app = await createAppService({ home, host: 'browser', version: 'bench', watch: true });
    await app.updateSettings({ watcher: { quiet_ms: 200, max_wait_ms: 2_000 } });
    await app.addWorkspace(ws.root);
    await settle(app, ws);
    await app.updateSettings({ watcher: { quiet_ms: 60_000, max_wait_ms: 120_000 } });
  }
  const times: HookTimes = { hook: [], bare: [] };
  try {
    for (let run = 0; run < runs; run++) {
      const [file] = pickFiles(ws, 1, options.round + run);
      if (file === undefined) throw new Error('no file to edit');
      editFiles(ws.root, [file], `hook ${run}`);
      // The watcher (when delegated) sees the change as it would have during the agent's last step.
      if (app !== null) await new Promise((r) => setTimeout(r, 150));
      await hookBesideBare(times, run, payloadFor(home, ws, file, `toolu_bench_${options.delegated ? 'd' : 'l'}${run}`), env, ws.root);
    }
  } finally {
    await app?.dispose();
  }
  return times;
}

/**
 * hook_prompt: a person's prompt (UserPromptSubmit) after they changed a file by hand, the hook
 * alone (no service), against the hook before an Edit of one changed file, alone, in the same run:
 * both take one checkpoint of a full scan (work.ts prompt), so a prompt should cost about a call.
 */
export async function measureHookPrompt(options: Omit<HookCaseOptions, 'delegated'>): Promise<HookTimes> {
  const { ws, home, runs } = options;
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], CHRONOSCOPE_HOME: home, CHRONOSCOPE_HOOK_BUDGET_MS: '600000', CHRONOSCOPE_NO_DELEGATE: '1' };
  const times: HookTimes = { hook: [], bare: [] };
  for (let run = 0; run < runs; run++) {
    const [byHand, byCall] = pickFiles(ws, 2, options.round + run);
    if (byHand === undefined || byCall === undefined) throw new Error('no file to edit');
    const prompt = async (): Promise<void> => {
      editFiles(ws.root, [byHand], `by hand ${run}`);
      const payload = JSON.stringify({ session_id: 'bench', transcript_path: join(home, 'none.jsonl'), cwd: ws.root, hook_event_name: 'UserPromptSubmit', prompt: `Tidy ${byHand} (${run})` });
      times.hook.push(await timedProcess([CLI, 'hook', 'claude-code'], payload, env, ws.root));
    };
    const call = async (): Promise<void> => {
      editFiles(ws.root, [byCall], `before a call ${run}`);
      times.bare.push(await timedProcess([CLI, 'hook', 'claude-code'], payloadFor(home, ws, byCall, `toolu_bench_p${run}`), env, ws.root));
    };
    if (run % 2 === 0) {
      await prompt();
      await call();
    } else {
      await call();
      await prompt();
    }
  }
  return times;
}

/** One hook process and one bare `node -e ''`, who goes first alternating by run, as the other cases do. */
async function hookBesideBare(times: HookTimes, run: number, payload: string, env: NodeJS.ProcessEnv, cwd: string, agent: BenchAgent = 'claude-code'): Promise<void> {
  const hook = () => timedProcess([CLI, 'hook', agent], payload, env, cwd);
  const bare = () => timedProcess(['-e', ''], '', env, cwd);
  if (run % 2 === 0) {
    times.hook.push(await hook());
    times.bare.push(await bare());
  } else {
    times.bare.push(await bare());
    times.hook.push(await hook());
  }
}

/** The agents whose warm hook the bench times beside Claude Code's (`hook_auto_<agent>`). */
export const OTHER_AGENTS = ['codex', 'gemini', 'copilot', 'opencode'] as const;
export type BenchAgent = 'claude-code' | (typeof OTHER_AGENTS)[number];

/** A call about to edit `file`, in each agent's own payload (as their tests capture them). */
function agentPayload(agent: BenchAgent, home: string, ws: GeneratedWorkspace, file: string, id: string): string {
  const path = join(ws.root, file);
  switch (agent) {
    case 'claude-code':
      return payloadFor(home, ws, file, id);
    case 'codex':
      return JSON.stringify({ session_id: 'bench', turn_id: 't1', cwd: ws.root, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch\n` }, tool_use_id: id });
    case 'gemini':
      return JSON.stringify({ session_id: 'bench', cwd: ws.root, hook_event_name: 'BeforeTool', timestamp: new Date().toISOString(), tool_name: 'replace', tool_input: { file_path: path, old_string: 'a', new_string: 'b' } });
    case 'copilot':
      return JSON.stringify({ session_id: 'bench', cwd: ws.root, hook_event_name: 'PreToolUse', timestamp: new Date().toISOString(), tool_name: 'Edit', tool_input: { path, old_str: 'a', new_str: 'b' } });
    case 'opencode':
      return JSON.stringify({ event: 'before', cwd: ws.root, session: 'bench', call_id: id, tool: 'edit', args: { filePath: path, oldString: 'a', newString: 'b' } });
  }
}

function payloadFor(home: string, ws: GeneratedWorkspace, file: string, id: string): string {
  return JSON.stringify({
    session_id: 'bench',
    transcript_path: join(home, 'none.jsonl'),
    cwd: ws.root,
    hook_event_name: 'PreToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: join(ws.root, file), old_string: 'a', new_string: 'b' },
    tool_use_id: id,
    permission_mode: 'default',
  });
}

function hookEnv(home: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  // CHRONOSCOPE_INDEX_SYNC_QUIET_MS passes through to the service a hook starts: the measurement in docs/daemon.md.
  const quiet = process.env['CHRONOSCOPE_INDEX_SYNC_QUIET_MS'];
  return { PATH: process.env['PATH'], HOME: process.env['HOME'], CHRONOSCOPE_HOME: home, CHRONOSCOPE_HOOK_BUDGET_MS: '600000', ...(quiet ? { CHRONOSCOPE_INDEX_SYNC_QUIET_MS: quiet } : {}), ...extra };
}

async function until(what: string, probe: () => Promise<boolean>, ms = 600_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops the store's daemon, if one runs, and waits until its process is gone (its last writes never overlap a measurement). */
export async function stopDaemon(home: string): Promise<void> {
  const socket = agentSocketPath(home);
  const pid = (await askService(socket, { control: 'status' }, 5000).catch(() => null))?.pid;
  await askService(socket, { control: 'stop' }, 5000).catch(() => null);
  await until('the daemon to stop', async () => !(await someoneListens(socket)) && (pid === undefined || !alive(pid)), 30_000);
}

export interface AutoCaseOptions {
  ws: GeneratedWorkspace;
  home: string;
  runs: number;
  round: number;
  /** Whose hooks are timed, in turn on the one warm service (default Claude Code's alone); the service is started by Claude Code's either way. */
  agents?: readonly BenchAgent[];
  /** Also time Claude Code's PostToolUse after the call's edit (the checkpoint of what the call changed): `after`. */
  after?: boolean;
}

export interface AutoTimes {
  /** Each agent's calls before an edit. */
  calls: Map<BenchAgent, HookTimes>;
  /** Claude Code's PostToolUse after it (`after`). */
  after?: HookTimes;
}

/** Claude Code's PostToolUse of an Edit of `file`: what the service checkpoints as the call's change. */
function postPayloadFor(home: string, ws: GeneratedWorkspace, file: string, id: string): string {
  const pre = JSON.parse(payloadFor(home, ws, file, id)) as Record<string, unknown>;
  return JSON.stringify({ ...pre, hook_event_name: 'PostToolUse', tool_response: { filePath: join(ws.root, file) } });
}

/**
 * After each timed call, this long before the next edit: the service's own work after a checkpoint
 * (the index sync 200 ms after it, a join of small packs 500 ms after) is over before the next
 * call starts, as when an agent's calls are seconds apart. Without it the bench's own rhythm put
 * the previous call's index sync inside the measured process start in two or three of five runs,
 * 15-22 ms each, and the medians of rows measured alike differed by that (docs/performance.md).
 */
const SERVICE_QUIET_MS = 700;

/** How many files measureHookAuto edits from `round` on (its rounds are picked from there). */
export function autoRounds(runs: number, agents: number): number {
  return runs * agents + 1;
}

/**
 * The hook with the background service warm: one call starts it, then it is waited for (serving,
 * and its start-up catch-up done: a change made then is auto-checkpointed), then the measured calls.
 * Several agents are timed in turn on that one service, each run in a rotated order, so every row
 * meets the same service, machine load and order (rows timed one after another did not).
 */
export async function measureHookAuto(options: AutoCaseOptions): Promise<AutoTimes> {
  const { ws, home, runs } = options;
  const agents = options.agents ?? ['claude-code'];
  const env = hookEnv(home, { CHRONOSCOPE_DAEMON: '1' });
  const socket = agentSocketPath(home);
  await stopDaemon(home);
  const [first] = pickFiles(ws, 1, options.round);
  if (first === undefined) throw new Error('no file to edit');
  editFiles(ws.root, [first], 'auto warm-up');
  await timedProcess([CLI, 'hook', 'claude-code'], payloadFor(home, ws, first, 'toolu_bench_auto_start'), env, ws.root);
  await until('the daemon to serve the workspace', async () => ((await askService(socket, { control: 'status' }, 2000).catch(() => null))?.workspaces ?? []).includes(ws.root));
  const store = await openStore({ home });
  const workspace = await store.workspace(ws.root);
  const before = (await workspace.list({ limit: 1 }))[0]?.id;
  editFiles(ws.root, [ws.textFiles[0] ?? 'README.md'], 'auto settle');
  // The service's own checkpoint of that edit. Its trigger is not asked for: the warm-up call never
  // ended, so the service now takes that change as the call's ('hook', agents/core/unended-call.ts).
  await until('the daemon\'s first checkpoint of its own', async () => {
    const [latest] = await workspace.list({ limit: 1 });
    return latest !== undefined && latest.id !== before;
  });
  const calls = new Map<BenchAgent, HookTimes>(agents.map((a) => [a, { hook: [], bare: [] }]));
  const after: HookTimes | undefined = options.after === true ? { hook: [], bare: [] } : undefined;
  const quiet = () => new Promise((r) => setTimeout(r, SERVICE_QUIET_MS));
  try {
    await quiet();
    let picked = options.round + 1;
    for (let run = 0; run < runs; run++) {
      for (let i = 0; i < agents.length; i++) {
        const agent = agents[(i + run) % agents.length] ?? 'claude-code';
        const [file] = pickFiles(ws, 1, picked++);
        if (file === undefined) throw new Error('no file to edit');
        const id = `toolu_bench_auto_${agent}_${run}`;
        editFiles(ws.root, [file], `hook auto ${run} ${agent}`);
        await new Promise((r) => setTimeout(r, 150)); // the daemon's watcher sees the change, as after an agent's step
        await hookBesideBare(calls.get(agent) ?? { hook: [], bare: [] }, run, agentPayload(agent, home, ws, file, id), env, ws.root, agent);
        await quiet();
        if (after === undefined || agent !== 'claude-code') continue;
        // The call's own edit, then its end: the checkpoint of what it changed.
        editFiles(ws.root, [file], `hook auto ${run}, the call's edit`);
        await new Promise((r) => setTimeout(r, 150));
        await hookBesideBare(after, run, postPayloadFor(home, ws, file, id), env, ws.root);
        await quiet();
      }
    }
  } finally {
    await stopDaemon(home);
  }
  return after === undefined ? { calls } : { calls, after };
}

/**
 * The first call after the service left: it finds nobody, works alone and starts the daemon (hook),
 * beside the same call with auto-start off (bare), interleaved. The daemon each first call starts is
 * stopped before the next measurement, so it never competes with one.
 */
export async function measureHookFirstCall(options: AutoCaseOptions): Promise<HookTimes> {
  const { ws, home, runs } = options;
  const times: HookTimes = { hook: [], bare: [] };
  await stopDaemon(home);
  for (let run = 0; run < runs; run++) {
    for (const auto of run % 2 === 0 ? [true, false] : [false, true]) {
      const [file] = pickFiles(ws, 1, options.round + 2 * run + (auto ? 0 : 1));
      if (file === undefined) throw new Error('no file to edit');
      editFiles(ws.root, [file], `hook first ${run}`);
      const env = hookEnv(home, { CHRONOSCOPE_DAEMON: auto ? '1' : '0' });
      const ms = await timedProcess([CLI, 'hook', 'claude-code'], payloadFor(home, ws, file, `toolu_bench_first${auto ? 'a' : 'l'}${run}`), env, ws.root);
      (auto ? times.hook : times.bare).push(ms);
      if (auto) {
        await until('the daemon the first call started', () => someoneListens(agentSocketPath(home)), 60_000);
        await stopDaemon(home);
      }
    }
  }
  return times;
}
