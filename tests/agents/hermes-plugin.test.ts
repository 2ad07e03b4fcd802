// The Hermes Agent plugin, run with python3 through a harness that calls it
// exactly as Hermes 0.19 does (register(ctx), keyword arguments, the order
// around a tool call), with real processes and a real store.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { openStore } from '../../electron/engine/index.js';
import { PROMPT_LABEL_MAX } from '../../electron/agents/core/session-prompt.js';
import { INTENT_MAX } from '../../shared/model.js';
import { CLI_PATH } from '../paths.js';
import { git } from '../effects/git-helpers.js';
import { baseEnv, listCheckpoints, listEffects, runCli } from './run-cli.js';
import { promptLedger } from './prompt-checks.js';

const HARNESS = fileURLToPath(new URL('./hermes_harness.py', import.meta.url));

let dir: string;
let home: string;
let ws: string;
let hermesHome: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-hermes-', { 'src/app.py': 'ANSWER = 41\n' }));
  hermesHome = join(dir, 'hermes');
  await mkdir(hermesHome, { recursive: true });
});
afterEach(() => removeTempProject(dir));

const CONFIG = `# Hermes settings (hand-written)
model:
  default: hermes-4   # the big one
plugins:
  # plugins I trust
  enabled:
    - disk-cleanup
  disabled: []
terminal:
  backend: local
`;

type Step = { hook: string; kwargs: Record<string, unknown>; objects?: string[] } | { command: string; args: string } | { write: string; text: string };
interface HarnessOut {
  registered: string[];
  commands: string[];
  steps: { value: unknown; seconds: number }[];
}

const install = (env = baseEnv(home)) => runCli(['hooks', 'install', 'hermes', '--hermes-home', hermesHome], { env });

