// The real GitHub Copilot CLI (npm run install:agents) against a scripted
// local fake of the Chat Completions API (COPILOT_OFFLINE with an OpenAI-type
// provider: no GitHub login), with our hooks installed by `chronoscope hooks
// install copilot` alone, in a temp HOME whose settings.json already holds the
// person's own settings. Copilot's native binary runs from a PATH with no node
// on it. Skipped, with the reason, where Copilot CLI is not installed.
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import { findAgentCli, sayIfSkipped } from './agent-cli.js';
import { startFakeChatApi, type FakeChatApi, type Turn } from './fake-chat-completions.js';
import { baseEnv, listCheckpoints, runCli } from './run-cli.js';
import { expectConversationOpens, expectShellNotePrompt } from './prompt-checks.js';
import { expectWriteEditPushChecked, stateBefore } from './call-checkpoints.js';
import { agentEnv, personFile, repoWithRemote, runAgentProcess, tempWorld, type TempWorld } from './temp-home.js';

const copilot = findAgentCli('copilot', `@github/copilot-${process.platform}-${process.arch}/copilot`);
sayIfSkipped('Copilot CLI', copilot);

let world: TempWorld;
let api: FakeChatApi | null = null;
let settingsPath: string;

/** The person's own settings, as Copilot's own file would hold them (4-space indent here, to see it kept). */
const PERSON_SETTINGS = `${JSON.stringify({ model: 'gpt-4.1', banner: 'never', hooks: { SessionStart: [{ type: 'command', bash: 'true', timeoutSec: 5 }] } }, null, 4)}\n`;

async function runCopilot(script: Turn[], prompt: string): Promise<{ code: number | null; out: string }> {
  await api?.close();
  api = await startFakeChatApi(script, 'bash');
  const env = agentEnv(world, { COPILOT_OFFLINE: 'true', COPILOT_PROVIDER_BASE_URL: api.url, COPILOT_PROVIDER_TYPE: 'openai', COPILOT_PROVIDER_API_KEY: 'sk-test', COPILOT_MODEL: 'gpt-4.1' });
  return runAgentProcess(copilot.bin!, ['--allow-all-tools', '--no-auto-update', '-p', prompt], { cwd: world.ws, env, limitMs: 150_000 });
}


beforeAll(async () => {
  world = await tempWorld('copilot');
  await writeFile(join(world.ws, 'a.txt'), 'hi\n');
  settingsPath = await personFile(world, '.copilot', 'settings.json', PERSON_SETTINGS);
});
afterAll(async () => {
  await api?.close();
  await world?.remove();
});

