// prompts:conversation with the real app service, engine and store, and real
// transcript files in Claude Code's, Codex's, Gemini CLI's and Copilot CLI's
// formats (shapes as the real CLIs wrote them: Gemini 0.61, Copilot 1.0.102): the
// messages around the call that made a checkpoint's change, bounded and
// redacted; a transcript that is gone (or not a regular file) answers
// available:false in one line. Sharing never carries the transcript's path.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvokeResult } from '../../shared/ipc.js';
import type { Checkpoint, ConversationView } from '../../shared/model.js';
import { checkpointWords, listContext } from '../../shared/checkpoint-words.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { createRouter, type Router } from '../../electron/router/index.js';
import { PromptLedger } from '../../electron/prompts/ledger.js';
import { batchOf } from '../../electron/share/share-log.js';
import { tempDirs, type TempDirs } from '../app/helpers.js';
import { contentCallId } from '../../electron/agents/core/claude-style-payload.js';
import { conversationUnreadableReason } from '../../shared/conversation.js';

let dirs: TempDirs;
let app: AppService;
let router: Router;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-convo-');
  await writeFile(path.join(dirs.workspace, 'a.txt'), 'one\n');
  app = await createAppService({ home: dirs.home, host: 'browser', version: '0.0.0-test', watch: false });
  router = createRouter(app);
});

afterEach(async () => {
  await app.dispose();
  await dirs.cleanup();
});

