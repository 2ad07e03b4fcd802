// The real OpenCode (npm run install:agents) against a scripted local fake of
// the Chat Completions API (an @ai-sdk/openai-compatible provider in the
// workspace's opencode.json), with our plugin placed by `chronoscope hooks
// install opencode` alone, in a temp HOME. OpenCode's native binary runs from
// a PATH with no node on it. Skipped, with the reason, where OpenCode is not
// installed. (OpenCode installs its plugin helper package from the npm
// registry into ~/.config/opencode on its first run: this test needs the
// registry, as `npm ci` does.)
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAgentCli, sayIfSkipped } from './agent-cli.js';
import { startFakeChatApi, type FakeChatApi, type Turn } from './fake-chat-completions.js';
import { baseEnv, runCli } from './run-cli.js';
import { expectConversationOpens, expectShellNotePrompt, filesOf } from './prompt-checks.js';
import { conversationAround } from '../../electron/prompts/conversation.js';
import { expectRecoveryHint, expectWriteEditPushChecked } from './call-checkpoints.js';
import { agentEnv, repoWithRemote, runAgentProcess, tempWorld, type TempWorld } from './temp-home.js';

const opencode = findAgentCli('opencode', `opencode-${process.platform}-${process.arch}/bin/opencode`);
sayIfSkipped('OpenCode', opencode);

let world: TempWorld;
let api: FakeChatApi | null = null;

async function runOpenCode(script: Turn[], prompt: string): Promise<{ code: number | null; out: string }> {
  await api?.close();
  api = await startFakeChatApi(script, 'bash');
  await writeFile(
    join(world.ws, 'opencode.json'),
    JSON.stringify({
      provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: api.url, apiKey: 'x' }, models: { 'fake-model': { name: 'Fake', tool_call: true } } } },
      model: 'fake/fake-model',
    }),
  );
  return runAgentProcess(opencode.bin!, ['run', prompt], { cwd: world.ws, env: agentEnv(world), limitMs: 240_000 });
}


beforeAll(async () => {
  world = await tempWorld('opencode');
  await writeFile(join(world.ws, 'a.txt'), 'hi\n');
});
afterAll(async () => {
  await api?.close();
  await world?.remove();
});

