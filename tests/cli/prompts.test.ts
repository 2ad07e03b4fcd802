// `chronoscope list --prompts`, `show --json`'s prompt and intent,
// `restore --before-prompt` and `why`, as real CLI processes over the real
// store, on a history made as an agent's hooks make it (tests/prompts/history.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, PromptRecord, RestoreResult } from '../../shared/model.js';
import type { WhyFile, WhyLine } from '../../electron/prompts/why.js';
import { buildHistory, type History } from '../prompts/history.js';
import { makeSandbox, treeFingerprint, type Sandbox } from './run-cli.js';

let sb: Sandbox;
let h: History;

beforeEach(async () => {
  sb = makeSandbox();
  h = await buildHistory(sb.home, sb.workspace);
});
afterEach(() => sb.cleanup());

const read = (rel: string): string => readFileSync(join(sb.workspace, rel), 'utf8');

describe('chronoscope list --prompts', () => {
  it('lists each prompt newest first with its checkpoints, files changed and failed calls', () => {
    const [p1, p2, p3] = h.prompts;
    const listed = sb.json<PromptRecord[]>(['list', '--prompts']);
    expect(listed.map((p) => p.id)).toEqual([p3.id, p2.id, p1.id]);
    expect(listed[0]).toMatchObject({ text: 'Refactor the storage', agent: 'claude-code', session: 'sess-1', before: h.c2, first: h.c3, last: h.c3, checkpoints: 1, files: 1 });
    // The shell command's prompt: a.ts rewritten, gen.txt written, old.txt removed.
    expect(listed[1]).toMatchObject({ text: 'Fix the flaky test\nIt fails one run in three.', before: h.c1, first: h.c2, last: h.c2, checkpoints: 1, files: 3 });
    expect(listed[1]?.failed_calls.map((c) => [c.reason, c.exit_code])).toEqual([['Bash: npm test', 1]]);
    expect(listed[2]).toMatchObject({ before: h.base, first: h.c1, last: h.c1, files: 1, failed_calls: [] });

    const human = sb.cli(['list', '--prompts']);
    expect(human.code).toBe(0);
    const lines = human.stdout.split('\n');
    expect(lines[0]).toMatch(/^PROMPT\s+WHEN\s+AGENT\s+SESSION\s+CHECKPOINTS\s+N\s+FILES\s+ASKED$/);
    expect(lines[1]).toContain(p3.id);
    expect(lines[1]).toContain('"Refactor the storage"');
    expect(lines[2]).toContain(`${h.c2.slice(0, 8)}`);
    // Only the first line of a long prompt, and its failed call said.
    expect(lines[2]).toContain('"Fix the flaky test" (1 failed call)');
    expect(sb.json<PromptRecord[]>(['list', '--prompts', '--limit', '1']).map((p) => p.id)).toEqual([p3.id]);
  });
});

describe('chronoscope show --json', () => {
  it('carries the prompt a checkpoint was made under and the intent of the call that made it', () => {
    const shown = sb.json<{ checkpoint: Checkpoint; prompt: PromptRecord | null; intent: string | null; call: { reason: string } | null }>(['show', h.c2]);
    expect(shown.checkpoint.prompt_id).toBe(h.prompts[1].id);
    expect(shown.prompt).toMatchObject({ id: h.prompts[1].id, text: 'Fix the flaky test\nIt fails one run in three.' });
    expect(shown.intent).toBe('Regenerate and drop the legacy file.');
    expect(shown.call?.reason).toBe('Bash: sed … && rm old.txt');
    const person = sb.json<{ prompt: unknown; intent: unknown }>(['show', h.person]);
    expect([person.prompt, person.intent]).toEqual([null, null]);
    const human = sb.cli(['show', h.c3]);
    expect(human.stdout).toMatch(/prompt\s+p\w+\s+"Refactor the storage"/);
    expect(human.stdout).toContain('intent   "Move both reads behind the storage module."');
  });
});

