// OpenCode's session as its own `opencode export` prints it (the fixture is a
// real 1.18.33 export, made by tests/agents/opencode-real.test.ts's prompt
// case): the person's words, each step's words with the calls it asked for,
// the calls' results; reasoning, step markers and synthetic text left out.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CallRecord } from '../../shared/model.js';
import { openCodeMessages } from '../../electron/prompts/transcripts/opencode.js';

type Exported = { messages: Record<string, unknown>[] };
const exported = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'agents', 'fixtures', 'opencode-1.18.33-export.json'), 'utf8')) as Exported;
const call: CallRecord = { agent: 'opencode', tool: 'bash', reason: 'bash', status: 'ok', time: '', time_ms: 0, tool_use_id: 'call_chatcmpl_2' };

describe("OpenCode's exported session as conversation messages", () => {
  it('reads a real export: prompt, words and call, result, next call, result, last words', () => {
    const messages = openCodeMessages(exported.messages, call);
    expect(messages.map((m) => [m.role, m.text, m.ids])).toEqual([
      ['user', '"leave a note from the shell"', []],
      ['assistant', 'I will leave a note from the shell.\n→ bash {"command":"echo made by the shell > shell-note.txt","description":"note"}', ['call_chatcmpl_2']],
      ['tool', '(no output)', []],
      ['assistant', '→ bash {"command":"cat shell-note.txt","description":"read it"}', ['call_chatcmpl_3']],
      ['tool', 'made by the shell\n', []],
      ['assistant', 'Done.', []],
    ]);
    expect(messages[1]!.time_ms).toBe(1796576827938);
  });

  it("a failed call's error is its result; reasoning and synthetic text are not the conversation", () => {
    const step = {
      info: { role: 'assistant', id: 'msg_1', time: { created: 5 } },
      parts: [
        { type: 'reasoning', text: 'thinking it over' },
        { type: 'text', text: 'a file the person attached', synthetic: true },
        { type: 'text', text: 'Running the tests.' },
        { type: 'tool', tool: 'bash', callID: 'call_9', state: { status: 'error', input: { command: 'npm test' }, error: 'exit code 1' } },
      ],
    };
    expect(openCodeMessages([step, { info: { role: 'system' }, parts: [{ type: 'text', text: 'x' }] }], call).map((m) => [m.role, m.text, m.ids])).toEqual([
      ['assistant', 'Running the tests.\n→ bash {"command":"npm test"}', ['call_9']],
      ['tool', 'exit code 1', []],
    ]);
  });
});
