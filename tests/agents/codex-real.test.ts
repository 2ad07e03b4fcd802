// The real Codex CLI (npm run install:agents) against a scripted local fake
// of the Responses API, with our hooks installed by `chronoscope hooks install
// codex` alone, in a temp HOME whose config.toml already holds the person's
// own settings (and comments). Skipped, with the reason, where Codex is not
// installed.
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import { expectRecoveryHint } from './call-checkpoints.js';
import { findAgentCli, sayIfSkipped } from './agent-cli.js';
import { startFakeResponsesApi, type FakeResponsesApi, type ResponsesStep } from './fake-openai-responses.js';
import { baseEnv, listEffects, runCli } from './run-cli.js';
import { expectPromptRecorded, expectRestoreToBefore, expectTurnEndTook, filesOf, promptLedger } from './prompt-checks.js';
import { agentEnv, gitIn, repoWithRemote, tempWorld, type TempWorld } from './temp-home.js';
import { conversationAround } from '../../electron/prompts/conversation.js';

// The native binary the package ships (its .bin entry is a node script, and Codex runs with no node on PATH here).
const codex = findAgentCli('codex', `@openai/codex-${process.platform}-${process.arch}/vendor/*/bin/codex`);
sayIfSkipped('Codex CLI', codex);

let world: TempWorld;
let api: FakeResponsesApi | null = null;
let configPath: string;
let original: string;

function personConfig(url: string): string {
  return [
    '# my Codex settings',
    'model = "gpt-5.1-codex"',
    'model_provider = "fake"   # the local fake',
    '',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${url}"`,
    'wire_api = "responses"',
    'env_key = "FAKE_API_KEY"',
    '',
  ].join('\n');
}

function codexEnv(): NodeJS.ProcessEnv {
  // No node on this PATH (Codex is a native binary): the installed command must not need one.
  return agentEnv(world, { FAKE_API_KEY: 'sk-test', CODEX_HOME: join(world.home, '.codex'), RUST_LOG: 'warn' });
}

