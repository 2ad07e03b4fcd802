// What the hooks record of prompts and calls (issue 41), through real hook
// processes into a real store: each prompt an entry of the workspace's prompt
// ledger with the checkpoint before it, the prompt's id on every checkpoint
// its calls take, each call's end (a failure with its exit code and the end
// of its output, the assistant's words before it from the transcript), and,
// with no service running, exact titles for what changed after a failed call.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallRecord, Checkpoint, PromptRecord } from '../../shared/model.js';
import type { CheckpointWords } from '../../shared/checkpoint-words.js';
import { PromptLedger, type PromptEntry } from '../../electron/prompts/ledger.js';
import { workspaceId } from '../../electron/engine/layout/paths.js';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-prompts-', { 'a.ts': 'export const a = 1;\n', 'b.ts': 'export const b = 1;\n' }));
});
afterEach(() => removeTempProject(dir));

async function hook(agent: string, payload: Record<string, unknown>): Promise<string> {
  const r = await runCli(['hook', agent], { input: JSON.stringify(payload), env: baseEnv(home), cwd: ws });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  return r.stdout;
}

const claude = (event: string, extra: Record<string, unknown>) => hook('claude-code', { session_id: 'sess-1', transcript_path: join(dir, 'transcript.jsonl'), cwd: ws, hook_event_name: event, ...extra });

async function ledger(): Promise<{ prompts: PromptEntry[]; calls: CallRecord[] }> {
  return new PromptLedger(home, workspaceId(await realpath(ws))).read();
}

type Described = Checkpoint & CheckpointWords;

