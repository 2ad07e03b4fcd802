// The chronoscope CLI as a person and a script use it: the real built binary,
// real git, a temporary store and workspace per test.
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, FileChange, FileDiff, RestorePreview, RestoreResult, SnapshotResult, WorkspaceStatus } from '../../shared/model.js';
import { makeSandbox, treeFingerprint, type Sandbox } from './run-cli.js';

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

const write = (path: string, text: string): void => {
  mkdirSync(join(box.workspace, path, '..'), { recursive: true });
  writeFileSync(join(box.workspace, path), text);
};
const read = (path: string): string => readFileSync(join(box.workspace, path), 'utf8');

type Snapshotted = Extract<SnapshotResult, { id: string }>;

function snapshot(...args: string[]): Snapshotted {
  const result = box.json<SnapshotResult>(['snapshot', ...args]);
  if (result.id === null) throw new Error(`no checkpoint: ${result.skipped}`);
  return result;
}

describe('round trip', () => {
  it('snapshots, lists, shows, diffs and restores with --json', () => {
    write('src/a.ts', 'export const a = 1;\n');
    write('notes with space.md', 'first\n');
    const first = snapshot('--reason', 'start');
    expect(first.id).toMatch(/^[0-9a-f]{40,64}$/);
    expect(first.files_changed).toBe(2);

    write('src/a.ts', 'export const a = 2;\nexport const b = 3;\n');
    rmSync(join(box.workspace, 'notes with space.md'));
    write('src/new.ts', 'new\n');
    const second = snapshot('--reason', 'edit');
    expect(second.files_changed).toBe(3);

    const list = box.json<Checkpoint[]>(['list']);
    expect(list.map((cp) => cp.id)).toEqual([second.id, first.id]);
    expect(list[0]).toMatchObject({ reason: 'edit', trigger: 'manual', stats: { files: 3 } });
    expect(typeof list[0]?.time).toBe('string');

    const shown = box.json<{ checkpoint: Checkpoint; files: FileChange[] }>(['show', second.id.slice(0, 8)]);
    expect(shown.checkpoint.id).toBe(second.id);
    expect(shown.files.map((f) => [f.path, f.status]).sort()).toEqual([
      ['notes with space.md', 'deleted'],
      ['src/a.ts', 'modified'],
      ['src/new.ts', 'added'],
    ]);

    // `diff <id>`: what that checkpoint changed, i.e. against the one before it.
    const own = box.json<{ from: string; to: string; files: FileChange[] }>(['diff', 'latest']);
    expect(own.from).toBe(first.id);
    expect(own.to).toBe(second.id);
    expect(own.files).toHaveLength(3);
    // `diff <a> <b>` by index.
    const between = box.json<{ files: FileChange[] }>(['diff', '2', '1']);
    expect(between.files.map((f) => f.path).sort()).toEqual(own.files.map((f) => f.path).sort());

    write('src/a.ts', 'export const a = 4;\n');
    const toDisk = box.json<{ to: string; files: FileChange[] }>(['diff', second.id, 'workspace']);
    expect(toDisk.to).toBe('workspace');
    expect(toDisk.files.map((f) => f.path)).toEqual(['src/a.ts']);
    const one = box.json<FileDiff>(['diff', first.id, second.id, '--file', 'src/a.ts']);
    expect(one.old).toMatchObject({ kind: 'text', text: 'export const a = 1;\n' });
    expect(one.new).toMatchObject({ kind: 'text', text: 'export const a = 2;\nexport const b = 3;\n' });
    const human = box.cli(['diff', first.id, second.id, '--file', 'src/a.ts']);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('-export const a = 1;');
    expect(human.stdout).toContain('+export const b = 3;');

    // Preview only: nothing on disk changes.
    const before = treeFingerprint(box.workspace);
    const preview = box.json<{ preview: RestorePreview; applied: boolean }>(['restore', first.id]);
    expect(preview.applied).toBe(false);
    expect(preview.preview.modified).toContain('src/a.ts');
    expect(preview.preview.added).toContain('notes with space.md');
    expect(treeFingerprint(box.workspace)).toBe(before);
    const humanPreview = box.cli(['restore', first.id]);
    expect(humanPreview.code).toBe(0);
    expect(humanPreview.stdout).toContain('nothing changed; run again with --yes');
    expect(treeFingerprint(box.workspace)).toBe(before);

    // Restore for real, then undo through the safety checkpoint.
    const restored = box.json<RestoreResult>(['restore', first.id, '--yes']);
    expect(restored.restored).toBe(first.id);
    expect(restored.safety).toMatch(/^[0-9a-f]{40,64}$/);
    expect(restored.files_changed).toBeGreaterThan(0);
    expect(restored.untracked_removed).toBe(0);
    expect(read('src/a.ts')).toBe('export const a = 1;\n');
    expect(read('notes with space.md')).toBe('first\n');
    expect(existsSync(join(box.workspace, 'src/new.ts'))).toBe(false);

    const undo = box.cli(['restore', restored.safety, '--yes']);
    expect(undo.code).toBe(0);
    expect(undo.stdout).toContain('to undo: chronoscope restore');
    expect(treeFingerprint(box.workspace)).toBe(before);
  });

  it('restores only the given paths and says how to undo', () => {
    write('a.txt', 'a1\n');
    write('b.txt', 'b1\n');
    const first = snapshot();
    write('a.txt', 'a2\n');
    write('b.txt', 'b2\n');
    const run = box.cli(['restore', first.id, '--path', 'a.txt', '--yes']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/to undo: chronoscope restore [0-9a-f]{8} --yes/);
    expect(read('a.txt')).toBe('a1\n');
    expect(read('b.txt')).toBe('b2\n');
  });

  it('says so when nothing changed', () => {
    write('a.txt', 'a\n');
    snapshot();
    const again = box.json<SnapshotResult>(['snapshot']);
    expect(again.id).toBeNull();
    expect(again).toHaveProperty('skipped');
    const human = box.cli(['snapshot']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^no checkpoint taken/);
  });

  it('pins, unpins, reports status and prunes', () => {
    write('a.txt', 'a\n');
    const first = snapshot();
    expect(box.json<Checkpoint>(['pin', first.id]).pinned).toBe(true);
    const status = box.json<WorkspaceStatus>(['status']);
    expect(status.checkpoints).toBe(1);
    expect(status.latest?.id).toBe(first.id);
    expect(status.pinned).toEqual([first.id]);
    write('a.txt', 'b\n');
    expect(box.json<WorkspaceStatus>(['status']).dirty_files).toBe(1);
    expect(box.json<Checkpoint>(['unpin', 'latest']).pinned).toBe(false);
    const pruned = box.json<{ removed: string[]; kept: number }>(['prune']);
    expect(pruned.removed).toEqual([]);
    expect(pruned.kept).toBe(1);
    const human = box.cli(['list']);
    expect(human.code).toBe(0);
    expect(human.stdout.split('\n')[0]).toMatch(/^#\s+ID\s+WHEN/);
  });

  it("gives the latest checkpoint's title in status --json, in the words list and show use", () => {
    write('a.txt', 'a\n');
    snapshot();
    write('b.txt', 'b\n');
    const second = snapshot();
    type Titled = Checkpoint & { title: string };
    const status = box.json<WorkspaceStatus & { latest: Titled }>(['status']);
    const [listed] = box.json<Titled[]>(['list']);
    const shown = box.json<{ checkpoint: Titled }>(['show', second.id]).checkpoint;
    expect(status.latest.id).toBe(second.id);
    expect(typeof status.latest.title).toBe('string');
    expect(status.latest.title.length).toBeGreaterThan(0);
    expect(status.latest.title).toBe(listed?.title);
    expect(status.latest.title).toBe(shown.title);
  });

  it('takes --workspace from anywhere', () => {
    write('a.txt', 'a\n');
    const elsewhere = join(box.home, '..');
    const run = box.cli(['snapshot', '--workspace', box.workspace, '--json'], { cwd: elsewhere });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as SnapshotResult).id).not.toBeNull();
    expect(box.json<Checkpoint[]>(['list'])).toHaveLength(1);
  });
});