function ok<T>(result: InvokeResult<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

const jsonl = (lines: unknown[]): string => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
const SECRET = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

/** A Claude Code session: filler turns, then the prompt, the assistant's words, the Edit call (tu_edit), its result, the words after. */
function claudeTranscript(filler: number): string {
  const lines: unknown[] = [];
  for (let i = 0; i < filler; i++) {
    lines.push({ type: 'user', message: { role: 'user', content: `old question ${i}` } });
    lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `old answer ${i} ${'x'.repeat(3000)}` }] } });
  }
  lines.push({ type: 'user', message: { role: 'user', content: `Rename the store; my token is ${SECRET}` } });
  lines.push({ type: 'assistant', isSidechain: true, message: { role: 'assistant', content: [{ type: 'text', text: 'a subagent aside' }] } });
  lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'I will rename the store in a.txt first.' }] } });
  lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_edit', name: 'Edit', input: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }] } });
  lines.push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu_edit', content: 'The file a.txt has been updated.' }] } });
  lines.push({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Done: the store is renamed.' }] } });
  return jsonl(lines);
}

async function checkpointWithCall(agent: string, transcript: string | undefined, toolUseId: string, tool = 'Edit'): Promise<string> {
  const ws = await app.workspace(dirs.workspace);
  await ws.snapshot({ trigger: 'manual', reason: 'base' });
  await writeFile(path.join(dirs.workspace, 'a.txt'), 'two\n');
  const taken = await ws.snapshot({ trigger: 'hook', agent, tool, tool_use_id: toolUseId, session: 's1', reason: 'Edit a.txt' });
  if (taken.id === null) throw new Error('expected a checkpoint');
  await new PromptLedger(app.store.home, ws.meta.id).appendCall({ agent, session: 's1', tool, reason: 'Edit a.txt', tool_use_id: toolUseId, status: 'ok', checkpoint: taken.id, ...(transcript === undefined ? {} : { transcript }) });
  return taken.id;
}

async function transcriptFile(folder: string, name: string, text: string): Promise<string> {
  const file = path.join(path.dirname(dirs.home), folder, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const conversation = async (id: string): Promise<ConversationView> => ok<ConversationView>(await router.invoke('prompts:conversation', { workspace: dirs.workspace, id }));

describe('router: prompts:conversation', () => {
  it("reads the messages around the call from Claude Code's transcript, the call marked, texts redacted and bounded", async () => {
    const transcript = path.join(path.dirname(dirs.home), 'claude', 'session.jsonl');
    await mkdir(path.dirname(transcript), { recursive: true });
    await writeFile(transcript, claudeTranscript(30));
    const id = await checkpointWithCall('claude-code', transcript, 'tu_edit');

    const view = await conversation(id);
    expect(view.available).toBe(true);
    expect(view.messages.length).toBeLessThanOrEqual(20);
    const texts = view.messages.map((m) => m.text);
    expect(texts.at(-5)).toMatch(/^Rename the store; my token is (?!ghp_a1B2)/);
    expect(texts.slice(-4)).toEqual([
      'I will rename the store in a.txt first.',
      '→ Edit {"file_path":"a.txt","old_string":"one","new_string":"two"}',
      'The file a.txt has been updated.',
      'Done: the store is renamed.',
    ]);
    expect(JSON.stringify(view)).not.toContain(SECRET);
    expect(texts).not.toContain('a subagent aside');
    expect(view.messages.filter((m) => m.at_call).map((m) => [m.role, m.text.slice(0, 6)])).toEqual([['assistant', '→ Edit']]);
    expect(view.messages.map((m) => m.role).slice(-5)).toEqual(['user', 'assistant', 'assistant', 'tool', 'assistant']);
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(2000);
  });

  it('answers available:false in one line when the transcript is gone or is not a regular file', async () => {
    const transcript = path.join(path.dirname(dirs.home), 'claude', 'gone.jsonl');
    await mkdir(path.dirname(transcript), { recursive: true });
    await writeFile(transcript, claudeTranscript(0));
    const id = await checkpointWithCall('claude-code', transcript, 'tu_edit');
    expect((await conversation(id)).available).toBe(true);

    await rm(transcript);
    const gone = await conversation(id);
    expect(gone).toEqual({ available: false, reason: `the transcript is no longer there: ${transcript}`, messages: [] });

    await mkdir(transcript); // a folder where the file was
    expect(await conversation(id)).toEqual({ available: false, reason: `the transcript cannot be read (not a regular file, or no permission): ${transcript}`, messages: [] });

    // A checkpoint no agent call made.
    const base = (await (await app.workspace(dirs.workspace)).list()).at(-1)!.id;
    expect(await conversation(base)).toEqual({ available: false, reason: 'no agent call is recorded for this checkpoint', messages: [] });
  });

  it("reads Codex's rollout: the function_call by call_id, its output, the words around it", async () => {
    const rollout = path.join(path.dirname(dirs.home), 'codex', 'rollout.jsonl');
    await mkdir(path.dirname(rollout), { recursive: true });
    const item = (payload: unknown) => ({ type: 'response_item', payload });
    await writeFile(rollout, jsonl([
      { type: 'session_meta', payload: { id: 's1' } },
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }] }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Bump the version' }] }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'I will edit a.txt.' }] }),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["sed","-i","s/one/two/","a.txt"]}', call_id: 'call_9' }),
      item({ type: 'function_call_output', call_id: 'call_9', output: '{"output":"","metadata":{"exit_code":0}}' }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Bumped.' }] }),
    ]));
    const id = await checkpointWithCall('codex', rollout, 'call_9');
    const view = await conversation(id);
    expect(view.available).toBe(true);
    expect(view.messages.map((m) => [m.role, m.text, m.at_call === true])).toEqual([
      ['user', 'Bump the version', false],
      ['assistant', 'I will edit a.txt.', false],
      ['assistant', '→ shell {"command":["sed","-i","s/one/two/","a.txt"]}', true],
      ['tool', '{"output":"","metadata":{"exit_code":0}}', false],
      ['assistant', 'Bumped.', false],
    ]);
  });

  it("reads Gemini CLI's session file: replayed (a message re-appended as it grows, a rewind), the call found by the id its hook gave it", async () => {
    const args = { file_path: path.join(dirs.workspace, 'a.txt'), content: 'two\n' };
    const call = { id: 'write_file__write_file_1796565847195_0', name: 'write_file', args };
    const result = [{ functionResponse: { id: call.id, name: 'write_file', response: { output: `Successfully overwrote file: ${args.file_path}.` } } }];
    const words = { id: 'g1', timestamp: '2026-12-06T14:04:07.333Z', type: 'gemini', content: 'I will write a.txt.', thoughts: [], model: 'gemini-3.1-pro-preview' };
    const file = await transcriptFile('gemini', 'session-2026-12-06T14-04-s1.jsonl', jsonl([
      { sessionId: 's1', projectHash: 'h', startTime: '2026-12-06T14:04:06.556Z', lastUpdated: '2026-12-06T14:04:06.556Z', kind: 'main' },
      { $set: { messages: [{ id: 'ctx', timestamp: '2026-12-06T14:04:06.556Z', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] }], lastUpdated: '2026-12-06T14:04:06.556Z' } },
      { id: 'u0', timestamp: '2026-12-06T14:04:06.600Z', type: 'user', content: [{ text: 'a prompt taken back' }] },
      { $rewindTo: 'u0' },
      { id: 'u1', timestamp: '2026-12-06T14:04:07.119Z', type: 'user', content: [{ text: `write a.txt please; my token is ${SECRET}` }] },
      { $set: { lastUpdated: '2026-12-06T14:04:07.119Z' } },
      words,
      { ...words, toolCalls: [{ ...call, result, status: 'success', timestamp: '2026-12-06T14:04:08.310Z', resultDisplay: { fileDiff: '-one\n+two\n' }, displayName: 'WriteFile' }] },
      { id: 'u2', timestamp: '2026-12-06T14:04:08.312Z', type: 'user', content: result },
      { id: 'g2', timestamp: '2026-12-06T14:04:09.519Z', type: 'gemini', content: 'Done.', thoughts: [] },
      { $set: { lastUpdated: '2026-12-06T14:04:09.520Z' } },
    ]));
    const id = await checkpointWithCall('gemini', file, contentCallId('gemini', 's1', 'write_file', args), 'write_file');
    const view = await conversation(id);
    expect(view.messages.map((m) => [m.role, m.text, m.at_call === true])).toEqual([
      ['user', 'write a.txt please; my token is ghp_***', false],
      ['assistant', `I will write a.txt.\n→ write_file ${JSON.stringify(args)}`, true],
      ['tool', `Successfully overwrote file: ${args.file_path}.`, false],
      ['assistant', 'Done.', false],
    ]);
    expect(view.available).toBe(true);
    expect(JSON.stringify(view)).not.toContain(SECRET);
  });

  it("reads Copilot CLI's events.jsonl: the person's words, the request by its content id (the hook's tool name), its result", async () => {
    const args = { path: path.join(dirs.workspace, 'a.txt'), old_str: 'one', new_str: 'two' };
    const event = (type: string, data: unknown, timestamp: string) => ({ type, data, id: `e-${timestamp}`, timestamp, parentId: null });
    const file = await transcriptFile('copilot', path.join('session-state', 's1', 'events.jsonl'), jsonl([
      event('session.start', { sessionId: 's1', copilotVersion: '1.0.102', context: { cwd: dirs.workspace } }, '2026-12-06T14:04:17.561Z'),
      event('hook.start', { hookType: 'userPromptSubmitted', input: { sessionId: 's1', prompt: 'edit a.txt please' } }, '2026-12-06T14:04:17.990Z'),
      event('user.message', { content: `edit a.txt please, with ${SECRET}`, transformedContent: '<current_datetime>…</current_datetime>\n\nedit a.txt please', messageId: 'm0' }, '2026-12-06T14:04:18.601Z'),
      event('system.message', { role: 'system', content: 'You are the GitHub Copilot CLI' }, '2026-12-06T14:04:18.602Z'),
      event('assistant.turn_start', { turnId: '0' }, '2026-12-06T14:04:18.614Z'),
      event('assistant.message', { messageId: 'm1', content: 'I will edit a.txt.', toolRequests: [{ toolCallId: 'call_chatcmpl_1', name: 'edit', arguments: args, type: 'function', intentionSummary: 'edit the file' }] }, '2026-12-06T14:04:18.673Z'),
      event('tool.execution_start', { toolCallId: 'call_chatcmpl_1', toolName: 'edit', arguments: args }, '2026-12-06T14:04:18.675Z'),
      event('tool.execution_complete', { toolCallId: 'call_chatcmpl_1', success: true, result: { content: `File ${args.path} updated with changes.`, detailedContent: 'diff' } }, '2026-12-06T14:04:19.455Z'),
      event('assistant.message', { messageId: 'm2', content: 'Done.', toolRequests: [] }, '2026-12-06T14:04:20.910Z'),
      event('session.shutdown', {}, '2026-12-06T14:04:21.000Z'),
    ]));
    const id = await checkpointWithCall('copilot', file, contentCallId('copilot', 's1', 'Edit', args), 'Edit');
    const view = await conversation(id);
    expect(view.messages.map((m) => [m.role, m.text, m.at_call === true])).toEqual([
      ['user', 'edit a.txt please, with ghp_***', false],
      ['assistant', `I will edit a.txt.\n→ edit ${JSON.stringify(args)}`, true],
      ['tool', `File ${args.path} updated with changes.`, false],
      ['assistant', 'Done.', false],
    ]);
  });

  it("says in one line why Hermes' conversation cannot be opened (its own database), and never puts a session id that is not OpenCode's on opencode's command line", async () => {
    const hermes = await checkpointWithCall('hermes', undefined, 'call_1');
    expect(await conversation(hermes)).toEqual({ available: false, reason: conversationUnreadableReason('hermes'), messages: [] });
    expect(conversationUnreadableReason('hermes')).toMatch(/^Hermes keeps its conversations in its own SQLite database/);
    expect(conversationUnreadableReason('opencode')).toBeNull();
    // OpenCode's is read through `opencode export <session>` (tests/agents/opencode-real.test.ts); this call's session is "s1".
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'one\n');
    const opencode = await checkpointWithCall('opencode', undefined, 'call_1');
    expect(await conversation(opencode)).toEqual({ available: false, reason: 'the call\'s session id is not an OpenCode session id: "s1"', messages: [] });
  });

  it('refuses a bad request in one line; sharing never carries the transcript path', async () => {
    const bad = await router.invoke('prompts:conversation', { workspace: dirs.workspace, id: 'HEAD~1' });
    expect(bad.ok).toBe(false);
    const call = { agent: 'claude-code', tool: 'Edit', reason: 'Edit a.txt', status: 'ok' as const, checkpoint: 'c1', transcript: '/home/me/.claude/projects/x/s.jsonl', time: 't', time_ms: 1 };
    const checkpoint = { id: 'c1' } as Parameters<typeof batchOf>[0][number];
    const batch = batchOf([checkpoint], new Set(), { prompts: [], calls: [call] });
    expect(batch.calls).toHaveLength(1);
    expect(JSON.stringify(batch)).not.toContain('.claude');
  });
});

