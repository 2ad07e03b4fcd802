// The real Gemini CLI (npm run install:agents) against a scripted local fake
// of the Gemini API, with our hooks installed by `chronoscope hooks install
// gemini` alone, in a temp HOME whose settings.json already holds the
// person's own settings and hooks. Gemini runs headless (`-p`), from a PATH
// with no node on it (Gemini itself is started by absolute path, as its own
// bin would be). Skipped, with the reason, where Gemini CLI is not installed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { createAppService } from '../../electron/app/app-service.js';
import { openStore } from '../../electron/engine/index.js';
import { geminiIsHeadless } from '../../electron/agents/gemini/headless.js';
import { findAgentCli, sayIfSkipped } from './agent-cli.js';
import { expectRecoveryHint, stateBefore } from './call-checkpoints.js';
import { startFakeGeminiApi, type FakeGeminiApi, type GeminiStep } from './fake-gemini-api.js';
import { baseEnv, listCheckpoints, listEffects, runCli } from './run-cli.js';
import { expectConversationOpens, expectPromptRecorded, expectRestoreToBefore, expectTurnEndTook, filesOf, promptLedger } from './prompt-checks.js';
import { conversationAround } from '../../electron/prompts/conversation.js';
import { agentEnv, gitIn, personFile, repoWithRemote, runAgentProcess, tempWorld, type TempWorld } from './temp-home.js';

// Its bin is a node script: the test starts it with this node, by absolute path.
const gemini = findAgentCli('gemini', 'gemini');
sayIfSkipped('Gemini CLI', gemini);

let world: TempWorld;
let api: FakeGeminiApi | null = null;
let settingsPath: string;

/** The person's own settings: 4-space indent, a hook of their own, the key the fake needs. */
const PERSON_SETTINGS = `${JSON.stringify(
  {
    security: { auth: { selectedType: 'gemini-api-key' } },
    ui: { theme: 'GitHub' },
    hooks: { BeforeTool: [{ matcher: 'read_file', hooks: [{ type: 'command', name: 'mine', command: 'true', timeout: 1000 }] }] },
  },
  null,
  4,
)}\n`;

function geminiEnv(url: string): NodeJS.ProcessEnv {
  return agentEnv(world, { GEMINI_API_KEY: 'fake-key', GOOGLE_GEMINI_BASE_URL: url });
}

async function runGemini(script: GeminiStep[], prompt: string): Promise<{ code: number | null; out: string }> {
  await api?.close();
  api = await startFakeGeminiApi(script);
  const env = geminiEnv(api.url);
  return runAgentProcess(process.execPath, [gemini.bin!, '--approval-mode', 'yolo', '--skip-trust', '-p', prompt], { cwd: world.ws, env, limitMs: 150_000 });
}


beforeAll(async () => {
  world = await tempWorld('gemini');
  await mkdir(join(world.ws, 'src'), { recursive: true });
  await writeFile(join(world.ws, 'src', 'app.ts'), 'export const answer = 41;\n');
  settingsPath = await personFile(world, '.gemini', 'settings.json', PERSON_SETTINGS);
});
afterAll(async () => {
  await api?.close();
  await world?.remove();
});

