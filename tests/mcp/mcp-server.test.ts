// The MCP server driven by the SDK's own Client over stdio, as an agent would:
// the eleven tools, and request_restore refused, approved, timed out and
// withdrawn — the workspace changes only when a person approves.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, treeFingerprint, type Sandbox } from '../cli/run-cli.js';
import { CLI_PATH } from '../paths.js';
import type { PromptRecord } from '../../shared/model.js';
import { buildHistory } from '../prompts/history.js';

let sb: Sandbox;
let client: Client;
let protocolErrors: Error[];

async function connect(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, 'mcp', '--workspace', sb.workspace],
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', CHRONOSCOPE_HOME: sb.home },
    cwd: sb.workspace,
    stderr: 'pipe',
  });
  const c = new Client({ name: 'test-agent', version: '1.0.0' });
  c.onerror = (err) => protocolErrors.push(err);
  await c.connect(transport);
  return c;
}

/** The JSON a tool answered with; fails the test on an error result. */
async function call<T>(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal } = {}): Promise<T> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000, ...options });
  const content = result.content as Array<{ type: string; text: string }>;
  if (result.isError) throw new Error(`${name} failed: ${content[0]?.text}`);
  return JSON.parse(content[0]?.text ?? 'null') as T;
}

function write(rel: string, text: string): void {
  fs.writeFileSync(path.join(sb.workspace, rel), text);
}

interface Listed {
  id: string;
  workspace: string;
  checkpoint: string;
  paths: string[];
  requested_at: string;
  status: string;
  before_prompt?: { id: string; first_line: string };
}

