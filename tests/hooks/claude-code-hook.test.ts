// The hook as Claude Code runs it: a real process, a JSON payload on stdin.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, EffectRecord } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import { git, gitBackdated } from '../effects/git-helpers.js';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-hook-'));
  home = join(dir, 'store');
  ws = join(dir, 'project');
  await mkdir(join(ws, 'src'), { recursive: true });
  await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 41;\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function payload(event: string, tool: string, toolInput: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: 'sess-1',
    transcript_path: join(dir, 'transcript.jsonl'),
    cwd: ws,
    hook_event_name: event,
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: 'toolu_01',
    permission_mode: 'default',
    ...extra,
  });
}

const hook = (input: string, env: NodeJS.ProcessEnv = baseEnv(home)) => runCli(['hook', 'claude-code'], { input, env, cwd: ws });

async function checkpoints(): Promise<Checkpoint[]> {
  const r = await runCli(['list', '--json', '--all', '-w', ws], { env: baseEnv(home) });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Checkpoint[];
}

async function effects(): Promise<EffectRecord[]> {
  const r = await runCli(['effects', '--json', '-w', ws], { env: baseEnv(home) });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as EffectRecord[];
}

describe('chronoscope hook claude-code', () => {
  it('first seen by a hook, a workspace gets its baseline before anything changes', async () => {
    const r = await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts'), old_string: '41', new_string: '42' }));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const list = await checkpoints();
    expect(list.map((c) => c.trigger)).toEqual(['baseline']);
    expect(list[0]).toMatchObject({ reason: 'Edit src/app.ts', agent: 'claude-code', tool: 'Edit', tool_use_id: 'toolu_01' });
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    const store = await openStore({ home });
    const diff = await (await store.workspace(ws)).fileDiff(list[0]!.id, 'workspace', 'src/app.ts');
    expect(diff.old.text).toBe('export const answer = 41;\n');
  });

  it('takes a checkpoint before an Edit runs, holding the file as it was', async () => {
    expect((await runCli(['snapshot', '-w', ws], { env: baseEnv(home) })).code).toBe(0);
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 41; // by hand\n');
    const r = await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts'), old_string: '41', new_string: '42' }));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const [cp] = await checkpoints();
    expect(cp).toMatchObject({ trigger: 'hook', reason: 'Edit src/app.ts', agent: 'claude-code', tool: 'Edit', session: 'sess-1', tool_use_id: 'toolu_01' });

    // The edit happens; the checkpoint still has the old text.
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    const store = await openStore({ home });
    const diff = await (await store.workspace(ws)).fileDiff(cp!.id, 'workspace', 'src/app.ts');
    expect(diff.old.text).toBe('export const answer = 41; // by hand\n');
    expect(diff.new.text).toBe('export const answer = 42;\n');
  });

  it('captures other files changed since the last checkpoint too (a full scan)', async () => {
    await hook(payload('PreToolUse', 'Write', { file_path: join(ws, 'src', 'app.ts'), content: 'x' }));
    await writeFile(join(ws, 'notes.txt'), 'changed by hand\n');
    await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts') }, { tool_use_id: 'toolu_02' }));
    const [latest] = await checkpoints();
    expect(latest?.tool_use_id).toBe('toolu_02');
    const store = await openStore({ home });
    const shown = await (await store.workspace(ws)).show(latest!.id);
    expect(shown.files.map((f) => f.path)).toContain('notes.txt');
  });

  it('asks before a git push, naming the compensation, and records what became of it', async () => {
    const bare = join(dir, 'remote.git');
    git(dir, 'init', '-q', '--bare', bare);
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'remote', 'add', 'origin', bare);
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'one');
    // Pushed before Chronoscope knew the workspace (reflog times are whole
    // seconds, so a push in the same second as registration would count).
    gitBackdated(ws, 120, 'push', '-q', '-u', 'origin', 'main');
    const old = git(ws, 'rev-parse', 'HEAD');
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    git(ws, 'commit', '-q', '-am', 'two');
    const next = git(ws, 'rev-parse', 'HEAD');

    const r = await hook(payload('PreToolUse', 'Bash', { command: 'npm test && git push origin main', description: 'push' }));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(out.hookSpecificOutput.permissionDecision).toBe('ask');
    const compensation = `git push --force-with-lease=refs/heads/main:${next} origin ${old}:refs/heads/main`;
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain(compensation);
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('origin/main');

    const [cp] = await checkpoints();
    // The hook met this workspace first: its checkpoint is the baseline, with the call's details.
    expect(cp).toMatchObject({ trigger: 'baseline', tool: 'Bash', tool_use_id: 'toolu_01' });
    expect(cp!.reason).toBe('Bash: npm test && git push origin main');
    let recorded = await effects();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ kind: 'git_push', status: 'intended', source: 'hook', tool_use_id: 'toolu_01', checkpoint: cp!.id, compensation });

    // The person allowed it; the push ran; PostToolUse reports it.
    git(ws, 'push', '-q', 'origin', 'main');
    const post = await hook(
      payload('PostToolUse', 'Bash', { command: 'npm test && git push origin main' }, { tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false } }),
    );
    expect(post).toMatchObject({ code: 0, stdout: '' });
    recorded = await effects();
    const fromHook = recorded.filter((e) => e.source === 'hook');
    expect(fromHook.map((e) => e.status)).toEqual(['happened']);
    // The reflog saw the same push, with the exact commits.
    const fromReflog = recorded.filter((e) => e.source === 'reflog');
    expect(fromReflog).toHaveLength(1);
    expect(fromReflog[0]).toMatchObject({ old_commit: old, new_commit: next });
  });

  it('records a failed effect from PostToolUseFailure', async () => {
    await hook(payload('PreToolUse', 'Bash', { command: 'docker push ghcr.io/o/app:1' }));
    await hook(payload('PostToolUseFailure', 'Bash', { command: 'docker push ghcr.io/o/app:1' }, { error: 'exit 1' }));
    expect((await effects()).map((e) => [e.kind, e.status])).toEqual([['container_push', 'failed']]);
  });

  it('gives no decision for a harmless command, and records nothing for it', async () => {
    const r = await hook(payload('PreToolUse', 'Bash', { command: 'ls -la && echo "git push origin main"' }));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(await effects()).toEqual([]);
  });

  it('ignores tools and events it does not handle', async () => {
    const r = await hook(payload('PreToolUse', 'Read', { file_path: join(ws, 'src', 'app.ts') }));
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const s = await hook(JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'Stop', stop_hook_active: false }));
    expect(s).toMatchObject({ code: 0, stdout: '' });
    expect(await checkpoints()).toEqual([]);
  });

  it('fails open with an unwritable store: exit 0, no decision, even for a push', async () => {
    const notADir = join(dir, 'store-is-a-file');
    await writeFile(notADir, 'not a folder');
    for (const input of [
      payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts') }),
      payload('PreToolUse', 'Bash', { command: 'git push origin main' }),
    ]) {
      const r = await hook(input, baseEnv(notADir));
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('fails open on input that is not a payload', async () => {
    for (const input of ['', 'not json', '[]', '{"cwd": 5}']) {
      const r = await hook(input);
      expect(r).toMatchObject({ code: 0, stdout: '' });
    }
  });

  it('gives up within its time budget when the workspace is busy: exit 0, no decision, no checkpoint', async () => {
    const store = await openStore({ home });
    const workspace = await store.workspace(ws);
    const target = join(home, 'workspaces', workspace.meta.id, 'writer.lock');
    await writeFile(target, '', { flag: 'a' });
    // Another writer (this test) holds the engine's lock, the way a long restore would.
    const release = await lockfile.lock(target, { realpath: false, stale: 60_000, update: 5_000 });
    try {
      const env = baseEnv(home, { CHRONOSCOPE_HOOK_BUDGET_MS: '300' });
      const edit = await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts') }), env);
      expect(edit.code).toBe(0);
      expect(edit.stdout).toBe('');
      expect(edit.stderr).toContain('gave up');
      const push = await hook(payload('PreToolUse', 'Bash', { command: 'git push origin main' }), env);
      expect(push).toMatchObject({ code: 0, stdout: '' });
    } finally {
      await release();
    }
    expect(await workspace.list()).toEqual([]);
  });
});