describe('chronoscope restore --before-prompt', () => {
  it('previews (with the effects that stay) and changes nothing without --yes', () => {
    const before = treeFingerprint(sb.workspace);
    const checkpoints = sb.json<Checkpoint[]>(['list', '--all']).length;
    const preview = sb.cli(['restore', '--before-prompt', h.prompts[1].id]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toContain(`before prompt ${h.prompts[1].id} "Fix the flaky test"`);
    expect(preview.stdout).toContain(h.c1.slice(0, 8));
    expect(preview.stdout).toContain('gen.txt');
    expect(preview.stdout).toContain('old.txt');
    expect(preview.stdout).toMatch(/1 irreversible effect since then stay/);
    expect(preview.stdout).toContain('pushed main to origin');
    expect(preview.stdout).toContain('nothing changed; run again with --yes');
    const json = sb.json<{ applied: boolean; preview: { target: string }; effects_since: { summary: string }[] }>(['restore', '--before-prompt', h.prompts[1].id]);
    expect(json.applied).toBe(false);
    expect(json.preview.target).toBe(h.c1);
    expect(json.effects_since.map((e) => e.summary)).toEqual(['pushed main to origin']);
    expect(treeFingerprint(sb.workspace)).toBe(before);
    expect(sb.json<Checkpoint[]>(['list', '--all'])).toHaveLength(checkpoints);
  });

  it('with --yes puts back every file as before the prompt, shell-made changes included, after a safety checkpoint; undoable', () => {
    const after = treeFingerprint(sb.workspace);
    const run = sb.json<RestoreResult & { prompt: PromptRecord }>(['restore', '--before-prompt', h.prompts[1].id, '--yes']);
    expect(run.restored).toBe(h.c1);
    expect(run.prompt.id).toBe(h.prompts[1].id);
    expect(read('src/a.ts')).toBe('const alpha = 1;\nconst beta = jwt();\nconst gamma = 3;\n');
    expect(read('old.txt')).toBe('legacy\n'); // removed by the shell command, back
    expect(existsSync(join(sb.workspace, 'gen.txt'))).toBe(false); // written by it, gone
    const safety = sb.json<Checkpoint>(['show', run.safety]) as unknown as { checkpoint: Checkpoint };
    expect(safety.checkpoint.trigger).toBe('safety');
    // Named by the prompt (what the person remembers), not by the checkpoint before it.
    const titles = (): string[] => (sb.json<(Checkpoint & { title: string })[]>(['list', '-n', '2'])).map((c) => c.title);
    expect(titles()).toEqual(['Restored the workspace to before the prompt ‘Fix the flaky test’', 'Before restoring the workspace to before the prompt ‘Fix the flaky test’']);
    // Undo: the safety checkpoint holds the state before the restore.
    expect(sb.cli(['restore', run.safety, '--yes']).code).toBe(0);
    expect(treeFingerprint(sb.workspace)).toBe(after);
    expect(titles()[0]).toBe('Undid the restore of the workspace to before the prompt ‘Fix the flaky test’');
  });

  it('refuses a malformed (exit 2) or unknown (exit 1, as an unknown checkpoint) prompt id in one line, changing nothing', () => {
    writeFileSync(join(sb.workspace, 'src/a.ts'), 'unsaved work\n');
    const before = treeFingerprint(sb.workspace);
    const count = sb.json<Checkpoint[]>(['list', '--all']).length;
    for (const [args, code, message] of [
      [['--before-prompt', 'HEAD~1'], 2, /^chronoscope: not a prompt id: "HEAD~1"/],
      [['--before-prompt', 'p0000000deadbeef'], 1, /^chronoscope: no prompt p0000000deadbeef in this workspace/],
      [['--before-prompt', 'p0000000deadbeef', '--yes'], 1, /^chronoscope: no prompt p0000000deadbeef in this workspace/],
      [['--before-prompt', 'p'], 2, /^chronoscope: not a prompt id: "p"/],
      [['latest', '--before-prompt', h.prompts[0].id, '--yes'], 2, /^chronoscope: give a checkpoint id or --before-prompt, not both/],
      [[], 2, /^chronoscope: missing the checkpoint to restore/],
    ] as const) {
      const run = sb.cli(['restore', ...args]);
      expect(run.code, args.join(' ')).toBe(code);
      expect(run.stderr.trim().split('\n')[0]).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toBe('');
    }
    expect(treeFingerprint(sb.workspace)).toBe(before);
    expect(sb.json<Checkpoint[]>(['list', '--all'])).toHaveLength(count);
  });

  it('takes the first characters of a prompt id, as list --prompts shows them', () => {
    const [, p2] = h.prompts;
    const preview = sb.json<{ prompt: { id: string; before: string }; applied: boolean }>(['restore', '--before-prompt', p2.id.slice(0, 10)]);
    expect([preview.prompt.id, preview.prompt.before, preview.applied]).toEqual([p2.id, h.c1, false]);
  });
});

describe('chronoscope why', () => {
  it('names the checkpoint, call, prompt and agent that last changed a line changed under three prompts', () => {
    const [p1, p2, p3] = h.prompts;
    const line2 = sb.json<WhyLine>(['why', 'src/a.ts:2']);
    expect(line2).toMatchObject({ path: 'src/a.ts', line: 2, text: 'const beta = storage.beta();', agent: 'claude-code', as_of: h.person });
    expect(line2.checkpoint.id).toBe(h.c3);
    expect(line2.prompt?.id).toBe(p3.id);
    expect(line2.call).toMatchObject({ tool: 'Edit', intent: 'Move both reads behind the storage module.' });
    // Untouched since the start; and the person's own line.
    const line1 = sb.json<WhyLine>(['why', 'src/a.ts:1']);
    expect([line1.checkpoint.id, line1.prompt, line1.call, line1.agent]).toEqual([h.base, null, null, null]);
    expect(sb.json<WhyLine>(['why', 'src/a.ts:4']).checkpoint.id).toBe(h.person);
    // Back in time: after the shell command's prompt, the line was its.
    expect(sb.cli(['restore', h.c2, '--yes']).code).toBe(0);
    expect(sb.cli(['snapshot']).code).toBe(0);
    const restored = sb.json<WhyLine>(['why', 'src/a.ts:2']);
    expect(restored.text).toBe('const beta = flaky();');
    expect(restored.prompt?.id).toBe(p2.id);
    expect(restored.checkpoint.id).toBe(h.c2);
    void p1;

    // From a subfolder, the path is taken from there (as a shell completes it), and the workspace is the
    // recorded one the folder is in, as git finds its repository; named or not.
    const fromSub = sb.cli(['why', 'a.ts:2', '--json'], { cwd: join(sb.workspace, 'src') });
    expect(fromSub.code, fromSub.stderr).toBe(0);
    expect((JSON.parse(fromSub.stdout) as WhyLine).checkpoint.id).toBe(h.c2);
    const listed = sb.cli(['list', '--json'], { cwd: join(sb.workspace, 'src') });
    expect((JSON.parse(listed.stdout) as Checkpoint[]).length).toBe(sb.json<Checkpoint[]>(['list']).length);
    const human = sb.cli(['why', 'a.ts:2', '--workspace', '..'], { cwd: join(sb.workspace, 'src') });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain('src/a.ts:2  const beta = flaky();');
    expect(human.stdout).toMatch(/prompt\s+p\w+\s+"Fix the flaky test"/);
  });

  it('for a whole file lists the prompts that changed it, newest first', () => {
    const [p1, p2, p3] = h.prompts;
    const file = sb.json<WhyFile>(['why', 'src/a.ts']);
    expect(file.lines).toBe(4);
    expect(file.prompts.map((e) => e.prompt?.id ?? null)).toEqual([null, p3.id, p2.id, p1.id]);
    expect(file.prompts.map((e) => e.checkpoints.map((c) => c.id))).toEqual([[h.person, h.base], [h.c3], [h.c2], [h.c1]]);
    // Lines of today's file: alpha and delta (no prompt), beta and gamma (storage), none left of the others.
    expect(file.prompts.map((e) => e.lines_now)).toEqual([2, 2, 0, 0]);
    const human = sb.cli(['why', 'src/a.ts']);
    expect(human.stdout.split('\n')[0]).toBe('src/a.ts: 4 lines, changed under 3 prompts (newest first)');
  });

  it('says clearly when the path is outside the workspace, the line is past the end, or the file was never recorded', () => {
    for (const [target, code, message] of [
      ['../elsewhere.ts:1', 2, /is outside the workspace/],
      ['src/a.ts:99', 1, /src\/a.ts has 4 lines in its last checkpoint \(\w{8}\); line 99 is past its end/],
      ['src/a.ts:0', 2, /line 0: lines count from 1/],
      ['never.ts', 1, /never.ts was never recorded as a file in this workspace's checkpoints/],
      ['src:1', 1, /src was never recorded as a file/],
      ['src/a.ts:abc', 2, /^chronoscope: "abc" is not a line number: chronoscope why <file>:<line>, lines count from 1$/],
      ['src/a.ts:-1', 2, /^chronoscope: "-1" is not a line number/],
      ['src/a.ts:', 2, /^chronoscope: "" is not a line number/],
    ] as const) {
      const run = sb.cli(['why', target]);
      expect([run.code, run.stdout], target).toEqual([code, '']);
      expect(run.stderr.split('\n')[0]).toMatch(message);
    }
  });
});
