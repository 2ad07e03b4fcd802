// What every real agent's test checks of prompts (issue 41), through the real
// CLI on the real store: the prompt is recorded with the checkpoint before it,
// the checkpoints its calls took carry its id, the assistant's words before a
// call are recorded where the agent keeps a transcript, and a restore to
// before the prompt puts every file back — those a shell command changed too.
import { readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import type { CallRecord, Checkpoint, ConversationView, PromptRecord } from '../../shared/model.js';
import { conversationAround, type ConversationContext } from '../../electron/prompts/conversation.js';
import { PromptLedger, type PromptEntry } from '../../electron/prompts/ledger.js';
import { workspaceId } from '../../electron/engine/layout/paths.js';
import { baseEnv, listCheckpoints, runCli } from './run-cli.js';
import type { Turn } from './fake-chat-completions.js';
import type { TempWorld } from './temp-home.js';

/** Every file under `dir` (not .git) with its text: what a restore must give back. */
export async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out[relative(dir, p)] = await readFile(p, 'utf8');
    }
  };
  await walk(dir);
  return out;
}

export async function promptLedger(home: string, ws: string): Promise<{ prompts: PromptEntry[]; calls: CallRecord[] }> {
  return new PromptLedger(home, workspaceId(await realpath(ws))).read();
}

export interface PromptExpectations {
  agent: string;
  /** Words of the prompt as the person gave it. */
  text: string;
  /** The assistant's words before a call, where the agent keeps a transcript; omitted: none is expected. */
  intent?: string;
}

/** The prompt as `chronoscope list --prompts --json` lists it, with its checkpoints and (from the ledger) its calls. */
export async function expectPromptRecorded(home: string, ws: string, want: PromptExpectations): Promise<{ prompt: PromptRecord; checkpoints: Checkpoint[]; calls: CallRecord[] }> {
  const listed = await runCli(['list', '--prompts', '--json', '-w', ws], { env: baseEnv(home) });
  expect(listed.code, listed.stderr).toBe(0);
  const prompts = JSON.parse(listed.stdout) as PromptRecord[];
  const prompt = prompts.find((p) => p.agent === want.agent && p.text.includes(want.text));
  expect(prompt, listed.stdout).toBeDefined();
  expect(prompt!.before).not.toBeNull();
  expect(prompt!.checkpoints).toBeGreaterThan(0);
  const ledger = await promptLedger(home, ws);
  const all = await listCheckpoints(home, ws);
  const checkpoints = all.filter((c) => c.prompt_id === prompt!.id);
  expect(checkpoints.length, JSON.stringify(all.map((c) => [c.reason, c.prompt_id ?? null]))).toBe(prompt!.checkpoints);
  const calls = ledger.calls.filter((c) => c.prompt_id === prompt!.id);
  expect(calls.length, JSON.stringify(ledger.calls)).toBeGreaterThan(0);
  if (want.intent !== undefined) expect(calls.map((c) => c.intent ?? '').join('\n')).toContain(want.intent);
  return { prompt: prompt!, checkpoints, calls };
}

/** `chronoscope restore --before-prompt <id> --yes` puts back exactly `files` (what the workspace held before the prompt). */
export async function expectRestoreToBefore(home: string, ws: string, promptId: string, files: Record<string, string>): Promise<void> {
  const r = await runCli(['restore', '--before-prompt', promptId, '--yes', '-w', ws], { env: baseEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  expect(await filesOf(ws)).toEqual(files);
}

/**
 * The prompt's last call was a shell command that wrote shell-note.txt, and no service runs: its end
 * took no checkpoint, the agent's turn-end event did, as that call's change, under the prompt.
 * OpenCode does not wait for its plugins' event handlers before `opencode run` exits: its turn-end
 * hook may still be at work when the command returns, so the checkpoint is waited for (bounded).
 */
export async function expectTurnEndTook(home: string, ws: string, promptId: string, shellTool: RegExp): Promise<void> {
  const want = { trigger: 'hook', change_by: 'call', tool: expect.stringMatching(shellTool), paths: ['shell-note.txt'], prompt_id: promptId };
  await expect.poll(async () => (await listCheckpoints(home, ws))[0], { timeout: 20_000, interval: 250 }).toMatchObject(want);
}

/**
 * The prompt case of the agents driven through the fake Chat Completions API (Copilot, OpenCode):
 * with our hooks installed, a prompt whose shell calls leave a note; the prompt is recorded, the
 * scripted words before its first call are that call's intent, and a restore to before it puts
 * every file back (the note a shell command wrote included).
 */
export async function expectShellNotePrompt(
  world: TempWorld,
  agent: string,
  run: (script: Turn[], prompt: string) => Promise<{ code: number | null; out: string }>,
  /** Files `run` writes into the workspace before giving the prompt (the agent's config): the state before the prompt holds them as written. */
  writtenBeforePrompt: readonly string[] = [],
): Promise<CallRecord> {
  const installed = await runCli(['hooks', 'install', agent], { env: baseEnv(world.store, { HOME: world.home }) });
  expect(installed.code, installed.stderr).toBe(0);
  await writeFile(join(world.ws, 'a.txt'), 'before the prompt\n');
  await runCli(['snapshot', '-w', world.ws, '--reason', 'before the prompt'], { env: baseEnv(world.store) });
  const before = await filesOf(world.ws);
  const said = 'I will leave a note from the shell.';
  const r = await run(
    // The turn ends on the shell call: its turn-end event takes the note (expectTurnEndTook).
    [{ say: said, tool: 'bash', input: { command: 'echo made by the shell > shell-note.txt', description: 'note' } }, { text: 'Done.' }],
    'leave a note from the shell',
  );
  expect(r.code, r.out).toBe(0);
  expect(await readFile(join(world.ws, 'shell-note.txt'), 'utf8')).toBe('made by the shell\n');
  const { prompt, calls } = await expectPromptRecorded(world.store, world.ws, { agent, text: 'leave a note from the shell', intent: said });
  // The first call's own words (never the prompt's text taken for the assistant's).
  expect(calls[0]?.intent, JSON.stringify(calls)).toBe(said);
  await expectTurnEndTook(world.store, world.ws, prompt.id, /^bash$/i);
  for (const name of writtenBeforePrompt) before[name] = await readFile(join(world.ws, name), 'utf8');
  await expectRestoreToBefore(world.store, world.ws, prompt.id, before);
  return calls[0]!;
}

/**
 * "Open conversation" of a real agent's call, through the function the prompts:conversation handler
 * calls: the person's words (redacted), the assistant's words with the call marked, the call's result.
 */
export async function expectConversationOpens(call: CallRecord, want: { prompt: string; said: string; tool: string }, context: ConversationContext = {}): Promise<ConversationView> {
  const view = await conversationAround(call, context);
  expect(view.available, JSON.stringify(view)).toBe(true);
  const at = view.messages.findIndex((m) => m.at_call === true);
  expect(view.messages.filter((m) => m.at_call === true), JSON.stringify(view)).toHaveLength(1);
  expect(view.messages.slice(0, at).some((m) => m.role === 'user' && m.text.includes(want.prompt)), JSON.stringify(view)).toBe(true);
  expect(view.messages[at]).toMatchObject({ role: 'assistant', text: expect.stringContaining(`${want.said}\n→ ${want.tool} {`) });
  expect(view.messages[at + 1]?.role, JSON.stringify(view)).toBe('tool');
  return view;
}
