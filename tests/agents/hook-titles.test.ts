// Titles against diffs in a history the real hook process made: each hook
// checkpoint names the change it holds (made by the call before it), and the
// CLI's list and show and the MCP tools say the same words.
import { appendFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, FileChange } from '../../shared/model.js';
import type { CheckpointWords } from '../../shared/checkpoint-words.js';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-titles-', {
    'CHANGELOG.md': '# Changes\n',
    'src/lib/time.ts': 'export const now = () => Date.now();\n',
    'src/legacy-adapter.ts': 'export {};\n',
    'src/models/note.ts': 'export interface Note { text: string }\n',
  }));
});
afterEach(() => removeTempProject(dir));

let n = 0;
async function pre(tool: string, input: Record<string, unknown>): Promise<void> {
  n += 1;
  const payload = { session_id: 'sess-1', transcript_path: join(dir, 'transcript.jsonl'), cwd: ws, hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: `toolu_${n}`, permission_mode: 'default' };
  const r = await runCli(['hook', 'claude-code'], { input: JSON.stringify(payload), env: baseEnv(home), cwd: ws });
  expect(r.code, r.stderr).toBe(0);
}

type Described = Checkpoint & CheckpointWords;

async function cli<T>(args: string[]): Promise<T> {
  const r = await runCli([...args, '--json', '-w', ws], { env: baseEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

/** A history as Claude Code makes it: each call's PreToolUse, then the call's own change. */
async function makeHistory(): Promise<void> {
  await pre('Edit', { file_path: join(ws, 'CHANGELOG.md'), old_string: '# Changes', new_string: '# Changes\n- clock' });
  await writeFile(join(ws, 'CHANGELOG.md'), '# Changes\n- clock\n');
  await pre('Bash', { command: 'rm src/legacy-adapter.ts' });
  await rm(join(ws, 'src/legacy-adapter.ts'));
  await pre('Bash', { command: 'git mv src/lib/time.ts src/lib/clock.ts' });
  await mkdir(join(ws, 'src/lib'), { recursive: true });
  await rename(join(ws, 'src/lib/time.ts'), join(ws, 'src/lib/clock.ts'));
  await pre('Edit', { file_path: join(ws, 'src/models/note.ts'), old_string: 'text', new_string: 'body' });
}

describe('titles of a hook-made history', () => {
  it('each hook checkpoint is titled by the change its diff shows, in the CLI list and show', async () => {
    await makeHistory();
    const listed = await cli<Described[]>(['list', '--all']);
    expect(listed.map((c) => [c.trigger, c.title, c.note])).toEqual([
      ['hook', "git mv src/lib/time.ts src/lib/clock.ts — by Claude Code's Bash", 'before: Edit src/models/note.ts'],
      ['hook', "rm src/legacy-adapter.ts — by Claude Code's Bash", 'before: Bash git mv src/lib/time.ts src/lib/clock.ts'],
      ['hook', "Edit CHANGELOG.md — by Claude Code's Edit", 'before: Bash rm src/legacy-adapter.ts'],
      ['baseline', 'The workspace as first seen', 'before: Edit CHANGELOG.md'],
    ]);
    // The diff of each says the same: the files its title names.
    const files = async (id: string): Promise<string[]> => (await cli<{ files: FileChange[] }>(['show', id])).files.map((f) => f.path).sort();
    expect(await files(listed[2]!.id)).toEqual(['CHANGELOG.md']);
    expect(await files(listed[1]!.id)).toEqual(['src/legacy-adapter.ts']);
    expect(await files(listed[0]!.id)).toEqual(['src/lib/clock.ts']);
    const shown = await cli<{ checkpoint: Described }>(['show', listed[1]!.id]);
    expect(shown.checkpoint).toMatchObject({ title: listed[1]!.title, note: listed[1]!.note, by: "Claude Code's Bash" });
    // The table says it too.
    const table = await runCli(['list', '-w', ws], { env: baseEnv(home) });
    expect(table.stdout).toContain("Edit CHANGELOG.md — by Claude Code's Edit");
    expect(table.stdout).toContain('WHAT CHANGED');
  });

  it("names the call that made a change when calls before it changed nothing (a push, a test run) and took no checkpoint", async () => {
    await makeHistory();
    await writeFile(join(ws, 'src/models/note.ts'), 'export interface Note { body: string }\n');
    await pre('Bash', { command: 'npm test' });
    // Nothing changed since: no checkpoint for these two; the Edit's change is held by the next one.
    await pre('Bash', { command: 'git push origin main' });
    await pre('Edit', { file_path: join(ws, 'src/core/mod0.ts'), old_string: 'a', new_string: 'b' });
    await mkdir(join(ws, 'src/core'), { recursive: true });
    await writeFile(join(ws, 'src/core/mod0.ts'), 'export const b = 1;\n');
    await pre('Bash', { command: 'npm run build' });
    // A person's checkpoint, then a call that changes nothing before the next Edit: still that Edit's change.
    await writeFile(join(ws, 'README.md'), 'notes\n');
    expect((await runCli(['snapshot', '-w', ws, '--reason', 'by hand'], { env: baseEnv(home) })).code).toBe(0);
    await pre('Edit', { file_path: join(ws, 'CHANGELOG.md'), old_string: '- clock', new_string: '- clock\n- core' });
    await writeFile(join(ws, 'CHANGELOG.md'), '# Changes\n- clock\n- core\n');
    await pre('Bash', { command: 'npm test' });
    const listed = await cli<Described[]>(['list', '--all']);
    expect(listed.slice(0, 4).map((c) => [c.title, c.note])).toEqual([
      ["Edit CHANGELOG.md — by Claude Code's Edit", 'before: Bash npm test'],
      ['by hand', null],
      ["Edit src/core/mod0.ts — by Claude Code's Edit", 'before: Bash npm run build'],
      ["Edit src/models/note.ts — by Claude Code's Edit", 'before: Bash npm test'],
    ]);
    const files = async (id: string): Promise<string[]> => (await cli<{ files: FileChange[] }>(['show', id])).files.map((f) => f.path);
    expect(await files(listed[0]!.id)).toEqual(['CHANGELOG.md']);
    expect(await files(listed[2]!.id)).toEqual(['src/core/mod0.ts']);
    // show says the same as list.
    expect((await cli<{ checkpoint: Described }>(['show', listed[2]!.id])).checkpoint).toMatchObject({ title: listed[2]!.title, by: "Claude Code's Edit" });
  });

  it("show and why name the call the title names, with that call's intent: never the call a checkpoint was only taken before, and none for a person's change", async () => {
    const transcript = join(dir, 'transcript.jsonl');
    const say = (entry: unknown): Promise<void> => appendFile(transcript, `${JSON.stringify(entry)}\n`);
    const hook = async (payload: Record<string, unknown>): Promise<void> => {
      const r = await runCli(['hook', 'claude-code'], { input: JSON.stringify({ session_id: 'sess-w', transcript_path: transcript, cwd: ws, permission_mode: 'default', ...payload }), env: baseEnv(home), cwd: ws });
      expect(r.code, r.stderr).toBe(0);
    };
    /** One call as Claude Code makes it: the assistant's words and the call in the transcript, PreToolUse, the change, PostToolUse. */
    const call = async (id: string, tool: string, input: Record<string, unknown>, words: string, change: () => Promise<void>): Promise<void> => {
      await say({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: words }, { type: 'tool_use', id, name: tool, input }] } });
      await hook({ hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: id });
      await change();
      await say({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
      await hook({ hook_event_name: 'PostToolUse', tool_name: tool, tool_input: input, tool_use_id: id, tool_response: tool === 'Bash' ? { stdout: '', stderr: '', interrupted: false } : { filePath: input['file_path'] } });
    };
    await say({ type: 'user', message: { role: 'user', content: 'Rename the clock and note it' } });
    await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'Rename the clock and note it' });
    await call('toolu_mv', 'Bash', { command: 'git mv src/lib/time.ts src/lib/clock.ts && echo renamed > notes.txt' }, 'I will rename time.ts with git mv.', async () => {
      await rename(join(ws, 'src/lib/time.ts'), join(ws, 'src/lib/clock.ts'));
      await writeFile(join(ws, 'notes.txt'), 'renamed\n');
    });
    await call('toolu_ed', 'Edit', { file_path: join(ws, 'CHANGELOG.md'), old_string: '# Changes', new_string: '# Changes\n- clock' }, 'Now the changelog.', () => writeFile(join(ws, 'CHANGELOG.md'), '# Changes\n- clock\n'));
    // A person's edit, then a call that changes nothing.
    await writeFile(join(ws, 'README.md'), 'by hand\n');
    await call('toolu_ls', 'Bash', { command: 'ls' }, 'Let me look around.', async () => undefined);

    const listed = await cli<Described[]>(['list', '--all']);
    const titled = (title: string): Described => {
      const found = listed.find((c) => c.title === title);
      expect(found, JSON.stringify(listed.map((c) => c.title))).toBeDefined();
      return found!;
    };
    type Shown = { intent: string | null; call: { tool: string; tool_use_id?: string } | null; prompt: { text: string } | null };
    const byBash = titled("git mv src/lib/time.ts src/lib/clock.ts && echo renamed > notes.txt — by Claude Code's Bash");
    const shown = await cli<Shown>(['show', byBash.id]);
    expect([shown.call?.tool_use_id, shown.intent, shown.prompt?.text]).toEqual(['toolu_mv', 'I will rename time.ts with git mv.', 'Rename the clock and note it']);
    const line = await cli<{ call: { tool_use_id?: string } | null; checkpoint: { id: string } }>(['why', 'notes.txt:1']);
    expect([line.checkpoint.id, line.call?.tool_use_id]).toEqual([byBash.id, 'toolu_mv']);
    const edit = await cli<Shown>(['show', titled("Edit CHANGELOG.md — by Claude Code's Edit").id]);
    expect([edit.call?.tool_use_id, edit.intent]).toEqual(['toolu_ed', 'Now the changelog.']);
    const person = await cli<Shown>(['show', titled('README.md changed, not by a recorded call').id]);
    expect([person.call, person.intent]).toEqual([null, null]);
    expect(await cli<{ call: unknown; agent: unknown; title: string }>(['why', 'README.md:1'])).toMatchObject({ call: null, agent: null, title: 'README.md changed, not by a recorded call' });
    // The human words say the same: the change's title, never the call it was only taken before as its reason.
    const human = async (args: string[]): Promise<string> => {
      const r = await runCli([...args, '-w', ws], { env: baseEnv(home) });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    };
    const shownText = await human(['show', byBash.id]);
    expect(shownText).toContain("what     git mv src/lib/time.ts src/lib/clock.ts && echo renamed > notes.txt — by Claude Code's Bash");
    expect(shownText).toContain('before: Edit CHANGELOG.md');
    expect(shownText).toContain("taken    by claude-code's hook");
    expect(shownText).not.toMatch(/^(reason|tool)\s/m);
    const whyText = await human(['why', 'notes.txt:1']);
    expect(whyText).toMatch(/^changed in {2}\w{8} {2}.* {2}git mv src\/lib\/time.ts src\/lib\/clock.ts && echo renamed > notes.txt — by Claude Code's Bash$/m);
    expect(whyText).not.toContain('Edit CHANGELOG.md');
  });

  it('a page names a restore by its target\'s own title, as show does, when the target is beyond the page', async () => {
    await makeHistory();
    const listed = await cli<Described[]>(['list', '--all']);
    const target = listed[2]!; // "Edit CHANGELOG.md — by Claude Code's Edit", two rows below the newest
    const r = await runCli(['restore', target.id, '--yes', '-w', ws], { env: baseEnv(home) });
    expect(r.code, r.stderr).toBe(0);
    const page = await cli<Described[]>(['list', '--limit', '1']);
    expect(page[0]!.trigger).toBe('restore');
    expect(page[0]!.title).toContain(`Restored the workspace to ‘${target.title}’`);
    expect((await cli<{ checkpoint: Described }>(['show', page[0]!.id])).checkpoint.title).toBe(page[0]!.title);
  });

  it('the MCP tools list and show the same words', async () => {
    await makeHistory();
    const listed = await cli<Described[]>(['list', '--all']);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp', '--workspace', ws],
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', CHRONOSCOPE_HOME: home },
      cwd: ws,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(transport);
    try {
      const answer = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
        const content = result.content as Array<{ type: string; text: string }>;
        expect(result.isError, content[0]?.text).toBeFalsy();
        return JSON.parse(content[0]?.text ?? 'null') as T;
      };
      const viaMcp = await answer<Described[]>('list_checkpoints', {});
      expect(viaMcp.map((c) => c.title)).toEqual(listed.map((c) => c.title));
      // A page that ends before the first checkpoint: its oldest row does not guess its author.
      const page = await answer<Described[]>('list_checkpoints', { limit: 2 });
      expect(page.map((c) => c.title)).toEqual(listed.slice(0, 2).map((c) => c.title));
      const shown = await answer<{ checkpoint: Described }>('show_checkpoint', { id: listed[2]!.id });
      expect(shown.checkpoint).toMatchObject({ title: "Edit CHANGELOG.md — by Claude Code's Edit", note: 'before: Bash rm src/legacy-adapter.ts' });
    } finally {
      await client.close();
    }
  });
});