describe.skipIf(gemini.bin === null)('the real Gemini CLI with our hooks', () => {
  const env = (): NodeJS.ProcessEnv => baseEnv(world.store, { HOME: world.home });

  it('install adds only our hooks (the person\'s stay) and uninstall gives settings.json back byte for byte', async () => {
    const installed = await runCli(['hooks', 'install', 'gemini'], { env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as { ui: unknown; hooks: Record<string, { hooks: { name: string; command: string }[] }[]> };
    expect(settings.ui).toEqual({ theme: 'GitHub' });
    expect(Object.keys(settings.hooks).sort()).toEqual(['AfterAgent', 'AfterTool', 'BeforeAgent', 'BeforeTool']);
    expect(settings.hooks['BeforeTool']!.map((g) => g.hooks[0]!.name)).toEqual(['mine', 'chronoscope']);
    const status = await runCli(['hooks', 'status', 'gemini', '-w', world.ws], { env: env() });
    expect(status.stdout).toMatch(/gemini \(user\): installed/);
    const removed = await runCli(['hooks', 'uninstall', 'gemini'], { env: env() });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(settingsPath, 'utf8')).toBe(PERSON_SETTINGS);
  }, 60_000);

  it('takes a checkpoint holding the file before write_file changes it, labelled with the prompt', async () => {
    expect((await runCli(['hooks', 'install', 'gemini'], { env: env() })).code).toBe(0);
    const r = await runGemini(
      [{ call: 'write_file', args: { file_path: join(world.ws, 'src', 'app.ts'), content: 'export const answer = 42;\n' } }, { text: 'Changed the answer.' }],
      'make the answer 42',
    );
    expect(r.code, r.out).toBe(0);
    expect(await readFile(join(world.ws, 'src', 'app.ts'), 'utf8')).toBe('export const answer = 42;\n');
    const found = stateBefore(await listCheckpoints(world.store, world.ws), 'gemini', 'write_file');
    expect(found, r.out).not.toBeNull();
    expect(found!.own).toMatchObject({ prompt: 'make the answer 42', reason: 'write_file src/app.ts' });
    const workspace = await (await openStore({ home: world.store })).workspace(world.ws);
    expect((await workspace.fileDiff(found!.id, 'workspace', 'src/app.ts')).old.text).toBe('export const answer = 41;\n');
  }, 180_000);

  it('records the prompt, its checkpoints carry its id, the intent is read from the session file, and a restore to before it puts every file back', async () => {
    expect((await runCli(['hooks', 'install', 'gemini'], { env: env() })).code).toBe(0);
    await writeFile(join(world.ws, 'src', 'app.ts'), 'export const answer = 10;\n');
    await runCli(['snapshot', '-w', world.ws, '--reason', 'before the prompt'], { env: env() });
    const before = await filesOf(world.ws);
    const r = await runGemini(
      [
        { say: 'I will raise the answer to 11.', call: 'write_file', args: { file_path: join(world.ws, 'src', 'app.ts'), content: 'export const answer = 11;\n' } },
        // The turn ends on the shell call: AfterAgent takes the note as its change.
        { call: 'run_shell_command', args: { command: 'echo made by the shell > shell-note.txt', description: 'note' } },
        { text: 'Done.' },
      ],
      'raise the answer and leave a note',
    );
    expect(r.code, r.out).toBe(0);
    expect(await readFile(join(world.ws, 'shell-note.txt'), 'utf8')).toBe('made by the shell\n');
    const { prompt } = await expectPromptRecorded(world.store, world.ws, { agent: 'gemini', text: 'raise the answer and leave a note', intent: 'I will raise the answer to 11.' });
    await expectTurnEndTook(world.store, world.ws, prompt.id, /^run_shell_command$/);
    await expectRestoreToBefore(world.store, world.ws, prompt.id, before);
  }, 240_000);

  it("opens the conversation around a write_file call from Gemini's own session file (redacted), and says so once the file is gone", async () => {
    expect((await runCli(['hooks', 'install', 'gemini'], { env: env() })).code).toBe(0);
    const token = 'ghp_' + 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2';
    const r = await runGemini(
      [{ say: 'I will set the answer to 12.', call: 'write_file', args: { file_path: join(world.ws, 'src', 'app.ts'), content: 'export const answer = 12;\n' } }, { text: 'Set it.' }],
      `set the answer to 12 (my token is ${token})`,
    );
    expect(r.code, r.out).toBe(0);
    const call = (await promptLedger(world.store, world.ws)).calls.findLast((c) => c.agent === 'gemini' && c.tool === 'write_file');
    expect(call?.transcript, JSON.stringify(call)).toMatch(/\/\.gemini\/tmp\/.+\.jsonl$/);
    const view = await expectConversationOpens(call!, { prompt: 'set the answer to 12 (my token is ghp_***)', said: 'I will set the answer to 12.', tool: 'write_file' });
    expect(JSON.stringify(view)).not.toContain(token);
    expect(view.messages.at(-1)).toEqual({ role: 'assistant', text: 'Set it.' });
    await rm(call!.transcript!);
    expect(await conversationAround(call!)).toEqual({ available: false, reason: `the transcript is no longer there: ${call!.transcript}`, messages: [] });
  }, 180_000);

  it('a push in a headless run is denied with a reason for the model, recorded as denied, and nothing is sent', async () => {
    const remote = repoWithRemote(world);
    const r = await runGemini([{ call: 'run_shell_command', args: { command: 'git push origin main', description: 'push' } }, { text: 'I could not push.' }], 'push it');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('Nobody can confirm it in this run');
    expect(gitIn(remote, ['branch', '--list'])).toBe('');
    const pushes = (await listEffects(world.store, world.ws)).filter((e) => e.kind === 'git_push');
    expect(pushes.map((e) => [e.agent, e.status])).toEqual([['gemini', 'denied']]);
  }, 180_000);

  it('after a failing shell call, the model\'s next request carries the recovery hint', async () => {
    const r = await runGemini([{ call: 'run_shell_command', args: { command: 'ls ./no-such-folder', description: 'list' } }, { text: 'It failed.' }], 'list that folder');
    expect(r.code, r.out).toBe(0);
    expectRecoveryHint(api!.requests.at(-1), 'ls ./no-such-folder');
  }, 180_000);

  it("with the app's service running, AfterTool checkpoints exactly what write_file changed, titled by that call", async () => {
    // The watcher's own checkpoints wait for a quiet they never get here: the change is the hook's to record.
    await writeFile(join(world.store, 'config.json'), JSON.stringify({ watcher: { quiet_ms: 600_000, max_wait_ms: 3_600_000 } }));
    const app = await createAppService({ home: world.store, host: 'browser', version: 'test', watch: true, pollMs: 100 });
    try {
      await app.addWorkspace(world.ws);
      const r = await runGemini([{ call: 'write_file', args: { file_path: join(world.ws, 'src', 'app.ts'), content: 'export const answer = 7;\n' } }, { text: 'Done.' }], 'make the answer 7');
      expect(r.code, r.out).toBe(0);
      const listed = await runCli(['list', '--all', '--json', '-w', world.ws], { env: env() });
      const rows = JSON.parse(listed.stdout) as (Checkpoint & { title: string })[];
      const ended = rows.find((c) => c.agent === 'gemini' && c.change_by === 'call');
      expect(ended, JSON.stringify(rows.slice(0, 4).map((c) => [c.title, c.change_by ?? null]))).toMatchObject({ tool: 'write_file', title: "write_file src/app.ts — by Gemini CLI's write_file" });
      const workspace = await (await openStore({ home: world.store })).workspace(world.ws);
      expect((await workspace.show(ended!.id)).files.map((f) => f.path)).toEqual(['src/app.ts']);
      const previous = rows[rows.indexOf(ended!) + 1]!;
      const change = await workspace.fileDiff(previous.id, ended!.id, 'src/app.ts');
      expect(change.new.text).toBe('export const answer = 7;\n');
      expect(change.old.text).not.toBe('export const answer = 7;\n');
    } finally {
      await app.dispose();
    }
  }, 180_000);
});

// A person at the terminal: Gemini in a pseudo-terminal of 40×120 (`script`, util-linux; without a
// size Gemini draws no dialog), in a world of its own, answered by pressing Enter.
const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
describe.skipIf(gemini.bin === null || !hasScript)('the real Gemini CLI at a terminal', () => {
  it('before a push, Gemini asks in its own dialog with our line above it; allowed once, the push goes through and the ledger says it happened', async () => {
    const own = await tempWorld('gemini-tty');
    const fake = await startFakeGeminiApi([{ call: 'run_shell_command', args: { command: 'git push origin main', description: 'push' } }, { text: 'Pushed.' }]);
    let child: ChildProcess | null = null;
    try {
      await personFile(own, '.gemini', 'settings.json', JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }));
      expect((await runCli(['hooks', 'install', 'gemini'], { env: baseEnv(own.store, { HOME: own.home }) })).code).toBe(0);
      await writeFile(join(own.ws, 'a.txt'), 'a\n');
      const remote = repoWithRemote(own);
      const env = agentEnv(own, { GEMINI_API_KEY: 'fake-key', GOOGLE_GEMINI_BASE_URL: fake.url, TERM: 'xterm-256color' });
      const command = `stty rows 40 cols 120; exec '${process.execPath}' '${gemini.bin}' --approval-mode yolo --skip-trust -i 'push it'`;
      const tty = spawn('script', ['-qfec', command, '/dev/null'], { cwd: own.ws, env, stdio: ['pipe', 'pipe', 'pipe'] });
      child = tty;
      let screen = '';
      tty.stdout.on('data', (d: Buffer) => (screen += d.toString('utf8')));
      const until = async (done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> => {
        for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await done()) return true;
        return false;
      };
      expect(await until(() => /Allow execution of/.test(screen), 120_000), screen.slice(-2000)).toBe(true);
      expect(screen).toContain('git push origin --delete main');
      // Nothing has gone out while Gemini waits for the person.
      expect(gitIn(remote, ['branch', '--list'])).toBe('');
      tty.stdin.write('\r'); // 1. Allow once
      const happened = async (): Promise<boolean> => (await listEffects(own.store, own.ws)).some((e) => e.kind === 'git_push' && e.status === 'happened');
      expect(await until(happened, 60_000), screen.slice(-2000)).toBe(true);
      expect(gitIn(remote, ['branch', '--list'])).toContain('main');
      expect((await listEffects(own.store, own.ws)).filter((e) => e.kind === 'git_push').map((e) => [e.agent, e.status])).toEqual([['gemini', 'happened']]);
    } finally {
      child?.kill('SIGKILL');
      await fake.close();
      await own.remove();
    }
  }, 240_000);
});

describe('telling a headless Gemini from one a person sits at', () => {
  it('is headless for a gemini process given -p, or reading no terminal; not for another program', async () => {
    const run = (argv0: string, args: string[]): Promise<boolean> =>
      new Promise((resolve, reject) => {
        // `exec -a` names the process as Gemini's bin would be named; stdin is /dev/null.
        const child = spawn('bash', ['-c', `exec -a ${argv0} sleep 30 ${args.join(' ')}`], { stdio: 'ignore' });
        child.on('error', reject);
        setTimeout(() => {
          const headless = geminiIsHeadless(child.pid!);
          child.kill();
          resolve(headless);
        }, 300);
      });
    expect(await run('/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js', [])).toBe(true);
    expect(await run('gemini', [])).toBe(true);
    expect(await run('not-gemini', [])).toBe(false);
  });
});