/** Waits (through the real CLI) until the agent's request is waiting for an answer. */
async function pendingRequest(): Promise<Listed> {
  for (let i = 0; i < 200; i++) {
    const listed = sb.json<Listed[]>(['approve', '--list']);
    if (listed.length > 0) return listed[0] as Listed;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no request appeared');
}

beforeEach(async () => {
  sb = makeSandbox();
  protocolErrors = [];
  write('app.txt', 'version one\n');
  sb.json(['snapshot', '-m', 'one']);
  write('app.txt', 'version two\n');
  write('new.txt', 'added later\n');
  sb.json(['snapshot', '-m', 'two']);
  client = await connect();
});

afterEach(async () => {
  await client.close();
  expect(protocolErrors).toEqual([]); // stdout carried nothing but protocol
  sb.cleanup();
});

describe('chronoscope mcp', () => {
  it('offers the eleven tools, and the read-only ones answer', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['bisect', 'checkpoint', 'diff', 'fork', 'list_checkpoints', 'list_effects', 'list_prompts', 'request_restore', 'restore_before_prompt', 'show_checkpoint', 'verify']);

    const listed = await call<Array<{ id: string; reason: string }>>('list_checkpoints', {});
    expect(listed.map((c) => c.reason)).toEqual(['two', 'one']);
    const shown = await call<{ files: Array<{ path: string }> }>('show_checkpoint', { id: 'latest' });
    expect(shown.files.map((f) => f.path).sort()).toEqual(['app.txt', 'new.txt']);
    const diff = await call<{ files: Array<{ path: string }>; file_diffs: Array<{ diff: string }> }>('diff', { id: '1', paths: ['app.txt'] });
    expect(diff.file_diffs[0]?.diff).toMatch(/-version one\n\+version two/);
    expect(await call<unknown[]>('list_effects', {})).toEqual([]);

    write('app.txt', 'version three\n');
    const taken = await call<{ id: string; checkpoint: { agent: string } }>('checkpoint', { reason: 'before my edit' });
    expect(taken.checkpoint.agent).toBe('test-agent');

    const fork = await call<{ id: string; path: string }>('fork', { id: '3' });
    expect(fs.readFileSync(path.join(fork.path, 'app.txt'), 'utf8')).toBe('version one\n');
    fs.rmSync(fork.path, { recursive: true });
    // An agent names only a folder beside the workspace, never a path elsewhere.
    const elsewhere = await client.callTool({ name: 'fork', arguments: { id: '3', to: path.join(sb.home, '..', 'escape') } });
    expect(elsewhere.isError).toBe(true);
    expect(fs.existsSync(path.join(sb.home, '..', 'escape'))).toBe(false);
    const named = await call<{ path: string }>('fork', { id: '3', to: 'named-fork' });
    expect(named.path).toBe(path.join(path.dirname(fs.realpathSync(sb.workspace)), 'named-fork'));

    // The verifier is the person's: with none set, the agent cannot verify.
    const noVerifier = await client.callTool({ name: 'verify', arguments: { id: 'latest' } });
    expect(noVerifier.isError).toBe(true);
    // Bad input never reaches git.
    const bad = await client.callTool({ name: 'show_checkpoint', arguments: { id: 'HEAD~1' } });
    expect(bad.isError).toBe(true);
  });

  it('verifies and bisects with the verifier the person set', async () => {
    fs.writeFileSync(path.join(sb.home, 'config.json'), JSON.stringify({ verifier: { [fs.realpathSync(sb.workspace)]: 'grep -q one app.txt' } }));
    const good = await call<{ passed: boolean }>('verify', { id: '2' });
    expect(good.passed).toBe(true);
    const bad = await call<{ passed: boolean }>('verify', { id: '1' });
    expect(bad.passed).toBe(false);
    const ends = await call<{ first_bad: string; runs: unknown[] }>('bisect', { good: '2', bad: '1' });
    expect(ends.runs).toEqual([]); // adjacent ends: trusted, nothing to run

    fs.writeFileSync(path.join(sb.home, 'config.json'), JSON.stringify({ verifier: { [fs.realpathSync(sb.workspace)]: '! grep -q broken app.txt' } }));
    for (const text of ['fine 3', 'fine 4', 'broken 5', 'broken 6']) {
      write('app.txt', `${text}\n`);
      sb.json(['snapshot', '-m', text]);
    }
    const listed = await call<Array<{ id: string; reason: string }>>('list_checkpoints', {});
    const progress: string[] = [];
    const result = await client.callTool({ name: 'bisect', arguments: { good: '6', bad: '1' } }, undefined, { timeout: 120_000, onprogress: (p) => progress.push(p.message ?? '') });
    const found = JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '{}') as { first_bad: string; last_good: string };
    expect(found.first_bad).toBe(listed.find((c) => c.reason === 'broken 5')?.id);
    expect(found.last_good).toBe(listed.find((c) => c.reason === 'fine 4')?.id);
    expect(progress.some((m) => m.startsWith('verifying'))).toBe(true);
  });

  it('request_restore: refused by the person, the workspace is unchanged', async () => {
    const before = treeFingerprint(sb.workspace);
    const answer = call<{ status: string }>('request_restore', { id: '2', timeout_s: 60 });
    const request = await pendingRequest();
    expect(Object.keys(request).sort()).toEqual(['checkpoint', 'id', 'paths', 'requested_at', 'status', 'workspace']);
    expect(request.status).toBe('pending');
    expect(treeFingerprint(sb.workspace)).toBe(before); // waiting changes nothing
    // In a terminal, the person sees what approving would change before answering.
    expect(sb.cli(['approve', '--list']).stdout).toContain(`${request.id}: approving would restore ${request.checkpoint.slice(0, 8)}: 1 overwritten, 1 deleted`);
    expect(sb.cli(['deny', request.id]).code).toBe(0);
    expect((await answer).status).toBe('denied');
    expect(treeFingerprint(sb.workspace)).toBe(before);
    expect(sb.cli(['approve', request.id]).code).toBe(1); // already answered
    expect(treeFingerprint(sb.workspace)).toBe(before);
  });

  it('request_restore: approved by the person, restored with a safety checkpoint', async () => {
    const answer = call<{ status: string; result: { restored: string; safety: string } }>('request_restore', { id: '2', paths: ['app.txt'], timeout_s: 60 });
    const request = await pendingRequest();
    expect(request.paths).toEqual(['app.txt']);
    expect(fs.readFileSync(path.join(sb.workspace, 'app.txt'), 'utf8')).toBe('version two\n');
    const approved = sb.cli(['approve', request.id]);
    expect(approved.code, approved.stderr).toBe(0);
    const outcome = await answer;
    expect(outcome.status).toBe('approved');
    expect(outcome.result.restored).toBe(request.checkpoint);
    expect(fs.readFileSync(path.join(sb.workspace, 'app.txt'), 'utf8')).toBe('version one\n');
    expect(fs.existsSync(path.join(sb.workspace, 'new.txt'))).toBe(true); // only the asked-for path
    expect(sb.json<Array<{ id: string }>>(['list']).map((c) => c.id)).toContain(outcome.result.safety);
  });

  it('request_restore: nobody answers, it expires and the workspace is unchanged', async () => {
    const before = treeFingerprint(sb.workspace);
    const outcome = await call<{ status: string; id: string }>('request_restore', { id: '2', timeout_s: 1 });
    expect(outcome.status).toBe('expired');
    expect(treeFingerprint(sb.workspace)).toBe(before);
    expect(sb.json<Listed[]>(['approve', '--list'])).toEqual([]);
    expect(sb.cli(['approve', outcome.id]).code).toBe(1); // too late
    expect(treeFingerprint(sb.workspace)).toBe(before);
  });

  it('request_restore: a cancelled call withdraws its request', async () => {
    const before = treeFingerprint(sb.workspace);
    const controller = new AbortController();
    const answer = call('request_restore', { id: '2', timeout_s: 60 }, { signal: controller.signal });
    const request = await pendingRequest();
    controller.abort();
    await expect(answer).rejects.toThrow();
    for (let i = 0; i < 100; i++) {
      const all = sb.json<Listed[]>(['approve', '--list', '--all']);
      if (all[0]?.status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(sb.json<Listed[]>(['approve', '--list', '--all']).find((r) => r.id === request.id)?.status).toBe('withdrawn');
    expect(sb.cli(['approve', request.id]).code).toBe(1);
    expect(treeFingerprint(sb.workspace)).toBe(before);
  });
});

