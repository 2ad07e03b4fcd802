// The real Claude Code CLI (from the npm registry) against a scripted local
// fake of the Messages API, with our hooks installed by `chronoscope hooks
// install claude-code`. Its native binary is ~400 MB, so it is not a project
// dependency: `npm run install:claude-code` installs the tested version into
// .cache/claude-code (CI does), or point CLAUDE_CODE_BIN at a binary. Skipped,
// with the reason printed, where it is not installed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import { REPO_ROOT } from '../paths.js';
import { startFakeApi, type FakeApi } from './fake-anthropic.js';
import { baseEnv, runCli } from './run-cli.js';
import { expectPromptRecorded, expectRestoreToBefore, expectTurnEndTook, filesOf } from './prompt-checks.js';
import { stateBefore } from './call-checkpoints.js';
import { conversationAround } from '../../electron/prompts/conversation.js';

function findClaude(): { bin: string | null; why: string } {
  const fromEnv = process.env['CLAUDE_CODE_BIN'];
  if (fromEnv) return existsSync(fromEnv) ? { bin: fromEnv, why: '' } : { bin: null, why: `CLAUDE_CODE_BIN=${fromEnv} does not exist` };
  // `npm run install:claude-code` puts it in .cache/claude-code; a project-level install works too.
  const pkg = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
  try {
    const require = createRequire(join(REPO_ROOT, '.cache', 'claude-code', 'package.json'));
    const bin = join(dirname(require.resolve(`${pkg}/package.json`)), process.platform === 'win32' ? 'claude.exe' : 'claude');
    if (!existsSync(bin)) return { bin: null, why: `${pkg} has no binary` };
    execFileSync(bin, ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return { bin, why: '' };
  } catch (err) {
    return { bin: null, why: `${pkg} is not installed or does not run here (npm run install:claude-code, or set CLAUDE_CODE_BIN): ${(err as Error).message.split('\n')[0]}` };
  }
}

const claude = findClaude();
if (claude.bin === null) process.stdout.write(`skipping the real Claude Code test: ${claude.why}\n`);

let dir: string;
let home: string;
let ws: string;
let userHome: string;
let api: FakeApi | null = null;
let noNodeBin: string;

/** A folder with every program of /usr/bin and /bin except node, to use as PATH. */
async function binWithoutNode(target: string): Promise<string> {
  await mkdir(target, { recursive: true });
  for (const from of ['/usr/bin', '/bin']) {
    for (const name of await readdir(from).catch(() => [] as string[])) {
      if (name === 'node' || name === 'nodejs') continue;
      await symlink(join(from, name), join(target, name)).catch(() => undefined);
    }
  }
  return target;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-claude-'));
  home = join(dir, 'store');
  ws = join(dir, 'project');
  userHome = join(dir, 'home');
  await mkdir(join(ws, 'src'), { recursive: true });
  await mkdir(userHome, { recursive: true });
  await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 41;\n');
  noNodeBin = await binWithoutNode(join(dir, 'bin'));
});
afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