async function list(): Promise<Described[]> {
  const r = await runCli(['list', '--json', '--all', '-w', ws], { env: baseEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Described[];
}

/** Claude Code's transcript as it writes one: the prompt, the assistant's words, then its tool call. */
async function transcript(words: string, toolUseId: string): Promise<void> {
  const lines = [
    { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'Rename the counter' } },
    { type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', content: [{ type: 'text', text: 'Looking at the code first.' }] } },
    { type: 'assistant', uuid: 'a2', parentUuid: 'a1', message: { role: 'assistant', content: [{ type: 'text', text: words }] } },
    { type: 'assistant', uuid: 'a3', parentUuid: 'a2', message: { role: 'assistant', content: [{ type: 'tool_use', id: toolUseId, name: 'Edit', input: {} }] } },
    { type: 'assistant', uuid: 'a4', parentUuid: 'a3', message: { role: 'assistant', content: [{ type: 'text', text: 'Words after the call are not its intent.' }] } },
  ];
  await writeFile(join(dir, 'transcript.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
}

describe('the prompt ledger the hooks write', () => {
  it('records a prompt with the checkpoint before it, stamps its id on its calls\' checkpoints, and each call with its intent', async () => {
    await claude('UserPromptSubmit', { prompt: 'Rename the counter\nand keep the tests green' });
    const [prompt] = (await ledger()).prompts;
    expect(prompt).toMatchObject({ text: 'Rename the counter\nand keep the tests green', agent: 'claude-code', session: 'sess-1' });
    // A workspace met first by a prompt: its baseline is taken then, and is the prompt's `before`.
    const [baseline] = await list();
    expect(baseline).toMatchObject({ trigger: 'baseline' });
    expect(prompt!.before).toBe(baseline!.id);

    await transcript('I will rename a to answer in a.ts.', 'toolu_1');
    await claude('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_1' });
    await writeFile(join(ws, 'a.ts'), 'export const answer = 1;\n');
    await claude('PostToolUse', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_1', tool_response: { filePath: join(ws, 'a.ts') } });

    const listed = await list();
    // The Edit's own change, checkpointed as it ended (its file only), carries the prompt's id.
    expect(listed[0]).toMatchObject({ trigger: 'hook', change_by: 'call', prompt_id: prompt!.id, paths: ['a.ts'], title: "Edit a.ts — by Claude Code's Edit" });
    const { calls } = await ledger();
    expect(calls).toEqual([
      expect.objectContaining({ agent: 'claude-code', session: 'sess-1', tool: 'Edit', reason: 'Edit a.ts', tool_use_id: 'toolu_1', status: 'ok', prompt_id: prompt!.id, paths: ['a.ts'], checkpoint: listed[0]!.id, intent: 'I will rename a to answer in a.ts.' }),
    ]);
    expect(calls[0]!.output_tail).toBeUndefined();

    // The next prompt: its before is the Edit's checkpoint, and the session's next checkpoints carry its id.
    await claude('UserPromptSubmit', { prompt: 'Now change b' });
    const second = (await ledger()).prompts[1]!;
    expect(second.before).toBe(listed[0]!.id);
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'sed -i s/b/bee/ b.ts' }, tool_use_id: 'toolu_2' });
    await writeFile(join(ws, 'b.ts'), 'export const bee = 1;\n');
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_3' });
    expect((await list())[0]).toMatchObject({ prompt_id: second.id, title: "sed -i s/b/bee/ b.ts — by Claude Code's Bash" });
  });

  it("a prompt's before holds the change the previous prompt's last shell call left with no checkpoint, labelled with that prompt", async () => {
    await claude('UserPromptSubmit', { prompt: 'Generate the client' });
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run gen' }, tool_use_id: 'toolu_g' });
    await writeFile(join(ws, 'gen.ts'), 'export const generated = 1;\n');
    await claude('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run gen' }, tool_use_id: 'toolu_g', tool_response: { stdout: '', stderr: '', interrupted: false } });
    await claude('UserPromptSubmit', { prompt: 'Now delete it again' });
    const [first, second] = (await ledger()).prompts;
    const [latest] = await list();
    // Taken at the second prompt, as the shell call's change, under the first prompt.
    expect(latest).toMatchObject({ id: second!.before, change_by: 'call', tool: 'Bash', paths: ['gen.ts'], prompt_id: first!.id, prompt: 'Generate the client', title: "npm run gen — by Claude Code's Bash" });
    // Back to before the second prompt keeps what the first one made.
    const r = await runCli(['restore', second!.before!, '--yes', '-w', ws], { env: baseEnv(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(ws, 'gen.ts'), 'utf8')).toBe('export const generated = 1;\n');
  });

  it("with no service: a person's edit between prompts is taken as the next prompt is given, so restoring to before that prompt keeps it", async () => {
    await claude('UserPromptSubmit', { prompt: 'Rename the counter' });
    await claude('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_1' });
    await writeFile(join(ws, 'a.ts'), 'export const answer = 1;\n');
    await claude('PostToolUse', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_1', tool_response: { filePath: join(ws, 'a.ts') } });
    // The person edits b.ts, then asks again; the agent then changes b.ts its own way.
    await writeFile(join(ws, 'b.ts'), 'export const b = 2; // by hand\n');
    await claude('UserPromptSubmit', { prompt: 'Now tidy b.ts' });
    const [, second] = (await ledger()).prompts;
    const [latest] = await list();
    expect(latest).toMatchObject({ id: second!.before, trigger: 'hook', change_by: 'other', paths: ['b.ts'], title: 'b.ts changed, not by a recorded call', by: null });
    // Under no prompt: neither the new prompt's id nor its words (the list would show a second header of it).
    expect([latest!.prompt_id, latest!.prompt]).toEqual([undefined, undefined]);
    await claude('PreToolUse', { tool_name: 'Write', tool_input: { file_path: join(ws, 'b.ts') }, tool_use_id: 'toolu_2' });
    await writeFile(join(ws, 'b.ts'), 'export const bee = 3;\n');
    await claude('PostToolUse', { tool_name: 'Write', tool_input: { file_path: join(ws, 'b.ts') }, tool_use_id: 'toolu_2', tool_response: { filePath: join(ws, 'b.ts') } });
    const r = await runCli(['restore', '--before-prompt', second!.id, '--yes', '-w', ws], { env: baseEnv(home) });
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(ws, 'b.ts'), 'utf8')).toBe('export const b = 2; // by hand\n');
    expect(await readFile(join(ws, 'a.ts'), 'utf8')).toBe('export const answer = 1;\n');
  });

  it('a prompt given with nothing changed since the last checkpoint takes none', async () => {
    await claude('UserPromptSubmit', { prompt: 'Rename the counter' });
    const before = (await list()).length;
    await claude('UserPromptSubmit', { prompt: 'Actually, wait' });
    expect(await list()).toHaveLength(before);
    const [first, second] = (await ledger()).prompts;
    expect(second!.before).toBe(first!.before);
  });

  it('records a failed call with its exit code and the end of its output, though it changed nothing', async () => {
    await claude('UserPromptSubmit', { prompt: 'Run the tests' });
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_t' });
    const output = ['> vitest run', ...Array.from({ length: 400 }, (_, i) => `  ok test ${i}`), 'FAIL tests/clock.test.ts > ticks', 'AssertionError: expected 2 to be 3'].join('\n');
    await claude('PostToolUseFailure', { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_t', error: `Exit code 2\n${output}`, is_interrupt: false });
    const { prompts, calls } = await ledger();
    expect(calls).toHaveLength(1);
    const call = calls[0]!;
    expect(call).toMatchObject({ tool: 'Bash', reason: 'Bash: npm test', status: 'failed', exit_code: 2, tool_use_id: 'toolu_t', prompt_id: prompts[0]!.id });
    expect(call.output_tail).toMatch(/FAIL tests\/clock.test.ts > ticks\nAssertionError: expected 2 to be 3$/);
    expect(call.output_tail!.length).toBeLessThanOrEqual(2000);
    expect(call.checkpoint).toBeUndefined();
  });

  it('with no service: after a failed Edit, a person\'s change is titled as not by a recorded call, naming its file', async () => {
    await claude('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_e' });
    await claude('PostToolUseFailure', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_e', error: 'String to replace not found in file.' });
    // A person changes b.ts; then the next call.
    await writeFile(join(ws, 'b.ts'), 'export const b = 2;\n');
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_n' });
    const [next] = await list();
    expect(next).toMatchObject({ trigger: 'hook', paths: ['b.ts'], title: 'b.ts changed, not by a recorded call', by: null });
    expect((await ledger()).calls).toEqual([expect.objectContaining({ tool: 'Edit', status: 'failed', reason: 'Edit a.ts', output_tail: 'String to replace not found in file.' })]);
  });

  it('with no service: a shell call that began after a file call ended is named as the author of what changed next', async () => {
    await claude('PreToolUse', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_1' });
    await writeFile(join(ws, 'a.ts'), 'export const a = 2;\n');
    await claude('PostToolUse', { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts') }, tool_use_id: 'toolu_1' });
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run gen' }, tool_use_id: 'toolu_2' });
    await writeFile(join(ws, 'b.ts'), 'export const generated = 1;\n');
    await claude('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run gen' }, tool_use_id: 'toolu_2', tool_response: { stdout: '', stderr: '', interrupted: false } });
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_3' });
    const listed = await list();
    expect(listed.slice(0, 2).map((c) => c.title)).toEqual(["npm run gen — by Claude Code's Bash", "Edit a.ts — by Claude Code's Edit"]);
  });
});

describe("with no service: the turn's end (Claude Code's Stop)", () => {
  it("takes the turn's last shell call's change as that call's, under its prompt; a person's edit after the turn is then not that call's", async () => {
    await claude('UserPromptSubmit', { prompt: 'Generate the client' });
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run gen' }, tool_use_id: 'toolu_g' });
    await writeFile(join(ws, 'gen.ts'), 'export const generated = 1;\n');
    await claude('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'npm run gen' }, tool_use_id: 'toolu_g', tool_response: { stdout: '', stderr: '', interrupted: false } });
    await claude('Stop', { stop_hook_active: false });
    const [prompt] = (await ledger()).prompts;
    const [atStop] = await list();
    expect(atStop).toMatchObject({ trigger: 'hook', change_by: 'call', paths: ['gen.ts'], prompt_id: prompt!.id, title: "npm run gen — by Claude Code's Bash" });
    // The prompt's whole change holds it at once, not only when the next prompt comes.
    const listed = await runCli(['list', '--prompts', '--json', '-w', ws], { env: baseEnv(home) });
    expect((JSON.parse(listed.stdout) as PromptRecord[])[0]).toMatchObject({ id: prompt!.id, last: atStop!.id, files: 1 });
    // The person edits after the turn; the next turn's first call finds it theirs.
    await writeFile(join(ws, 'b.ts'), 'export const b = 2; // by hand\n');
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_l' });
    const [next] = await list();
    expect(next).toMatchObject({ paths: ['b.ts'], title: 'b.ts changed, not by a recorded call', by: null });
    // A second Stop with nothing unended takes nothing.
    const count = (await list()).length;
    await claude('Stop', { stop_hook_active: false });
    expect(await list()).toHaveLength(count);
  });

  it("another session's turn end leaves this session's call alone; its own takes it with its session and call, so show names the call", async () => {
    await claude('UserPromptSubmit', { prompt: 'Remove the b module' });
    await hook('gemini', { session_id: 'g2', cwd: ws, hook_event_name: 'BeforeAgent', prompt: 'Just look around' });
    await claude('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'rm b.ts' }, tool_use_id: 'toolu_rm' });
    await rm(join(ws, 'b.ts'));
    await claude('PostToolUse', { tool_name: 'Bash', tool_input: { command: 'rm b.ts' }, tool_use_id: 'toolu_rm', tool_response: { stdout: '', stderr: '', interrupted: false } });
    const count = (await list()).length;
    // Gemini's turn (session g2) ends first: the change is not its own.
    await hook('gemini', { session_id: 'g2', cwd: ws, hook_event_name: 'AfterAgent', prompt: 'Just look around', prompt_response: 'Nothing to do.', stop_hook_active: false });
    expect(await list()).toHaveLength(count);
    await claude('Stop', { stop_hook_active: false });
    const mine = (await ledger()).prompts.find((p) => p.text === 'Remove the b module');
    const [taken] = await list();
    expect(taken).toMatchObject({ change_by: 'call', tool: 'Bash', session: 'sess-1', tool_use_id: 'toolu_rm', paths: ['b.ts'], prompt_id: mine!.id, title: "rm b.ts — by Claude Code's Bash" });
    const shown = JSON.parse((await runCli(['show', taken!.id, '--json', '-w', ws], { env: baseEnv(home) })).stdout) as { call: CallRecord | null };
    expect(shown.call).toMatchObject({ tool: 'Bash', tool_use_id: 'toolu_rm', session: 'sess-1' });
  });

  it('a prompt holding a NUL is recorded like any other (it used to drop the prompt, and its calls went to the one before)', async () => {
    const r = await runCli(['hook', 'claude-code'], { input: JSON.stringify({ session_id: 'sess-1', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'second\u0000prompt' }), env: baseEnv(home), cwd: ws });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const { prompts } = await ledger();
    expect(prompts.map((p) => p.text)).toEqual(['second\u0000prompt']);
    const edit = { tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.ts'), old_string: '1', new_string: '2' }, tool_use_id: 'toolu_n' };
    await claude('PreToolUse', edit);
    await writeFile(join(ws, 'a.ts'), 'export const a = 2;\n');
    await claude('PostToolUse', { ...edit, tool_response: { filePath: join(ws, 'a.ts') } });
    const [taken] = await list();
    expect(taken).toMatchObject({ prompt_id: prompts[0]!.id, prompt: 'second prompt' });
  });

  it('in a folder no recorded workspace holds: nothing, and no store is made', async () => {
    const elsewhere = await mkdtemp(join(dir, 'not-recorded-'));
    const store = join(dir, 'no-store-yet');
    const r = await runCli(['hook', 'claude-code'], { input: JSON.stringify({ session_id: 's', cwd: elsewhere, hook_event_name: 'Stop', stop_hook_active: false }), env: baseEnv(store), cwd: elsewhere });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(existsSync(store)).toBe(false);
  });
});

describe('the ledger lines of each agent', () => {
  const cases: Array<{ agent: string; prompt: Record<string, unknown>; after: Record<string, unknown>; expected: Partial<CallRecord> }> = [
    {
      agent: 'gemini',
      prompt: { session_id: 'g1', hook_event_name: 'BeforeAgent', prompt: 'List the files' },
      after: { session_id: 'g1', hook_event_name: 'AfterTool', tool_name: 'run_shell_command', tool_input: { command: 'false' }, tool_response: { llmContent: 'Command: false\nExit Code: 1', error: 'failed' } },
      expected: { tool: 'run_shell_command', status: 'failed', exit_code: 1, reason: 'run_shell_command: false' },
    },
    {
      agent: 'codex',
      prompt: { session_id: 'c1', hook_event_name: 'UserPromptSubmit', prompt: 'List the files' },
      after: { session_id: 'c1', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'call_1', tool_response: 'a.ts\nb.ts\n' },
      expected: { tool: 'Bash', status: 'ok', reason: 'Bash: ls', tool_use_id: 'call_1' },
    },
    {
      agent: 'copilot',
      prompt: { session_id: 'k1', hook_event_name: 'UserPromptSubmit', prompt: 'List the files' },
      after: { session_id: 'k1', hook_event_name: 'PostToolUse', tool_name: 'bash', tool_input: { command: 'exit 3' }, tool_result: { result_type: 'success', text_result_for_llm: 'oops\n<shellId: 1 completed with exit code 3>' } },
      expected: { tool: 'bash', status: 'failed', exit_code: 3, reason: 'bash: exit 3' },
    },
    {
      agent: 'opencode',
      prompt: { event: 'prompt', session: 'o1', prompt: '"List the files"' },
      after: { event: 'after', session: 'o1', call_id: 'oc_1', tool: 'bash', args: { command: 'exit 4' }, output: 'nope', exit: 4 },
      expected: { tool: 'bash', status: 'failed', exit_code: 4, output_tail: 'nope', tool_use_id: 'oc_1' },
    },
  ];
  for (const c of cases) {
    it(`${c.agent}: its prompt and its call's end`, async () => {
      await hook(c.agent, { cwd: ws, ...c.prompt });
      await hook(c.agent, { cwd: ws, ...c.after });
      const { prompts, calls } = await ledger();
      expect(prompts).toEqual([expect.objectContaining({ text: 'List the files', agent: c.agent })]);
      expect(calls).toEqual([expect.objectContaining({ agent: c.agent, prompt_id: prompts[0]!.id, ...c.expected })]);
    });
  }
});