describe('router: restore:run before a prompt', () => {
  it("names the restore by the prompt's words from the ledger, and refuses a checkpoint that is not the one before that prompt", async () => {
    const ws = await app.workspace(dirs.workspace);
    const base = await ws.snapshot({ trigger: 'manual', reason: 'base' });
    const prompt = await new PromptLedger(app.store.home, ws.meta.id).appendPrompt({ text: `Rename the store\nand its tests; my token is ${SECRET}`, agent: 'claude-code', session: 's1', before: base.id });
    await writeFile(path.join(dirs.workspace, 'a.txt'), 'two\n');
    const later = await ws.snapshot({ trigger: 'hook', agent: 'claude-code', tool: 'Edit', session: 's1', reason: 'Edit a.txt', prompt_id: prompt.id });
    // Not the checkpoint before the prompt: refused, nothing written.
    const wrong = await router.invoke('restore:run', { workspace: dirs.workspace, id: later.id!, before_prompt: prompt.id });
    expect(wrong.ok ? null : wrong.error.code).toBe('bad_input');
    expect((await ws.list()).length).toBe(2);
    const result = ok<{ checkpoint: string }>(await router.invoke('restore:run', { workspace: dirs.workspace, id: base.id!, before_prompt: prompt.id }));
    const list = ok<Checkpoint[]>(await router.invoke('checkpoints:list', { workspace: dirs.workspace }));
    const titles = list.slice(0, 2).map((c) => checkpointWords(c, listContext(list)).title);
    expect(result.checkpoint).toBeTruthy();
    expect(titles).toEqual(['Restored the workspace to before the prompt ‘Rename the store’', 'Before restoring the workspace to before the prompt ‘Rename the store’']);
  });
});
