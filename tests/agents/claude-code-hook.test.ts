// The hook as Claude Code runs it: a real process, a JSON payload on stdin.
import { spawnSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { openStore } from '../../electron/engine/index.js';
import { GIT_ENV, git, gitBackdated } from '../effects/git-helpers.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, listCheckpoints, listEffects, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-hook-', { 'src/app.ts': 'export const answer = 41;\n' }));
});
afterEach(() => removeTempProject(dir));

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

const checkpoints = () => listCheckpoints(home, ws);
const effects = () => listEffects(home, ws);

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

  it("records the session's latest prompt (first line) and labels the checkpoints of its tool calls with it", async () => {
    expect((await runCli(['snapshot', '-w', ws], { env: baseEnv(home) })).code).toBe(0);
    const prompt = await hook(payload('UserPromptSubmit', '', {}, { prompt: '  Fix the login bug\nand add a test' }));
    expect(prompt).toMatchObject({ code: 0 });
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 43;\n');
    expect((await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts'), old_string: '43', new_string: '44' }))).code).toBe(0);
    const [cp] = await checkpoints();
    expect(cp).toMatchObject({ trigger: 'hook', session: 'sess-1', prompt: 'Fix the login bug' });
    // Another session's prompt is not this one's.
    await hook(payload('UserPromptSubmit', '', {}, { session_id: 'sess-2', prompt: 'Something else' }));
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 45;\n');
    await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts'), old_string: '45', new_string: '46' }));
    expect((await checkpoints())[0]).toMatchObject({ session: 'sess-1', prompt: 'Fix the login bug' });
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
    // One push, one record: the hook's, completed with the exact commits the reflog saw.
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ source: 'hook', status: 'happened', tool_use_id: 'toolu_01', old_commit: old, new_commit: next, compensation });
    expect(recorded[0]!.reflog_id).toMatch(/^p[0-9a-f]{20}$/);
    // Scanning the reflog again (as the app's live feed does) adds nothing.
    const again = await runCli(['effects', '--json', '-w', ws], { env: baseEnv(home) });
    expect(JSON.parse(again.stdout)).toHaveLength(1);
  });

  it('records a push whose output says "Everything up-to-date" as nothing sent, with nothing to undo', async () => {
    const bare = join(dir, 'remote.git');
    git(dir, 'init', '-q', '--bare', bare);
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'remote', 'add', 'origin', bare);
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'one');
    gitBackdated(ws, 120, 'push', '-q', '-u', 'origin', 'main');
    // The push as the Bash tool runs it: git speaks on stderr.
    const push = (id: string) => {
      const input = { command: 'git push origin main', description: 'Push' };
      const ran = spawnSync('git', ['push', 'origin', 'main'], { cwd: ws, env: GIT_ENV, encoding: 'utf8' });
      expect(ran.status).toBe(0);
      return hook(payload('PostToolUse', 'Bash', input, { tool_use_id: id, tool_response: { stdout: ran.stdout, stderr: ran.stderr, interrupted: false, isImage: false } }));
    };

    // Nothing new to push: asked about, allowed, and it sends nothing.
    const asked = await hook(payload('PreToolUse', 'Bash', { command: 'git push origin main' }, { tool_use_id: 'toolu_same' }));
    expect(JSON.parse(asked.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    expect((await effects())[0]).toMatchObject({ status: 'intended', compensation: expect.stringContaining('git push') });
    expect(await push('toolu_same')).toMatchObject({ code: 0, stdout: '' });
    let recorded = await effects();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ tool_use_id: 'toolu_same', status: 'nothing_sent', compensation: null });
    const text = await runCli(['effects', '-w', ws], { env: baseEnv(home) });
    expect(text.stdout).toContain('nothing_sent');
    expect(text.stdout).toContain('undo: nothing to undo: it ran, but nothing left the machine');

    // A push that did send something is still one that happened, with its undo.
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    git(ws, 'commit', '-q', '-am', 'two');
    await hook(payload('PreToolUse', 'Bash', { command: 'git push origin main' }, { tool_use_id: 'toolu_new' }));
    expect((await push('toolu_new')).code).toBe(0);
    recorded = await effects();
    expect(recorded.map((e) => [e.tool_use_id, e.status])).toEqual([
      ['toolu_same', 'nothing_sent'],
      ['toolu_new', 'happened'],
    ]);
    expect(recorded[1]).toMatchObject({ new_commit: git(ws, 'rev-parse', 'HEAD'), compensation: expect.stringContaining('--force-with-lease') });
  });

  it('records a failed effect from PostToolUseFailure, and tells the model how to see and undo', async () => {
    await hook(payload('PreToolUse', 'Bash', { command: 'docker push ghcr.io/o/app:1' }));
    const [cp] = await checkpoints();
    const r = await hook(
      payload('PostToolUseFailure', 'Bash', { command: 'docker push ghcr.io/o/app:1' }, { error: 'exit 1', is_interrupt: false, duration_ms: 12 }),
    );
    expect((await effects()).map((e) => [e.kind, e.status])).toEqual([['container_push', 'failed']]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('PostToolUseFailure');
    const hint = out.hookSpecificOutput.additionalContext;
    const id = cp!.id.slice(0, 12);
    expect(hint).toContain(`checkpoint ${id}`);
    // The exact commands, runnable as written: absolute node and CLI.
    const diffCommand = `${process.execPath} ${CLI_PATH} diff ${id} workspace -w ${ws}`;
    const restoreCommand = `${process.execPath} ${CLI_PATH} restore ${id} -w ${ws} --yes`;
    expect(hint).toContain(diffCommand);
    expect(hint).toContain(restoreCommand);
  });

  it('gives a recovery hint after a failed Edit, naming the checkpoint taken for that call', async () => {
    await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts') }, { tool_use_id: 'toolu_edit' }));
    await writeFile(join(ws, 'other.txt'), 'later\n');
    await runCli(['snapshot', '-w', ws], { env: baseEnv(home) });
    const r = await hook(payload('PostToolUseFailure', 'Edit', { file_path: join(ws, 'src', 'app.ts') }, { tool_use_id: 'toolu_edit', error: 'String not found' }));
    const own = (await checkpoints()).find((c) => c.tool_use_id === 'toolu_edit');
    expect(own).toBeDefined();
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toContain(`checkpoint ${own!.id.slice(0, 12)}`);
    // The hint's restore command really undoes: run it as the model would.
    await writeFile(join(ws, 'src', 'app.ts'), 'broken\n');
    const restore = await runCli(['restore', own!.id.slice(0, 12), '-w', ws, '--yes'], { env: baseEnv(home) });
    expect(restore.code).toBe(0);
    expect(await readFile(join(ws, 'src', 'app.ts'), 'utf8')).toBe('export const answer = 41;\n');
  });

  it('names the state before the call even when its PreToolUse found nothing to checkpoint and the damage was checkpointed since', async () => {
    // The first call takes the baseline; the second finds nothing changed, so it takes no checkpoint of its own.
    await hook(payload('PreToolUse', 'Bash', { command: 'make prep' }, { tool_use_id: 'toolu_first' }));
    const [before] = await checkpoints();
    await hook(payload('PreToolUse', 'Bash', { command: 'rm -rf src; make' }, { tool_use_id: 'toolu_rm' }));
    expect(await checkpoints()).toHaveLength(1);
    // The command deletes src/ and fails; meanwhile the app's watcher (here: a snapshot) records the damage.
    await rm(join(ws, 'src'), { recursive: true });
    const damage = await runCli(['snapshot', '-w', ws, '--json'], { env: baseEnv(home) });
    expect(damage.code).toBe(0);
    expect((await checkpoints())[0]!.id).not.toBe(before!.id);
    const r = await hook(payload('PostToolUseFailure', 'Bash', { command: 'rm -rf src; make' }, { tool_use_id: 'toolu_rm', error: 'Exit code 2', is_interrupt: false, duration_ms: 4000 }));
    const hint = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(hint).toContain(`checkpoint ${before!.id.slice(0, 12)}`);
    // Its restore command brings src/ back.
    const restore = await runCli(['restore', before!.id.slice(0, 12), '-w', ws, '--yes'], { env: baseEnv(home) });
    expect(restore.code).toBe(0);
    expect(await readFile(join(ws, 'src', 'app.ts'), 'utf8')).toBe('export const answer = 41;\n');
  });

  it('marks an effect denied when PostToolBatch shows the call was refused', async () => {
    await hook(payload('PreToolUse', 'Bash', { command: 'npm publish' }, { tool_use_id: 'toolu_pub' }));
    await hook(payload('PreToolUse', 'Bash', { command: 'docker push ghcr.io/o/app:2' }, { tool_use_id: 'toolu_ok' }));
    await hook(payload('PostToolUse', 'Bash', { command: 'docker push ghcr.io/o/app:2' }, { tool_use_id: 'toolu_ok', tool_response: { stdout: 'pushed', stderr: '' } }));
    const batch = JSON.stringify({
      session_id: 'sess-1',
      cwd: ws,
      hook_event_name: 'PostToolBatch',
      tool_calls: [
        { tool_name: 'Bash', tool_use_id: 'toolu_pub', tool_input: { command: 'npm publish' }, tool_response: "The user doesn't want to proceed with this tool use. The tool use was rejected." },
        { tool_name: 'Bash', tool_use_id: 'toolu_ok', tool_input: { command: 'docker push ghcr.io/o/app:2' }, tool_response: { stdout: 'pushed' } },
      ],
    });
    const r = await hook(batch);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const byId = Object.fromEntries((await effects()).map((e) => [e.tool_use_id, e.status]));
    expect(byId).toEqual({ toolu_pub: 'denied', toolu_ok: 'happened' });
  });

  // Claude Code 2.1.197: a push the person denies at our ask gets no PostToolUse and no
  // PostToolUseFailure, only its entry in PostToolBatch, whose response is the refusal's text.
  it('marks a push denied when its call got neither PostToolUse nor PostToolUseFailure before PostToolBatch, whatever the refusal says', async () => {
    const bare = join(dir, 'remote.git');
    git(dir, 'init', '-q', '--bare', bare);
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'remote', 'add', 'origin', bare);
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'one');
    gitBackdated(ws, 120, 'push', '-q', '-u', 'origin', 'main');
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    git(ws, 'commit', '-q', '-am', 'two');
    const push = { command: 'git push origin main', description: 'Push to origin' };
    const batch = (entries: Record<string, unknown>[]) => JSON.stringify({ session_id: 'sess-1', transcript_path: join(dir, 'transcript.jsonl'), cwd: ws, hook_event_name: 'PostToolBatch', tool_calls: entries });

    // Asked, and the person said no: nothing ran. The wording is not one we know.
    const asked = await hook(payload('PreToolUse', 'Bash', push, { tool_use_id: 'toolu_no' }));
    expect(JSON.parse(asked.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    const refusal = 'Tool call not run: the person chose No at the permission prompt.';
    const r = await hook(
      batch([
        { tool_use_id: 'toolu_no', tool_name: 'Bash', tool_input: push, tool_response: refusal },
        { tool_use_id: 'toolu_read', tool_name: 'Read', tool_input: { file_path: join(ws, 'src', 'app.ts') }, tool_response: '1\texport const answer = 42;' },
      ]),
    );
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await effects()).map((e) => [e.tool_use_id, e.status])).toEqual([['toolu_no', 'denied']]);

    // Asked again and allowed: the push runs, and its PostToolUse comes after the batch.
    await hook(payload('PreToolUse', 'Bash', push, { tool_use_id: 'toolu_yes' }));
    git(ws, 'push', '-q', 'origin', 'main');
    expect((await hook(batch([{ tool_use_id: 'toolu_yes', tool_name: 'Bash', tool_input: push, tool_response: 'To remote.git\n   1234567..89abcde  main -> main' }]))).code).toBe(0);
    const post = await hook(payload('PostToolUse', 'Bash', push, { tool_use_id: 'toolu_yes', tool_response: { stdout: '', stderr: '', interrupted: false, isImage: false } }));
    expect(post).toMatchObject({ code: 0, stdout: '' });
    const byId = new Map((await effects()).map((e) => [e.tool_use_id, e]));
    expect(byId.get('toolu_no')?.status).toBe('denied');
    expect(byId.get('toolu_yes')).toMatchObject({ status: 'happened', new_commit: git(ws, 'rev-parse', 'HEAD') });
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

  it('fails open with an unwritable store: exit 0, no checkpoint — but a push is still asked about', async () => {
    const notADir = join(dir, 'store-is-a-file');
    await writeFile(notADir, 'not a folder');
    const edit = await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts') }), baseEnv(notADir));
    expect(edit).toMatchObject({ code: 0, stdout: '' });
    expect(edit.stderr.trim().split('\n')).toHaveLength(1);
    const push = await hook(payload('PreToolUse', 'Bash', { command: 'git push origin main' }), baseEnv(notADir));
    expect(push.code).toBe(0);
    expect(JSON.parse(push.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    expect(push.stderr.trim().split('\n')).toHaveLength(1);
  });

  // Node's recursive mkdir retries ENOENT there for ever: the hook used to spin its whole budget.
  it.skipIf(process.platform !== 'linux')('fails open at once when the store folder cannot be created (under /proc): one line, not the whole budget', async () => {
    const env = baseEnv('/proc/chronoscope-store', { CHRONOSCOPE_HOOK_BUDGET_MS: '5000' });
    for (const input of [
      payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts') }),
      payload('UserPromptSubmit', '', {}, { prompt: 'Fix the login bug' }),
    ]) {
      const started = Date.now();
      const r = await hook(input, env);
      const took = Date.now() - started;
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expect(r.stderr).not.toContain('gave up');
      expect(took, 'well within the 5 s budget').toBeLessThan(3000);
    }
    const edit = await hook(payload('PreToolUse', 'Edit', { file_path: join(ws, 'src', 'app.ts') }), env);
    expect(edit.stderr.trim().split('\n')).toHaveLength(1);
    expect(edit.stderr).toContain('chronoscope: hook failed open: cannot create the store folder /proc/chronoscope-store: /proc does not take new folders');
  });

  it('refuses a call whose folder does not exist with one line, creating nothing (not even the store)', async () => {
    const gone = join(dir, 'no-such-folder');
    for (const [event, tool, input] of [
      ['PreToolUse', 'Edit', { file_path: join(gone, 'a.ts') }],
      ['PreToolUse', 'Bash', { command: 'git push origin main' }],
      ['PostToolUseFailure', 'Bash', { command: 'make' }],
    ] as const) {
      const r = await hook(payload(event, tool, input, { cwd: gone, error: 'exit 1' }));
      expect(r.code).toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`${gone} does not exist`);
      // The ask is worked out from the command alone: still given.
      if (tool === 'Bash' && event === 'PreToolUse') expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
    }
    expect(existsSync(home), 'the store was not created').toBe(false);
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
      // The point-of-no-return question does not wait for the snapshot: it is asked all the same.
      const push = await hook(payload('PreToolUse', 'Bash', { command: 'git push origin main' }), env);
      expect(push.code).toBe(0);
      expect(JSON.parse(push.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
      expect(push.stderr).toContain('gave up');
    } finally {
      await release();
    }
    expect(await workspace.list()).toEqual([]);
  });
});