describe.skipIf(copilot.bin === null)('the real Copilot CLI with our hooks', () => {
  const env = (): NodeJS.ProcessEnv => baseEnv(world.store, { HOME: world.home });

  it("install adds only our hooks (the person's stay) and uninstall gives settings.json back byte for byte", async () => {
    const installed = await runCli(['hooks', 'install', 'copilot'], { env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    const settings = JSON.parse(await readFile(settingsPath, 'utf8')) as { banner: string; hooks: Record<string, unknown[]> };
    expect(settings.banner).toBe('never');
    expect(Object.keys(settings.hooks).sort()).toEqual(['PostToolUse', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    expect((await runCli(['hooks', 'status', 'copilot'], { env: env() })).stdout).toMatch(/copilot \(user\): installed/);
    const removed = await runCli(['hooks', 'uninstall', 'copilot'], { env: env() });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(settingsPath, 'utf8')).toBe(PERSON_SETTINGS);
  }, 60_000);

  it('--mcp registers our MCP server where Copilot looks (copilot mcp get says so); uninstall --mcp takes it out again', async () => {
    const mcpPath = join(world.home, '.copilot', 'mcp-config.json');
    const installed = await runCli(['hooks', 'install', 'copilot', '--mcp'], { env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    const got = await runAgentProcess(copilot.bin!, ['mcp', 'get', 'chronoscope'], { cwd: world.ws, env: { HOME: world.home, PATH: world.noNodeBin }, limitMs: 60_000 });
    expect(got.out).toContain('Status: Enabled');
    expect(got.out).toMatch(/Command: .*node .*bin\.cjs mcp/);
    const removed = await runCli(['hooks', 'uninstall', 'copilot', '--mcp'], { env: env() });
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(mcpPath)).toBe(false);
    expect(await readFile(settingsPath, 'utf8')).toBe(PERSON_SETTINGS);
  }, 120_000);

  it("--project writes the workspace's .github/hooks/chronoscope.json, which Copilot runs once the folder is trusted; uninstall --project leaves no trace", async () => {
    const hooksFile = join(world.ws, '.github', 'hooks', 'chronoscope.json');
    const installed = await runCli(['hooks', 'install', 'copilot', '--project', '-w', world.ws], { env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain('only in folders you trust');
    expect(JSON.parse(await readFile(hooksFile, 'utf8'))).toMatchObject({ version: 1 });
    // The person trusts the folder (what Copilot's own first-run question records).
    const config = join(world.home, '.copilot', 'config.json');
    const theirs = await readFile(config, 'utf8').catch(() => null);
    await writeFile(config, `// written by the test\n${JSON.stringify({ trusted_folders: [world.ws] })}\n`);
    expect((await runCli(['hooks', 'status', 'copilot', '-w', world.ws], { env: env() })).stdout).toContain('Copilot trusts this folder');
    const r = await runCopilot([{ tool: 'edit', input: { path: join(world.ws, 'a.txt'), old_str: 'hi', new_str: 'hi from the project hook' } }, { text: 'Done.' }], 'edit a.txt (project hooks)');
    expect(r.code, r.out).toBe(0);
    const found = stateBefore(await listCheckpoints(world.store, world.ws), 'copilot', 'Edit');
    expect(found?.own.prompt, r.out).toBe('edit a.txt (project hooks)');
    const workspace = await (await openStore({ home: world.store })).workspace(world.ws);
    expect((await workspace.fileDiff(found!.id, 'workspace', 'a.txt')).old.text).toBe('hi\n');
    await writeFile(join(world.ws, 'a.txt'), 'hi\n');
    if (theirs === null) await rm(config, { force: true });
    else await writeFile(config, theirs);
    const removed = await runCli(['hooks', 'uninstall', 'copilot', '--project', '-w', world.ws], { env: env() });
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(join(world.ws, '.github'))).toBe(false);
  }, 180_000);

  it('checkpoints before each call with the state before it, labels them with the prompt, and denies a push it records as denied', async () => {
    expect((await runCli(['hooks', 'install', 'copilot'], { env: env() })).code).toBe(0);
    const remote = repoWithRemote(world);
    const r = await runCopilot(
      [
        { tool: 'create', input: { path: join(world.ws, 'new.txt'), file_text: 'hello\n' } },
        { tool: 'edit', input: { path: join(world.ws, 'a.txt'), old_str: 'hi', new_str: 'hello there' } },
        { tool: 'bash', input: { command: 'git push origin main', description: 'push' } },
        { text: 'Done.' },
      ],
      'make new.txt, edit a.txt and push',
    );
    await expectWriteEditPushChecked(world, 'copilot', 'make new.txt, edit a.txt and push', remote, r, { write: 'Write', edit: 'Edit', shell: 'Bash' });
  }, 180_000);
});

describe.skipIf(copilot.bin === null)('the real Copilot: prompts', () => {
  it("records the prompt, its checkpoints carry its id, the intent is read from the session's events.jsonl, and a restore to before it puts every file back", async () => {
    const call = await expectShellNotePrompt(world, 'copilot', runCopilot);
    // The call record names the session's events.jsonl; "Open conversation" reads the call there.
    expect(call.transcript).toBe(join(world.home, '.copilot', 'session-state', call.session!, 'events.jsonl'));
    await expectConversationOpens(call, { prompt: 'leave a note from the shell', said: 'I will leave a note from the shell.', tool: 'bash' });
  }, 300_000);
});