describe('exit codes and errors', () => {
  const expectUsage = (args: string[]): void => {
    const run = box.cli(args);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^chronoscope: /);
    expect(lines.length).toBeLessThanOrEqual(2); // the message, and a hint
  };
  const expectError = (args: string[], pattern: RegExp): void => {
    const run = box.cli(args);
    expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.endsWith('\n')).toBe(true);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^chronoscope: /);
    expect(run.stderr).toMatch(pattern);
  };

  it('exits 2 on usage errors', () => {
    expectUsage(['list', '--limit', 'abc']);
    expectUsage(['list', '--limit', '0']);
    expectUsage(['list', '--frobnicate']);
    expectUsage(['show']);
    expectUsage(['frobnicate']);
    expectUsage([]);
    expectUsage(['snapshot', '--trigger', 'safety']);
    expectUsage(['restore', '--patch']);
  });

  it('exits 0 for help and version', () => {
    const help = box.cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('restore');
    expect(box.cli(['restore', '--help']).stdout).toContain('--keep-untracked');
    expect(box.cli(['--version']).code).toBe(0);
  });

  it('rejects bad ids and paths with one line and exit 2 (usage), changing nothing', () => {
    write('a.txt', 'a\n');
    snapshot();
    write('a.txt', 'changed\n');
    const before = treeFingerprint(box.workspace);
    const badId = /not a checkpoint id/;
    const expectMalformed = (args: string[], pattern: RegExp): void => {
      expectUsage(args);
      expect(box.cli(args).stderr).toMatch(pattern);
    };
    expectMalformed(['restore', '--yes', '--', '--patch'], badId);
    expectMalformed(['restore', 'HEAD~1', '--yes'], badId);
    expectMalformed(['restore', 'abc; rm -rf /', '--yes'], badId);
    expectMalformed(['show', '@{1}'], badId);
    expectMalformed(['diff', 'latest', ':a.txt'], badId);
    expectMalformed(['pin', 'main'], badId);
    expectError(['restore', 'deadbeef', '--yes'], /deadbeef/);
    expectMalformed(['restore', 'latest', '--path', '../outside', '--yes'], /bad path/);
    expectMalformed(['restore', 'latest', '--path', '/etc/passwd', '--yes'], /bad path/);
    expectMalformed(['snapshot', '--path', 'a/../../x'], /bad path/);
    expect(treeFingerprint(box.workspace)).toBe(before);
    expect(box.json<Checkpoint[]>(['list'])).toHaveLength(1);
  });

  it('refuses / and a missing folder as the workspace', () => {
    expectError(['snapshot', '--workspace', '/'], /./);
    expectError(['list', '--workspace', join(box.workspace, 'nope')], /no such folder/);
  });
});