function harness(steps: Step[], env: NodeJS.ProcessEnv = baseEnv(home)): Promise<HarnessOut> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [HARNESS, join(hermesHome, 'plugins', 'chronoscope')], { cwd: ws, env: { ...env, TERMINAL_CWD: ws }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`harness exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as HarnessOut);
    });
    child.stdin.end(JSON.stringify(steps));
  });
}

const call = (tool: string, args: Record<string, unknown>, id: string) => ({ tool_name: tool, args, task_id: 't1', session_id: 'sess-h', tool_call_id: id, turn_id: 'turn-1' });

/**
 * post_api_request as Hermes fires it after each model call, before the tools run
 * (agent/turn_response_intake.py `_fire_post_api_request_hook`): the raw assistant message as an
 * object and its sanitized copy in `response` (agent/api_request_hooks.py `_api_response_payload_for_hook`).
 */
function modelCall(content: string | null, ids: string[]): Step {
  const message = { role: 'assistant', content, tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: 'write_file', arguments: '{}' } })) };
  return {
    hook: 'post_api_request',
    objects: ['assistant_message'],
    kwargs: {
      task_id: 't1', turn_id: 'turn-1', api_request_id: 'req-1', session_id: 'sess-h', platform: 'cli', model: 'm', provider: 'openrouter', base_url: 'https://openrouter.ai/api/v1', api_mode: 'chat_completions',
      api_call_count: 1, api_duration: 0.5, started_at: 1, ended_at: 1.5, first_chunk_at: null, finish_reason: ids.length > 0 ? 'tool_calls' : 'stop', message_count: 3, response_model: 'm',
      response: { model: 'm', upstream_provider: null, finish_reason: 'tool_calls', assistant_message: message, usage: null },
      usage: { input_tokens: 10, output_tokens: 5 }, assistant_message: message, assistant_content_chars: (content ?? '').length, assistant_tool_call_count: ids.length, moa_references: null,
    },
  };
}
const newTurn = (user_message: string): Step => ({ hook: 'pre_llm_call', kwargs: { session_id: 'sess-h', user_message, conversation_history: [], is_first_turn: false, model: 'm', platform: 'cli' } });
const GHP = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
/** A write_file call as Hermes runs it, in one process (the plugin keeps what it heard in memory): the hooks around the tool writing the file. */
function writeCall(id: string, content: string): Step[] {
  const kwargs = call('write_file', { path: 'src/app.py', content }, id);
  return [{ hook: 'pre_tool_call', kwargs }, { write: 'src/app.py', text: content }, { hook: 'post_tool_call', kwargs: { ...kwargs, result: 'ok', duration_ms: 3, status: 'ok' } }];
}

const checkpoints = () => listCheckpoints(home, ws);
const effects = () => listEffects(home, ws);

describe('chronoscope hooks install hermes', () => {
  it('writes the plugin and enables it, keeping every other key and comment; uninstall takes out exactly that', async () => {
    await writeFile(join(hermesHome, 'config.yaml'), CONFIG);
    const first = await install();
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`node: ${process.execPath}`);
    const config = await readFile(join(hermesHome, 'config.yaml'), 'utf8');
    expect(config).toBe(CONFIG.replace('    - disk-cleanup\n', '    - disk-cleanup\n    - chronoscope\n'));
    const module = await readFile(join(hermesHome, 'plugins', 'chronoscope', '__init__.py'), 'utf8');
    expect(module).toContain(`NODE = ${JSON.stringify(process.execPath)}`);
    expect(module).toContain(`CLI = ${JSON.stringify(CLI_PATH)}`);
    expect(module).not.toMatch(/^(?:import|from) (?!(?:json|os|re|shlex|subprocess|threading|time)$)/m); // standard library only
    expect(await readFile(join(hermesHome, 'plugins', 'chronoscope', 'plugin.yaml'), 'utf8')).toContain('name: chronoscope');

    // Idempotent: nothing changes the second time.
    const again = await install();
    expect(again.stdout).toContain('already installed');
    expect(await readFile(join(hermesHome, 'config.yaml'), 'utf8')).toBe(config);

    const status = await runCli(['hooks', 'status', 'hermes', '--json', '--hermes-home', hermesHome], { env: baseEnv(home) });
    expect(JSON.parse(status.stdout)).toMatchObject({ installed: true, enabled: true, node: process.execPath, cli: CLI_PATH, node_exists: true, cli_exists: true, current: true });
    // A plugin an earlier version wrote (here: without the prompt it now sends) is named, and install brings it up to date.
    const modulePath = join(hermesHome, 'plugins', 'chronoscope', '__init__.py');
    await writeFile(modulePath, module.replace('request["prompt"] = prompt[:4000]', 'pass'));
    const stale = await runCli(['hooks', 'status', 'hermes', '--hermes-home', hermesHome], { env: baseEnv(home) });
    expect(stale.stdout).toContain('written by another version of Chronoscope');
    expect(stale.stdout).toContain("run 'chronoscope hooks install hermes' again");
    expect((await install()).code).toBe(0);
    expect(await readFile(modulePath, 'utf8')).toBe(module);

    const removed = await runCli(['hooks', 'uninstall', 'hermes', '--hermes-home', hermesHome], { env: baseEnv(home) });
    expect(removed.code).toBe(0);
    expect(await readFile(join(hermesHome, 'config.yaml'), 'utf8')).toBe(CONFIG);
    expect(existsSync(join(hermesHome, 'plugins', 'chronoscope'))).toBe(false);
  });

  it('creates config.yaml when there is none, and uninstall removes it again', async () => {
    expect((await install()).code).toBe(0);
    expect(await readFile(join(hermesHome, 'config.yaml'), 'utf8')).toBe('plugins:\n  enabled:\n    - chronoscope\n');
    await runCli(['hooks', 'uninstall', 'hermes', '--hermes-home', hermesHome], { env: baseEnv(home) });
    expect(existsSync(join(hermesHome, 'config.yaml'))).toBe(false);
  });

  it('leaves a malformed config.yaml untouched, with one clear line', async () => {
    const broken = 'plugins:\n  enabled: [a\n';
    await writeFile(join(hermesHome, 'config.yaml'), broken);
    const r = await install();
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('not valid YAML');
    expect(await readFile(join(hermesHome, 'config.yaml'), 'utf8')).toBe(broken);
    expect(existsSync(join(hermesHome, 'plugins', 'chronoscope'))).toBe(false);
  });
});

describe('the Hermes plugin, called as Hermes calls it', () => {
  beforeEach(async () => {
    expect((await install()).code).toBe(0);
  });

  it('registers its hooks and the /chronoscope command', async () => {
    const out = await harness([]);
    expect(out.registered).toEqual(['post_api_request', 'post_llm_call', 'post_tool_call', 'pre_llm_call', 'pre_tool_call', 'transform_tool_result']);
    expect(out.commands).toEqual(['chronoscope']);
  });

  it('takes a checkpoint holding the pre-edit content before write_file', async () => {
    const out = await harness([{ hook: 'pre_tool_call', kwargs: call('write_file', { path: 'src/app.py', content: 'ANSWER = 42\n' }, 'call_w1') }]);
    expect(out.steps[0]!.value).toBeNull();
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 42\n'); // the tool runs
    const [cp] = await checkpoints();
    // Hermes met this workspace first: the checkpoint before its first call is the workspace's baseline.
    expect(cp).toMatchObject({ trigger: 'baseline', agent: 'hermes', tool: 'write_file', session: 'sess-h', tool_use_id: 'call_w1', reason: 'write_file src/app.py' });
    const store = await openStore({ home });
    const diff = await (await store.workspace(ws)).fileDiff(cp!.id, 'workspace', 'src/app.py');
    expect(diff.old.text).toBe('ANSWER = 41\n');
  });

  it("labels the checkpoints of a turn with that turn's prompt (its first line), text or content parts", async () => {
    const turn = (user_message: unknown) => ({ hook: 'pre_llm_call', kwargs: { session_id: 'sess-h', user_message, conversation_history: [], is_first_turn: false, model: 'm', platform: 'cli' } });
    const write = (id: string, content: string) => ({ hook: 'pre_tool_call', kwargs: call('write_file', { path: 'src/app.py', content }, id) });
    await harness([turn('\n  Make the answer 42\nand explain why'), write('call_p1', 'ANSWER = 42\n')]);
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 42\n');
    await harness([turn([{ type: 'image_url', image_url: { url: 'data:,' } }, { type: 'text', text: 'Now make it 43' }]), write('call_p2', 'ANSWER = 43\n')]);
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 43\n');
    await harness([{ hook: 'post_tool_call', kwargs: { ...call('write_file', { path: 'src/app.py', content: 'ANSWER = 43\n' }, 'call_p2'), result: 'ok', status: 'ok', duration_ms: 3 } }]);
    // The first prompt took the workspace's baseline, so call_p1 found nothing changed before it; its change is
    // checkpointed at the next prompt, as its own, under its prompt. call_p2's, taken as it ended, under the second.
    const listed = await checkpoints();
    expect(listed.find((c) => c.tool === 'write_file' && c.change_by === 'call' && c.tool_use_id !== 'call_p2')?.prompt).toBe('Make the answer 42');
    expect(listed.find((c) => c.tool_use_id === 'call_p2')?.prompt).toBe('Now make it 43');
  });

  it('labels with the first line of a prompt over 10,000 characters, and never refuses the call for it', async () => {
    // A payload straight to the hook process (the plugin itself sends at most 4,000 characters).
    const hermesHook = (request: Record<string, unknown>) => runCli(['hook', 'hermes'], { input: JSON.stringify(request), env: baseEnv(home), cwd: ws });
    const ship = call('terminal', { command: 'docker push ghcr.io/o/app:1' }, 'call_l0');
    await harness([
      { hook: 'pre_tool_call', kwargs: ship },
      { hook: 'post_tool_call', kwargs: { ...ship, result: 'pushed', status: 'ok', duration_ms: 9 } },
    ]);
    const write = (id: string) => hermesHook({ event: 'pre_tool_call', cwd: ws, tool_name: 'write_file', args: { path: 'src/app.py', content: '' }, session_id: 'sess-h', tool_call_id: id });

    const long = `Refactor the parser\n${'and keep every test green. '.repeat(1000)}`;
    expect(long.length).toBeGreaterThan(10_000);
    const llm = await hermesHook({ event: 'pre_llm_call', cwd: ws, session_id: 'sess-h', present: [], prompt: long });
    expect(llm).toMatchObject({ code: 0, stderr: '' });
    // The rest of the call is answered as always: here, effect memory.
    expect((JSON.parse(llm.stdout) as { context?: string }).context).toContain('ghcr.io/o/app:1');
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 42\n');
    expect(await write('call_l1')).toMatchObject({ code: 0, stderr: '' });

    // A first line that long itself: shortened to a label.
    expect(await hermesHook({ event: 'pre_llm_call', cwd: ws, session_id: 'sess-h', present: ['call_l0'], prompt: 'y'.repeat(20_000) })).toMatchObject({ code: 0, stderr: '' });
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 43\n');
    expect(await write('call_l2')).toMatchObject({ code: 0, stderr: '' });

    const byCall = new Map((await checkpoints()).map((c) => [c.tool_use_id, c]));
    expect(byCall.get('call_l1')?.prompt).toBe('Refactor the parser');
    expect(byCall.get('call_l2')?.prompt).toBe(`${'y'.repeat(PROMPT_LABEL_MAX - 1)}…`);
  });

  it('asks for approval before git push, naming the compensation, with a rule_key per kind and target', async () => {
    const bare = join(dir, 'remote.git');
    git(dir, 'init', '-q', '--bare', bare);
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'remote', 'add', 'origin', bare);
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'one');
    git(ws, 'push', '-q', '-u', 'origin', 'main');
    const old = git(ws, 'rev-parse', 'HEAD');
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 42\n');
    git(ws, 'commit', '-q', '-am', 'two');
    const next = git(ws, 'rev-parse', 'HEAD');
    // Reflog times have whole seconds: a setup push in the same second the plugin first sees the
    // workspace would count as made after it. Start the plugin's part in the next second.
    await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));

    const push = call('terminal', { command: 'git push origin main', background: false, timeout: 60 }, 'call_p1');
    const out = await harness([{ hook: 'pre_tool_call', kwargs: push }]);
    const directive = out.steps[0]!.value as { action: string; message: string; rule_key: string };
    expect(directive.action).toBe('approve');
    expect(directive.rule_key).toBe('chronoscope:git_push:origin/main');
    expect(directive.message).toContain(`git push --force-with-lease=refs/heads/main:${next} origin ${old}:refs/heads/main`);
    expect((await effects()).map((e) => [e.kind, e.status, e.agent])).toEqual([['git_push', 'intended', 'hermes']]);

    git(ws, 'push', '-q', 'origin', 'main'); // approved and run
    await harness([{ hook: 'post_tool_call', kwargs: { ...push, result: '{"output": "", "exit_code": 0}', duration_ms: 80, status: 'ok', error_type: null, error_message: null } }]);
    const recorded = await effects();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ status: 'happened', old_commit: old, new_commit: next });
  });

  it('a blocked call is recorded as denied', async () => {
    const pub = call('terminal', { command: 'npm publish' }, 'call_b1');
    await harness([
      { hook: 'pre_tool_call', kwargs: pub },
      { hook: 'post_tool_call', kwargs: { ...pub, result: '{"error": "blocked"}', status: 'blocked', duration_ms: 0 } },
    ]);
    expect((await effects()).map((e) => e.status)).toEqual(['denied']);
  });

  it('adds a recovery hint to the result of a failed call', async () => {
    const failing = call('terminal', { command: 'ls no-such-folder' }, 'call_f1');
    const result = '{"output": "ls: cannot access", "exit_code": 2}';
    const out = await harness([
      { hook: 'pre_tool_call', kwargs: failing },
      { hook: 'post_tool_call', kwargs: { ...failing, result, duration_ms: 5, status: 'error', error_type: 'exit_code', error_message: 'exit 2' } },
      { hook: 'transform_tool_result', kwargs: { ...failing, result, duration_ms: 5 } },
    ]);
    const [cp] = await checkpoints();
    const text = out.steps[2]!.value as string;
    expect(text.startsWith(result)).toBe(true);
    expect(text).toContain(`checkpoint ${cp!.id.slice(0, 12)}`);
    expect(text).toContain(`${process.execPath} ${CLI_PATH} restore ${cp!.id.slice(0, 12)} -w ${ws} --yes`);
  });

  it("records the turn's prompt and a failed call's exit code and output in the prompt ledger; the call's checkpoint carries the prompt's id", async () => {
    const failing = call('terminal', { command: 'make build' }, 'call_b1');
    const write = call('write_file', { path: 'src/app.py', content: 'ANSWER = 42\n' }, 'call_b2');
    await harness([
      { hook: 'pre_llm_call', kwargs: { session_id: 'sess-h', user_message: 'Build it, then fix the answer', conversation_history: [], is_first_turn: true, model: 'm', platform: 'cli' } },
      { hook: 'pre_tool_call', kwargs: failing },
      { hook: 'post_tool_call', kwargs: { ...failing, result: '{"output": "make: *** [build] Error 2", "exit_code": 2}', duration_ms: 5, status: 'error', error_type: 'exit_code', error_message: 'exit 2' } },
      { hook: 'pre_tool_call', kwargs: write },
    ]);
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 42\n');
    await harness([{ hook: 'post_tool_call', kwargs: { ...write, result: 'ok', duration_ms: 3, status: 'ok' } }]);
    const { prompts, calls } = await promptLedger(home, ws);
    expect(prompts).toEqual([expect.objectContaining({ agent: 'hermes', session: 'sess-h', text: 'Build it, then fix the answer' })]);
    const id = prompts[0]!.id;
    expect(calls).toEqual([
      expect.objectContaining({ tool: 'terminal', reason: 'terminal: make build', status: 'failed', exit_code: 2, output_tail: 'make: *** [build] Error 2\nexit 2', prompt_id: id }),
      expect.objectContaining({ tool: 'write_file', status: 'ok', paths: ['src/app.py'], prompt_id: id }),
    ]);
    const [latest] = await checkpoints();
    expect(latest).toMatchObject({ id: calls[1]!.checkpoint, tool: 'write_file', change_by: 'call', prompt_id: id });
  });

  it("at the turn's end (post_llm_call), the last terminal call's change is its own checkpoint, under the turn's prompt", async () => {
    const note = call('terminal', { command: 'echo made by the shell > shell-note.txt' }, 'call_t1');
    await harness([
      { hook: 'pre_llm_call', kwargs: { session_id: 'sess-h', user_message: 'Leave a note from the shell', conversation_history: [], is_first_turn: true, model: 'm', platform: 'cli' } },
      { hook: 'pre_tool_call', kwargs: note },
    ]);
    await writeFile(join(ws, 'shell-note.txt'), 'made by the shell\n'); // the command runs
    await harness([{ hook: 'post_tool_call', kwargs: { ...note, result: '{"output": "", "exit_code": 0}', duration_ms: 5, status: 'ok' } }]);
    // Alone, a shell call's end takes no checkpoint (no path-limited scan can find its change)...
    const before = (await checkpoints()).length;
    expect((await checkpoints())[0]?.paths ?? []).not.toContain('shell-note.txt');
    await harness([{ hook: 'post_llm_call', kwargs: { session_id: 'sess-h', task_id: 't', turn_id: 'turn-1', platform: 'cli', user_message: 'Leave a note from the shell', assistant_response: 'Done.', conversation_history: [], model: 'm' } }]);
    // ...the turn's end does, as that call's, under the prompt.
    const { prompts } = await promptLedger(home, ws);
    const listed = await checkpoints();
    expect(listed).toHaveLength(before + 1);
    expect(listed[0]).toMatchObject({ trigger: 'hook', change_by: 'call', tool: 'terminal', paths: ['shell-note.txt'], prompt_id: prompts[0]!.id });
    // A turn that changed nothing takes nothing.
    await harness([{ hook: 'post_llm_call', kwargs: { session_id: 'sess-h', turn_id: 'turn-2', user_message: 'thanks', assistant_response: 'ok', conversation_history: [], model: 'm' } }]);
    expect(await checkpoints()).toHaveLength(before + 1);
  });

  it("records the assistant's words before a call as its intent, redacted and bounded; show --json gives it for the checkpoint holding its change", async () => {
    const said = 'x'.repeat(3000) + `\nThe answer is wrong. I'll set it to 42, then push with ${GHP} after that.`;
    const out = await harness([newTurn('Fix the answer'), modelCall(said, ['call_i1']), ...writeCall('call_i1', 'ANSWER = 42\n')]);
    expect(out.steps[1]!.value).toBeNull();
    const { calls } = await promptLedger(home, ws);
    expect(calls).toHaveLength(1);
    const intent = calls[0]!.intent!;
    expect(intent.length).toBeLessThanOrEqual(INTENT_MAX);
    expect(intent).toMatch(/^x+\nThe answer is wrong\. I'll set it to 42, then push with ghp_\*+ after that\.$/);
    expect(intent).not.toContain(GHP.slice(4));
    const shown = await runCli(['show', calls[0]!.checkpoint!, '--json', '-w', ws], { env: baseEnv(home) });
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { intent: string | null }).intent).toBe(intent);
  });

  it("gives a call no intent when no words came before it in its turn; the turn's earlier words carry to a later call", async () => {
    await harness([
      newTurn('Count up'),
      modelCall('<think>The user wants a bigger number.</think>First I will make it 42.', ['call_n1']), // inline reasoning is not what was said
      ...writeCall('call_n1', 'ANSWER = 42\n'),
      modelCall(null, ['call_n2']), // a later model call of the same turn, no words of its own
      ...writeCall('call_n2', 'ANSWER = 43\n'),
      newTurn('Once more'),
      modelCall('<think>Only thoughts, no words.</think>', ['call_n3']), // a new turn: the earlier words are not its calls'
      ...writeCall('call_n3', 'ANSWER = 44\n'),
    ]);
    const { calls } = await promptLedger(home, ws);
    expect(calls.map((c) => [c.tool_use_id, c.intent ?? null])).toEqual([
      ['call_n1', 'First I will make it 42.'],
      ['call_n2', 'First I will make it 42.'],
      ['call_n3', null],
    ]);
  });

  it('an older Hermes (no assistant message in post_api_request, or no such hook) still gets its calls recorded, without intent', async () => {
    // post_api_request as Hermes fired it before it passed the assistant message: counts only.
    const older = { hook: 'post_api_request', kwargs: { task_id: 't1', session_id: 'sess-h', platform: 'cli', model: 'm', provider: 'p', base_url: '', api_mode: 'chat_completions', api_call_count: 1, api_duration: 0.1, finish_reason: 'tool_calls', message_count: 2, response_model: 'm', usage: {}, assistant_content_chars: 12, assistant_tool_call_count: 1 } };
    const out = await harness([newTurn('Fix it'), older, ...writeCall('call_o1', 'ANSWER = 42\n'), modelCall('Now with words.', ['call_o2']), ...writeCall('call_o2', 'ANSWER = 43\n')]);
    expect(out.steps[1]!.value).toBeNull(); // nothing raised
    // A Hermes that refuses a hook name it does not know: every other hook still registered and working.
    const refusing = await harness([modelCall('Unheard words.', ['call_o3']), ...writeCall('call_o3', 'ANSWER = 44\n')], { ...baseEnv(home), HARNESS_KNOWN_HOOKS: 'pre_tool_call,post_tool_call,transform_tool_result,pre_llm_call' });
    expect(refusing.registered).toEqual(['post_tool_call', 'pre_llm_call', 'pre_tool_call', 'transform_tool_result']);
    const { calls } = await promptLedger(home, ws);
    expect(calls.map((c) => [c.tool_use_id, c.intent ?? null])).toEqual([
      ['call_o1', null],
      ['call_o2', 'Now with words.'],
      ['call_o3', null],
    ]);
  });

  it('reminds the model of an effect whose tool call left the conversation, once', async () => {
    const ship = call('terminal', { command: 'docker push ghcr.io/o/app:1' }, 'call_d1');
    const history = [
      { role: 'user', content: 'ship it' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_d1', type: 'function', function: { name: 'terminal', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_d1', content: 'pushed' },
    ];
    const llm = (conversation_history: unknown[]) => ({ hook: 'pre_llm_call', kwargs: { session_id: 'sess-h', user_message: 'next', conversation_history, is_first_turn: false, model: 'm', platform: 'cli' } });
    const out = await harness([
      { hook: 'pre_tool_call', kwargs: ship },
      { hook: 'post_tool_call', kwargs: { ...ship, result: 'pushed', status: 'ok', duration_ms: 9 } },
      llm(history), // still in the conversation: nothing to say
      llm([{ role: 'user', content: '[summary of earlier work]' }]), // compacted / rolled back
      llm([{ role: 'user', content: '[summary of earlier work]' }]),
    ]);
    expect(out.steps[2]!.value).toBeNull();
    const reminder = out.steps[3]!.value as { context: string };
    expect(reminder.context).toContain('already happened outside the workspace and were not undone');
    expect(reminder.context).toContain('ghcr.io/o/app:1');
    expect(out.steps[4]!.value).toBeNull();
  });

  it('/chronoscope lists, diffs and restores (a preview unless --yes)', async () => {
    await harness([{ hook: 'pre_tool_call', kwargs: call('patch', { mode: 'replace', path: 'src/app.py', old_string: '41', new_string: '42' }, 'call_c1') }]);
    await writeFile(join(ws, 'src', 'app.py'), 'ANSWER = 42\n');
    const out = await harness([
      { command: 'chronoscope', args: 'list' },
      { command: 'chronoscope', args: 'diff 1 workspace --file src/app.py' },
      { command: 'chronoscope', args: 'restore 1' },
      { command: 'chronoscope', args: 'rm -rf /' },
    ]);
    expect(out.steps[0]!.value).toContain('patch src/app.py');
    expect(out.steps[1]!.value).toContain('+ANSWER = 42');
    expect(out.steps[2]!.value).toMatch(/preview|--yes/);
    expect(await readFile(join(ws, 'src', 'app.py'), 'utf8')).toBe('ANSWER = 42\n');
    expect(out.steps[3]!.value).toContain('usage: /chronoscope');
    const restored = await harness([{ command: 'chronoscope', args: 'restore 1 --yes' }]);
    expect(restored.steps[0]!.value).not.toContain('chronoscope: ');
    expect(await readFile(join(ws, 'src', 'app.py'), 'utf8')).toBe('ANSWER = 41\n');
  });

  it('fails open with an unwritable store: no directive for a plain write, the push still asked about', async () => {
    const notADir = join(dir, 'store-is-a-file');
    await writeFile(notADir, 'x');
    const out = await harness(
      [
        { hook: 'pre_tool_call', kwargs: call('write_file', { path: 'src/app.py', content: '' }, 'call_u1') },
        { hook: 'pre_tool_call', kwargs: call('terminal', { command: 'git push origin main' }, 'call_u2') },
      ],
      baseEnv(notADir),
    );
    expect(out.steps[0]!.value).toBeNull();
    expect(out.steps[1]!.value).toMatchObject({ action: 'approve', rule_key: 'chronoscope:git_push:origin/main' });
  });

  it('never holds the agent past its hard timeout, even when the CLI hangs', async () => {
    const store = await openStore({ home });
    const workspace = await store.workspace(ws);
    const target = join(home, 'workspaces', workspace.meta.id, 'writer.lock');
    await writeFile(target, '', { flag: 'a' });
    const release = await lockfile.lock(target, { realpath: false, stale: 60_000, update: 5_000 });
    try {
      // The CLI would wait a minute for the lock; the plugin gives it 2 s.
      const env = baseEnv(home, { CHRONOSCOPE_HOOK_BUDGET_MS: '60000', CHRONOSCOPE_HERMES_TIMEOUT_S: '2' });
      const out = await harness([{ hook: 'pre_tool_call', kwargs: call('write_file', { path: 'src/app.py', content: '' }, 'call_t1') }], env);
      expect(out.steps[0]!.value).toBeNull();
      expect(out.steps[0]!.seconds).toBeLessThan(30);
    } finally {
      await release();
    }
  });
});