describe.skipIf(opencode.bin === null)('the real OpenCode with our plugin', () => {
  const env = (): NodeJS.ProcessEnv => baseEnv(world.store, { HOME: world.home });
  const pluginFile = (): string => join(world.home, '.config', 'opencode', 'plugin', 'chronoscope.js');

  it('install places the plugin, status finds it, uninstall leaves nothing of ours behind', async () => {
    expect((await runCli(['hooks', 'install', 'opencode'], { env: env() })).code).toBe(0);
    expect(existsSync(pluginFile())).toBe(true);
    expect((await runCli(['hooks', 'status', 'opencode'], { env: env() })).stdout).toMatch(/opencode \(user\): plugin installed/);
    expect((await runCli(['hooks', 'uninstall', 'opencode'], { env: env() })).code).toBe(0);
    expect(existsSync(join(world.home, '.config', 'opencode', 'plugin'))).toBe(false);
    // A file of the same name that is not ours is never overwritten.
    await runCli(['hooks', 'install', 'opencode'], { env: env() });
    await writeFile(pluginFile(), 'export const Mine = async () => ({});\n');
    const refused = await runCli(['hooks', 'install', 'opencode'], { env: env() });
    expect(refused.code).not.toBe(0);
    expect(await readFile(pluginFile(), 'utf8')).toBe('export const Mine = async () => ({});\n');
    expect((await runCli(['hooks', 'uninstall', 'opencode'], { env: env() })).stdout).toMatch(/not installed/);
    expect(existsSync(pluginFile())).toBe(true);
    await rm(pluginFile());
  }, 60_000);

  it("--mcp registers our MCP server in the person's opencode.jsonc (comments kept), OpenCode connects to it, and uninstall --mcp gives the file back byte for byte", async () => {
    const config = join(world.home, '.config', 'opencode', 'opencode.jsonc');
    const mine = '{\n  // my settings\n  "$schema": "https://opencode.ai/config.json",\n  "theme": "system"\n}\n';
    await mkdir(join(world.home, '.config', 'opencode'), { recursive: true });
    await writeFile(config, mine);
    const installed = await runCli(['hooks', 'install', 'opencode', '--mcp'], { env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    const text = await readFile(config, 'utf8');
    expect(text).toContain('// my settings');
    expect(text).toContain('"chronoscope"');
    // The server's command is `node` by name (as for every agent's MCP entry): this call has node on PATH.
    const listed = await runAgentProcess(opencode.bin!, ['mcp', 'list'], { cwd: world.ws, env: { HOME: world.home, PATH: process.env['PATH'], CHRONOSCOPE_HOME: world.store }, limitMs: 120_000 });
    expect(listed.out).toMatch(/chronoscope\S*\s+\S*connected/);
    const removed = await runCli(['hooks', 'uninstall', 'opencode', '--mcp'], { env: env() });
    expect(removed.code, removed.stderr).toBe(0);
    expect(await readFile(config, 'utf8')).toBe(mine);
    expect(existsSync(pluginFile())).toBe(false);
  }, 180_000);

  it('checkpoints before write, edit and bash with the state before each, labels them with the prompt, and denies a push it records as denied', async () => {
    expect((await runCli(['hooks', 'install', 'opencode'], { env: env() })).code).toBe(0);
    const remote = repoWithRemote(world);
    const r = await runOpenCode(
      [
        { tool: 'write', input: { filePath: join(world.ws, 'new.txt'), content: 'hello\n' } },
        { tool: 'edit', input: { filePath: join(world.ws, 'a.txt'), oldString: 'hi', newString: 'hello there' } },
        { tool: 'bash', input: { command: 'git push origin main', description: 'push' } },
        { text: 'Done.' },
      ],
      'make new.txt, edit a.txt and push',
    );
    await expectWriteEditPushChecked(world, 'opencode', 'make new.txt, edit a.txt and push', remote, r, { write: 'write', edit: 'edit', shell: 'bash' });
  }, 300_000);

  it("after a failing shell call, the model's next request carries the recovery hint", async () => {
    expect((await runCli(['hooks', 'install', 'opencode'], { env: env() })).code).toBe(0);
    const r = await runOpenCode([{ tool: 'bash', input: { command: 'ls ./no-such-folder', description: 'list' } }, { text: 'It failed.' }], 'list that folder');
    expect(r.code, r.out).toBe(0);
    expectRecoveryHint(api!.requests.at(-1), 'ls ./no-such-folder');
  }, 300_000);
});

describe.skipIf(opencode.bin === null)('the real OpenCode: prompts', () => {
  it('records the prompt, its checkpoints carry its id, the intent is what the plugin heard before the call, and a restore to before it puts every file back', async () => {
    // runOpenCode writes opencode.json (the fake API's new port) just before the prompt: the state before the prompt has it.
    const call = await expectShellNotePrompt(world, 'opencode', runOpenCode, ['opencode.json']);
    // "Open conversation": OpenCode keeps the session in its own SQLite database; its own `opencode export` reads it.
    // The app's PATH has OpenCode's command on it; the workspace is left as it was.
    const context = { cwd: world.ws, env: agentEnv(world, { PATH: `${dirname(opencode.bin!)}${delimiter}${world.noNodeBin}` }) };
    const files = await filesOf(world.ws);
    await expectConversationOpens(call, { prompt: 'leave a note from the shell', said: 'I will leave a note from the shell.', tool: 'bash' }, context);
    expect(await filesOf(world.ws)).toEqual(files);
    // A session OpenCode no longer has, and no OpenCode on PATH: each said in one line.
    const gone = await conversationAround({ ...call, session: 'ses_0000000000000000000000000' }, context);
    expect(gone).toMatchObject({ available: false, reason: expect.stringMatching(/^opencode export ses_0+ failed: .*Session not found/) });
    expect(gone.reason).not.toContain('\n');
    const noCli = await conversationAround(call, { cwd: world.ws, env: agentEnv(world) });
    expect(noCli).toEqual({ available: false, reason: "OpenCode's command (opencode) is not on PATH: it reads the conversation from OpenCode's database", messages: [] });
  }, 300_000);
});