// Issue 41: the prompts of a history made as an agent's hooks make it (tests/prompts/history.ts).
describe('chronoscope mcp: prompts', () => {
  it('list_prompts lists the prompts newest first with their checkpoints; show_checkpoint carries prompt and intent', async () => {
    const h = await buildHistory(sb.home, sb.workspace);
    const listed = await call<PromptRecord[]>('list_prompts', {});
    expect(listed.map((p) => p.id)).toEqual([...h.prompts].reverse().map((p) => p.id));
    expect(listed[1]).toMatchObject({ text: 'Fix the flaky test\nIt fails one run in three.', first: h.c2, last: h.c2, files: 3 });
    expect((await call<PromptRecord[]>('list_prompts', { limit: 1 })).map((p) => p.id)).toEqual([h.prompts[2].id]);
    const shown = await call<{ prompt: PromptRecord | null; intent: string | null }>('show_checkpoint', { id: h.c3 });
    expect([shown.prompt?.id, shown.intent]).toEqual([h.prompts[2].id, 'Move both reads behind the storage module.']);
  });

  it('restore_before_prompt waits for the person: denied changes nothing; approved restores, shell-made changes included', async () => {
    const h = await buildHistory(sb.home, sb.workspace);
    const before = treeFingerprint(sb.workspace);
    const denied = call<{ status: string; prompt: { id: string } }>('restore_before_prompt', { prompt: h.prompts[1].id, timeout_s: 60 });
    const first = await pendingRequest();
    expect(first.checkpoint).toBe(h.c1); // the checkpoint latest when the prompt was given
    // The person is told which prompt it goes back before, not only a checkpoint id.
    expect(first.before_prompt).toEqual({ id: h.prompts[1].id, first_line: 'Fix the flaky test' });
    const listed = sb.cli(['approve', '--list']);
    expect(listed.stdout).toContain(`${first.id}: approving would put it back as before the prompt "Fix the flaky test"`);
    expect(treeFingerprint(sb.workspace)).toBe(before); // waiting changes nothing
    expect(sb.cli(['deny', first.id]).code).toBe(0);
    expect(await denied).toMatchObject({ status: 'denied', prompt: { id: h.prompts[1].id } });
    expect(treeFingerprint(sb.workspace)).toBe(before);

    const approved = call<{ status: string; result: { restored: string; safety: string } }>('restore_before_prompt', { prompt: h.prompts[1].id, timeout_s: 60 });
    const second = await pendingRequest();
    expect(sb.cli(['approve', second.id]).code).toBe(0);
    const outcome = await approved;
    expect(outcome.status).toBe('approved');
    expect(outcome.result.restored).toBe(h.c1);
    expect(fs.readFileSync(path.join(sb.workspace, 'old.txt'), 'utf8')).toBe('legacy\n'); // the shell command removed it
    expect(fs.existsSync(path.join(sb.workspace, 'gen.txt'))).toBe(false); // the shell command wrote it
    // Named by the prompt, as the person approved it.
    expect(sb.json<{ title: string }[]>(['list', '-n', '1'])[0]?.title).toBe('Restored the workspace to before the prompt ‘Fix the flaky test’');
  });

  it('restore_before_prompt refuses a malformed or unknown prompt id without asking anyone', async () => {
    await buildHistory(sb.home, sb.workspace);
    for (const [prompt, says] of [
      ['HEAD~1', 'a prompt id from list_prompts'],
      ['p0000000deadbeef', 'no prompt p0000000deadbeef in this workspace'],
    ] as const) {
      const result = await client.callTool({ name: 'restore_before_prompt', arguments: { prompt, timeout_s: 1 } });
      expect(result.isError, prompt).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]?.text).toContain(says);
    }
    expect(sb.json<Listed[]>(['approve', '--list', '--all'])).toEqual([]);
  });
});