/** `codex exec` with `prompt`; `resume`: the most recent session's next turn. */
function runCodex(prompt: string, resume = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex.bin!, ['exec', '--skip-git-repo-check', '-s', 'danger-full-access', ...(resume ? ['resume', '--last'] : []), prompt], { cwd: world.ws, env: codexEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `codex app-server`'s hooks/list for the workspace: each hook's key and whether Codex trusts it. */
function codexHooksList(): Promise<{ key: string; trustStatus: string; eventName: string }[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(codex.bin!, ['app-server'], { cwd: world.ws, env: codexEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (const line of out.split('\n')) {
        if (!line.startsWith('{"id":2')) continue;
        clearTimeout(timer);
        child.kill();
        const data = (JSON.parse(line) as { result: { data: { hooks: { key: string; trustStatus: string; eventName: string }[] }[] } }).result.data;
        resolve(data.flatMap((d) => d.hooks));
      }
    });
    child.on('error', reject);
    child.on('close', () => reject(new Error(`codex app-server ended without answering: ${out}`)));
    child.stdin.write(`${JSON.stringify({ id: 1, method: 'initialize', params: { clientInfo: { name: 'test', version: '1' } } })}\n`);
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ id: 2, method: 'hooks/list', params: { cwds: [world.ws] } })}\n`);
  });
}

async function serve(script: ResponsesStep[]): Promise<FakeResponsesApi> {
  await api?.close();
  api = await startFakeResponsesApi(script);
  // The provider's URL changes with each fake: the person's config is rewritten before install.
  return api;
}

beforeAll(async () => {
  world = await tempWorld('codex');
  await mkdir(join(world.ws, 'src'), { recursive: true });
  await writeFile(join(world.ws, 'src', 'app.ts'), 'export const answer = 41;\n');
  configPath = join(world.home, '.codex', 'config.toml');
  await mkdir(join(world.home, '.codex'), { recursive: true });
});
afterAll(async () => {
  await api?.close();
  await world?.remove();
});

describe.skipIf(codex.bin === null)('the real Codex CLI with our hooks', () => {
  it('install writes trusted hooks (Codex says so) and uninstall gives the config back byte for byte', async () => {
    const fake = await serve([]);
    await mkdir(join(world.home, '.codex'), { recursive: true });
    original = personConfig(fake.url);
    await writeFile(configPath, original);
    const env = baseEnv(world.store, { HOME: world.home });
    const installed = await runCli(['hooks', 'install', 'codex'], { env });
    expect(installed.code, installed.stderr).toBe(0);
    const hooks = await codexHooksList();
    const ours = hooks.filter((h) => h.key.startsWith(`${configPath}:`));
    expect(ours.map((h) => h.eventName).sort()).toEqual(['postToolUse', 'preToolUse', 'stop', 'userPromptSubmit']);
    expect(ours.every((h) => h.trustStatus === 'trusted'), JSON.stringify(ours)).toBe(true);
    const status = await runCli(['hooks', 'status', 'codex', '-w', world.ws], { env });
    expect(status.stdout).toContain('Codex will run them');
    const removed = await runCli(['hooks', 'uninstall', 'codex'], { env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(configPath, 'utf8')).toBe(original);
  }, 120_000);

  it('takes a checkpoint holding the text before a patch it applies, labelled with the prompt', async () => {
    const fake = await serve([
      // Codex's exec_command takes an apply_patch invocation as its apply_patch tool (hooks see tool_name apply_patch).
      { call: 'exec_command', arguments: { cmd: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/app.ts\n@@\n-export const answer = 41;\n+export const answer = 42;\n*** End Patch\nEOF\n" } },
      // A next call: its checkpoint holds the patch's change (alone, a shell call takes none as it ends).
      { call: 'exec_command', arguments: { cmd: 'cat src/app.ts' } },
      { text: 'Changed the answer.' },
    ]);
    await writeFile(configPath, personConfig(fake.url));
    const env = baseEnv(world.store, { HOME: world.home });
    expect((await runCli(['hooks', 'install', 'codex'], { env })).code).toBe(0);
    const r = await runCodex('make the answer 42');
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(await readFile(join(world.ws, 'src', 'app.ts'), 'utf8')).toBe('export const answer = 42;\n');
    const workspace = await (await openStore({ home: world.store })).workspace(world.ws);
    // The prompt met the workspace first: its `before` (the baseline) holds the text before the patch.
    const prompt = (await promptLedger(world.store, world.ws)).prompts.find((p) => p.text === 'make the answer 42');
    expect(prompt?.before, r.stderr).toBeTruthy();
    expect((await workspace.fileDiff(prompt!.before!, 'workspace', 'src/app.ts')).old.text).toBe('export const answer = 41;\n');
    // Codex 0.171 offers this model no apply_patch tool of its own: the patch runs through its shell, and the hook sees Bash.
    // It found nothing changed before it, so the next call's checkpoint holds its change, named by it, under the prompt.
    const cp = (await workspace.list()).find((c) => c.agent === 'codex' && c.prompt_id === prompt!.id);
    expect(cp, `${JSON.stringify(await workspace.list())}\n${r.stderr}`).toMatchObject({ prompt: 'make the answer 42', made_by: { agent: 'codex', tool: 'Bash', reason: "Bash: apply_patch <<'EOF' …" } });
  }, 180_000);

  it('records the prompt, its checkpoints carry its id, the intent is read from the rollout, and a restore to before it puts every file back', async () => {
    await writeFile(join(world.ws, 'src', 'app.ts'), 'export const answer = 10;\n');
    await runCli(['snapshot', '-w', world.ws, '--reason', 'before the prompt'], { env: baseEnv(world.store) });
    const before = await filesOf(world.ws);
    const fake = await serve([
      // The turn ends on the shell call: alone, its end takes no checkpoint; Codex's Stop takes the note as its change.
      { say: 'I will leave a note from the shell.', call: 'exec_command', arguments: { cmd: 'echo made by the shell > shell-note.txt' } },
      { text: 'Left the note.' },
    ]);
    await writeFile(configPath, personConfig(fake.url));
    expect((await runCli(['hooks', 'install', 'codex'], { env: baseEnv(world.store, { HOME: world.home }) })).code).toBe(0);
    const r = await runCodex('leave a note from the shell');
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(await readFile(join(world.ws, 'shell-note.txt'), 'utf8')).toBe('made by the shell\n');
    const { prompt, calls } = await expectPromptRecorded(world.store, world.ws, { agent: 'codex', text: 'leave a note from the shell', intent: 'I will leave a note from the shell.' });
    await expectTurnEndTook(world.store, world.ws, prompt.id, /^Bash$/);
    // "Open conversation": the call record names the rollout under ~/.codex/sessions, read on demand around the call.
    const noted = calls.find((c) => c.intent?.includes('I will leave a note from the shell.'));
    expect(noted?.transcript, JSON.stringify(calls)).toMatch(/^\/.*\.jsonl$/);
    const view = await conversationAround(noted!);
    expect(view.available, view.reason).toBe(true);
    const at = view.messages.findIndex((m) => m.at_call);
    expect(view.messages[at]?.text).toContain('echo made by the shell > shell-note.txt');
    expect(view.messages.slice(0, at).map((m) => m.text).join('\n')).toContain('I will leave a note from the shell.');
    await expectRestoreToBefore(world.store, world.ws, prompt.id, before);
  }, 180_000);

  it('refuses a push with a reason telling the model to ask the person (recorded denied, nothing sent); the same push in the next turn goes through, recorded happened', async () => {
    const remote = repoWithRemote(world);
    const fake = await serve([{ call: 'exec_command', arguments: { cmd: 'git push origin main' } }, { text: 'I will ask first.' }]);
    await writeFile(configPath, personConfig(fake.url));
    expect((await runCli(['hooks', 'install', 'codex'], { env: baseEnv(world.store, { HOME: world.home }) })).code).toBe(0);
    const r = await runCodex('push it');
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(gitIn(remote, ['branch', '--list'])).toBe('');
    // What the model was told instead of the push's output.
    const told = JSON.stringify(fake.requests.at(-1));
    expect(told).toContain('ask the person whether to go ahead');
    const pushes = (await listEffects(world.store, world.ws)).filter((e) => e.kind === 'git_push');
    expect(pushes.map((e) => [e.agent, e.status])).toEqual([['codex', 'denied']]);

    // The person agrees in the next turn; the model runs the same command again: it goes through, and
    // its outcome (from PostToolUse) is in the ledger.
    const again = await serve([{ call: 'exec_command', arguments: { cmd: 'git push origin main' } }, { text: 'Pushed.' }]);
    await writeFile(configPath, personConfig(again.url));
    expect((await runCli(['hooks', 'install', 'codex'], { env: baseEnv(world.store, { HOME: world.home }) })).code).toBe(0);
    const yes = await runCodex('yes, go ahead and push', true);
    expect(yes.code, `${yes.stdout}\n${yes.stderr}`).toBe(0);
    expect(gitIn(remote, ['branch', '--list'])).toContain('main');
    const after = (await listEffects(world.store, world.ws)).filter((e) => e.kind === 'git_push');
    expect(after.map((e) => [e.agent, e.status]).sort()).toEqual([['codex', 'denied'], ['codex', 'happened']]);
  }, 300_000);

  it("after a failing shell call, the model's next request carries the recovery hint", async () => {
    const fake = await serve([{ call: 'exec_command', arguments: { cmd: 'ls ./no-such-folder' } }, { text: 'It failed.' }]);
    await writeFile(configPath, personConfig(fake.url));
    expect((await runCli(['hooks', 'install', 'codex'], { env: baseEnv(world.store, { HOME: world.home }) })).code).toBe(0);
    const r = await runCodex('list that folder');
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expectRecoveryHint(fake.requests.at(-1), 'ls ./no-such-folder');
  }, 180_000);
});