function claudeEnv(url: string): NodeJS.ProcessEnv {
  return {
    HOME: userHome,
    // No node on this PATH (Claude Code's native binary needs none): the installed command must not depend on it.
    PATH: noNodeBin,
    CHRONOSCOPE_HOME: home,
    CHRONOSCOPE_HOOK_BUDGET_MS: '25000', // behaviour, not speed, on a loaded machine (Claude Code's own limit is 30 s)
    CHRONOSCOPE_DAEMON: '0', // no background service outliving a test; the daemon's own case turns it on
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    CLAUDE_CONFIG_DIR: join(userHome, '.claude'),
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

function runClaude(bin: string, prompt: string, env: NodeJS.ProcessEnv, extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-p', prompt, '--output-format', 'json', '--permission-mode', 'acceptEdits', '--max-turns', '6', ...extra], { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.skipIf(claude.bin === null)('the real Claude Code CLI with our hooks', () => {
  it('takes a checkpoint holding the pre-edit text before its Edit runs', async () => {
    const env = baseEnv(home, { HOME: userHome });
    const installed = await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    expect(installed.code).toBe(0);
    const file = join(ws, 'src', 'app.ts');
    api = await startFakeApi(
      [
        { tool: 'Read', input: { file_path: file } },
        { tool: 'Edit', input: { file_path: file, old_string: 'answer = 41', new_string: 'answer = 42' } },
        { text: 'Changed the answer.' },
      ],
      'Edit',
    );
    const r = await runClaude(claude.bin!, 'make the answer 42', claudeEnv(api.url));
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('export const answer = 42;\n');
    const store = await openStore({ home });
    const workspace = await store.workspace(ws);
    const checkpoints: Checkpoint[] = await workspace.list();
    // In a workspace seen for the first time, the checkpoint before the Edit is also its baseline.
    // The prompt took the baseline, so the Edit found nothing changed before it; the checkpoint taken as it
    // ended holds its change, and the one before that the text before it.
    const found = stateBefore(checkpoints, 'claude-code', 'Edit');
    expect(found?.own).toMatchObject({ agent: 'claude-code', reason: 'Edit src/app.ts' });
    expect(found!.own.tool_use_id).toMatch(/^toolu_fake_/);
    const diff = await workspace.fileDiff(found!.id, 'workspace', 'src/app.ts');
    expect(diff.old.text).toBe('export const answer = 41;\n');
    await api.close();
    api = null;
  }, 180_000);

  it('with no app open, the first hook call starts the background service and later calls are handed to it', async () => {
    const file = join(ws, 'src', 'app.ts');
    await writeFile(file, 'export const answer = 1;\n');
    api = await startFakeApi(
      [
        { tool: 'Edit', input: { file_path: file, old_string: 'answer = 1', new_string: 'answer = 2' } },
        // Time for the daemon the first call started to listen, as an agent's next step usually gives it.
        { tool: 'Bash', input: { command: 'sleep 4', description: 'wait' } },
        { tool: 'Edit', input: { file_path: file, old_string: 'answer = 2', new_string: 'answer = 3' } },
        { text: 'Done.' },
      ],
      'Edit',
    );
    const env = { ...claudeEnv(api.url), CHRONOSCOPE_DAEMON: '1' };
    try {
      const r = await runClaude(claude.bin!, 'count the answer up twice', env, ['--allowedTools', 'Bash']);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(await readFile(file, 'utf8')).toBe('export const answer = 3;\n');
      const status = await runCli(['daemon', '--status', '--json'], { env: baseEnv(home) });
      const service = (JSON.parse(status.stdout) as { service: { kind: string; workspaces: string[]; last_call: string | null } | null }).service;
      expect(service).toMatchObject({ kind: 'daemon', workspaces: [ws] });
      expect(service?.last_call, 'no hook call was handed to the daemon').not.toBeNull();
      // The text between the two Edits is in a checkpoint (the Bash call's: the second Edit then found nothing new).
      const workspace = await (await openStore({ home })).workspace(ws);
      const ours = (await workspace.list()).filter((c) => c.agent === 'claude-code');
      const texts = await Promise.all(ours.map(async (c) => (await workspace.fileDiff(c.id, 'workspace', 'src/app.ts')).old.text));
      expect(texts).toContain('export const answer = 1;\n');
      expect(texts).toContain('export const answer = 2;\n');
      // The daemon served the second Edit's PostToolUse: a checkpoint as it ended, titled by it, holding exactly its change.
      const listed = await runCli(['list', '--all', '--json', '-w', ws], { env: baseEnv(home) });
      const rows = JSON.parse(listed.stdout) as (Checkpoint & { title: string })[];
      const ended = rows.filter((c) => c.change_by === 'call' && c.tool === 'Edit');
      expect(ended.length, JSON.stringify(rows.map((c) => [c.title, c.change_by ?? null]))).toBeGreaterThanOrEqual(1);
      expect(ended[0]).toMatchObject({ agent: 'claude-code', title: "Edit src/app.ts — by Claude Code's Edit" });
      expect((await workspace.show(ended[0]!.id)).files.map((f) => f.path)).toEqual(['src/app.ts']);
      const previous = rows[rows.indexOf(ended[0]!) + 1]!;
      const change = await workspace.fileDiff(previous.id, ended[0]!.id, 'src/app.ts');
      expect([change.old.text, change.new.text]).toEqual(['export const answer = 2;\n', 'export const answer = 3;\n']);
    } finally {
      await runCli(['daemon', '--stop'], { env: baseEnv(home) });
      await api.close();
      api = null;
    }
  }, 180_000);

  it('records the prompt, its checkpoints carry its id, the intent is read from the transcript, and a restore to before it puts every file back', async () => {
    const file = join(ws, 'src', 'app.ts');
    await writeFile(file, 'export const answer = 10;\n');
    await runCli(['snapshot', '-w', ws, '--reason', 'before the prompt'], { env: baseEnv(home) });
    const before = await filesOf(ws);
    api = await startFakeApi(
      [
        { say: 'I will raise the answer to 11 in src/app.ts.', tool: 'Edit', input: { file_path: file, old_string: 'answer = 10', new_string: 'answer = 11' } },
        { say: 'Now a note from the shell.', tool: 'Bash', input: { command: 'echo made by the shell > shell-note.txt', description: 'note' } },
        { text: 'Done.' },
      ],
      'Edit',
    );
    try {
      const r = await runClaude(claude.bin!, 'raise the answer and leave a note', claudeEnv(api.url), ['--allowedTools', 'Bash']);
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(await readFile(join(ws, 'shell-note.txt'), 'utf8')).toBe('made by the shell\n');
      const { prompt, calls } = await expectPromptRecorded(home, ws, { agent: 'claude-code', text: 'raise the answer and leave a note', intent: 'I will raise the answer to 11 in src/app.ts.' });
      // No service runs: the turn's last call, the shell note, took no checkpoint as it ended; Claude Code's Stop
      // took it then, as that call's, under the prompt (not only when the next prompt comes).
      await expectTurnEndTook(home, ws, prompt.id, /^Bash$/);
      // "Open conversation": the call record names Claude Code's own transcript, read on demand around the call.
      const edit = calls.find((c) => c.tool === 'Edit');
      expect(edit?.transcript, JSON.stringify(calls)).toMatch(/^\/.*\.jsonl$/);
      const view = await conversationAround(edit!);
      expect(view.available, view.reason).toBe(true);
      // Claude Code writes each content block as its own line: the words, then the tool_use (the call, marked).
      const at = view.messages.findIndex((m) => m.at_call);
      expect(view.messages[at]?.text).toMatch(/^→ Edit /);
      expect(view.messages.slice(0, at + 1).map((m) => m.text).join('\n')).toContain('I will raise the answer to 11 in src/app.ts.');
      expect(view.messages.slice(at + 1).map((m) => m.text).join('\n')).toContain('Now a note from the shell.');
      expect(view.messages.map((m) => m.text).join('\n')).toContain('raise the answer and leave a note');
      await expectRestoreToBefore(home, ws, prompt.id, before);
    } finally {
      await api.close();
      api = null;
    }
  }, 180_000);

  it("after a failing Bash call, the model's next request carries the recovery hint", async () => {
    api = await startFakeApi([{ tool: 'Bash', input: { command: 'ls ./no-such-folder', description: 'list' } }, { text: 'It failed.' }], 'Bash');
    const r = await runClaude(claude.bin!, 'list the folder', claudeEnv(api.url), ['--allowedTools', 'Bash']);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const sent = JSON.stringify(api.requests.at(-1) ?? {});
    expect(sent).toContain('the workspace as it was just before this failed Bash call is checkpoint');
    expect(sent).toContain('restore ');
  }, 180_000);
});
