// Effect memory: once the conversation no longer shows the tool call that had
// an irreversible effect (rewound, cleared, compacted), the next
// UserPromptSubmit or SessionStart names it once, with its compensation.
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;
let transcript: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-memory-', { Dockerfile: 'FROM scratch\n' }));
  transcript = join(dir, 'transcript.jsonl');
});
afterEach(() => removeTempProject(dir));

const hook = (body: Record<string, unknown>) =>
  runCli(['hook', 'claude-code'], { input: JSON.stringify({ cwd: ws, transcript_path: transcript, permission_mode: 'default', ...body }), env: baseEnv(home), cwd: ws });

const line = (entry: Record<string, unknown>) => `${JSON.stringify(entry)}\n`;
const user = (uuid: string, parentUuid: string | null, content: unknown) => line({ type: 'user', uuid, parentUuid, isSidechain: false, message: { role: 'user', content } });
const assistant = (uuid: string, parentUuid: string, content: unknown) => line({ type: 'assistant', uuid, parentUuid, isSidechain: false, message: { role: 'assistant', content } });

/** A conversation in which the model pushed an image (tool call toolu_push) and the push happened. */
async function pushedInConversation(): Promise<void> {
  await writeFile(
    transcript,
    user('u1', null, 'ship it') +
      assistant('a1', 'u1', [{ type: 'tool_use', id: 'toolu_push', name: 'Bash', input: { command: 'docker push ghcr.io/o/app:1' } }]) +
      user('u2', 'a1', [{ type: 'tool_result', tool_use_id: 'toolu_push', content: 'pushed' }]) +
      assistant('a2', 'u2', [{ type: 'text', text: 'done' }]),
  );
  const call = { session_id: 'sess-1', tool_name: 'Bash', tool_input: { command: 'docker push ghcr.io/o/app:1' }, tool_use_id: 'toolu_push' };
  expect((await hook({ ...call, hook_event_name: 'PreToolUse' })).code).toBe(0);
  expect((await hook({ ...call, hook_event_name: 'PostToolUse', tool_response: { stdout: 'pushed', stderr: '', interrupted: false } })).code).toBe(0);
}

const reminder = async (event: string, session = 'sess-1'): Promise<string | null> => {
  const r = await hook({ session_id: session, hook_event_name: event, ...(event === 'UserPromptSubmit' ? { prompt: 'next' } : { source: 'compact' }) });
  expect(r.code).toBe(0);
  if (r.stdout === '') return null;
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(out.hookSpecificOutput.hookEventName).toBe(event);
  return out.hookSpecificOutput.additionalContext;
};

describe('effect memory (claude-code)', () => {
  it('says nothing while the conversation still shows the call', async () => {
    await pushedInConversation();
    expect(await reminder('UserPromptSubmit')).toBeNull();
  });

  it('reminds once after a compaction, with the compensation', async () => {
    await pushedInConversation();
    // Compaction: a new chain starts from a boundary; the old messages stay in the file.
    await appendFile(
      transcript,
      line({ type: 'system', subtype: 'compact_boundary', uuid: 'c1', parentUuid: null, logicalParentUuid: 'a2', isSidechain: false }) +
        user('u3', 'c1', 'This session is being continued from a previous conversation…'),
    );
    const text = await reminder('SessionStart');
    expect(text).toContain('already happened outside the workspace and were not undone');
    expect(text).toContain('ghcr.io/o/app:1');
    expect(text).toMatch(/undo with: |no command can undo it/);
    // Once per effect and session.
    expect(await reminder('UserPromptSubmit')).toBeNull();
  });

  it('reminds after a rewind to before the call', async () => {
    await pushedInConversation();
    // Rewound to the first prompt: the conversation continues from u1; the abandoned branch stays in the file.
    await appendFile(transcript, assistant('a3', 'u1', [{ type: 'text', text: 'what next?' }]));
    expect(await reminder('UserPromptSubmit')).toContain('ghcr.io/o/app:1');
  });

  it('reminds a cleared conversation (a new session) of effects of the work before it', async () => {
    await pushedInConversation();
    await writeFile(transcript, user('n1', null, 'hello again'));
    expect(await reminder('SessionStart', 'sess-2')).toContain('ghcr.io/o/app:1');
    expect(await reminder('UserPromptSubmit', 'sess-2')).toBeNull();
  });

  it('never reminds of an effect that failed or was denied', async () => {
    const call = { session_id: 'sess-1', tool_name: 'Bash', tool_input: { command: 'docker push ghcr.io/o/app:1' }, tool_use_id: 'toolu_push' };
    await hook({ ...call, hook_event_name: 'PreToolUse' });
    await hook({ ...call, hook_event_name: 'PostToolUseFailure', error: 'exit 1' });
    await writeFile(transcript, user('n1', null, 'hello'));
    expect(await reminder('UserPromptSubmit')).toBeNull();
  });
});
