import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as childProcess from 'node:child_process';
import { vi } from 'vitest';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:child_process')>();
  return { ...real, spawn: vi.fn(real.spawn) };
});

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('diff', () => {
  it('reports added, modified, deleted, renamed, mode and binary changes with sizes, for odd names too', async () => {
    const odd = 'dir with space/ünï\nline.txt';
    write(s.ws, 'keep.txt', 'one\ntwo\n');
    write(s.ws, 'gone.txt', 'bye\n');
    write(s.ws, 'move-me.txt', 'a long enough body to be detected as a rename\n'.repeat(5));
    write(s.ws, 'run.sh', 'echo\n');
    write(s.ws, 'img.bin', Buffer.from([0, 1, 2, 3]));
    const a = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'keep.txt', 'one\nTWO\nthree\n');
    fs.rmSync(path.join(s.ws, 'gone.txt'));
    fs.renameSync(path.join(s.ws, 'move-me.txt'), path.join(s.ws, 'moved.txt'));
    fs.chmodSync(path.join(s.ws, 'run.sh'), 0o755);
    write(s.ws, 'img.bin', Buffer.from([0, 9, 9, 9, 9]));
    write(s.ws, odd, 'odd\n');
    const b = (await s.workspace.snapshot()).id as string;

    const diff = await s.workspace.diff(a, b);
    const by = Object.fromEntries(diff.files.map((f) => [f.path, f]));
    expect(by['keep.txt']).toMatchObject({ status: 'modified', insertions: 2, deletions: 1, old_size: 8, new_size: 14, binary: false });
    expect(by['gone.txt']).toMatchObject({ status: 'deleted', new_mode: null, old_size: 4, new_size: null });
    expect(by['moved.txt']).toMatchObject({ status: 'renamed', old_path: 'move-me.txt' });
    expect(by['run.sh']).toMatchObject({ status: 'modified', old_mode: '100644', new_mode: '100755', mode_changed: true });
    expect(by['img.bin']).toMatchObject({ binary: true, insertions: null, deletions: null, old_size: 4, new_size: 5 });
    expect(by[odd]).toMatchObject({ status: 'added', new_size: 4 });

    const fd = await s.workspace.fileDiff(a, b, 'keep.txt');
    expect(fd.old).toMatchObject({ kind: 'text', text: 'one\ntwo\n' });
    expect(fd.new).toMatchObject({ kind: 'text', text: 'one\nTWO\nthree\n' });
    expect((await s.workspace.fileDiff(a, b, odd)).new).toMatchObject({ kind: 'text', text: 'odd\n' });
    expect((await s.workspace.fileDiff(a, b, odd)).old.kind).toBe('missing');
    expect((await s.workspace.fileDiff(a, b, 'img.bin')).new).toMatchObject({ kind: 'binary', size: 5 });
  });

  it('compares a checkpoint with the workspace without recording anything', async () => {
    write(s.ws, 'a.txt', 'a\n');
    const a = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'b.txt', 'b\n');
    fs.symlinkSync('a.txt', path.join(s.ws, 'link'));
    write(s.ws, 'huge.txt', 'x'.repeat(3 * 1024 * 1024));
    const diff = await s.workspace.diff(a, 'workspace');
    expect(diff.to).toBe('workspace');
    expect(diff.files.map((f) => f.path).sort()).toEqual(['a.txt', 'b.txt', 'huge.txt', 'link']);
    expect((await s.workspace.fileDiff(a, 'workspace', 'a.txt')).new).toMatchObject({ kind: 'text', text: 'a2\n' });
    expect((await s.workspace.fileDiff(a, 'workspace', 'link')).new).toMatchObject({ kind: 'symlink', text: 'a.txt', mode: '120000' });
    expect((await s.workspace.fileDiff(a, 'workspace', 'huge.txt')).new).toMatchObject({ kind: 'too_large', size: 3 * 1024 * 1024 });
    expect((await s.workspace.fileDiff(a, 'workspace', 'huge.txt')).new.text).toBeUndefined();
    expect(await s.workspace.list()).toHaveLength(1);
    const status = await s.workspace.status();
    expect(status).toMatchObject({ checkpoints: 1, dirty_files: 4, latest: { id: a } });
    const c = (await s.workspace.snapshot()).id as string;
    const snap = await s.workspace.fileDiff(c, a, 'huge.txt');
    expect(snap.old).toMatchObject({ kind: 'too_large' });
    expect((await s.workspace.status()).dirty_files).toBe(0);
    // Asked for (the viewer's "Show it anyway"): read up to the larger limit, from a checkpoint and from the disk.
    expect((await s.workspace.fileDiff(c, a, 'huge.txt', undefined, { large: true })).old).toMatchObject({ kind: 'text', size: 3 * 1024 * 1024 });
    expect((await s.workspace.fileDiff(a, 'workspace', 'huge.txt', undefined, { large: true })).new.text).toHaveLength(3 * 1024 * 1024);
  });

  it('flags whitespace-only and line-ending-only changes in the list, and sends images as data', async () => {
    write(s.ws, 'crlf.txt', 'one\ntwo\n');
    write(s.ws, 'ws.txt', 'a = 1\nb = 2\n');
    write(s.ws, 'real.txt', 'x\n');
    write(s.ws, 'pic.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    const a = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'crlf.txt', 'one\r\ntwo\r\n');
    write(s.ws, 'ws.txt', 'a  = 1\n  b = 2\n');
    write(s.ws, 'real.txt', 'y\n');
    write(s.ws, 'pic.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 3, 4, 5]));
    const b = (await s.workspace.snapshot()).id as string;
    const files = (await s.workspace.show(b)).files;
    const flag = (p: string) => files.find((f) => f.path === p)?.hidden;
    expect([flag('crlf.txt'), flag('ws.txt'), flag('real.txt')]).toEqual(['line-endings', 'whitespace', undefined]);
    const pic = await s.workspace.fileDiff(a, b, 'pic.png');
    expect(pic.old).toMatchObject({ kind: 'binary', image: { mime: 'image/png', base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]).toString('base64') } });
    expect(pic.new.image?.base64).toBe(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 3, 4, 5]).toString('base64'));
  });

  it('limited snapshots only look at the given paths', async () => {
    write(s.ws, 'a.txt', 'a\n');
    write(s.ws, 'b.txt', 'b\n');
    await s.workspace.snapshot();
    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'b.txt', 'b2\n');
    write(s.ws, 'dir/c.txt', 'c\n');
    const r = await s.workspace.snapshot({ paths: ['a.txt', 'dir'] });
    if (r.id === null) throw new Error('expected a checkpoint');
    expect((await s.workspace.show(r.id)).files.map((f) => f.path).sort()).toEqual(['a.txt', 'dir/c.txt']);
    const full = await s.workspace.snapshot();
    if (full.id === null) throw new Error('expected a checkpoint');
    expect((await s.workspace.show(full.id)).files.map((f) => f.path)).toEqual(['b.txt']);
  });
});

describe('a diff of a few changed files', () => {
  /** git's own answer: status, modes, ids and line counts per path. */
  function gitAnswer(a: string, b: string): Record<string, string> {
    const commit = (id: string) => storeGit(s.storeHome, ['rev-parse', `${id}^{tree}`]).trim();
    const raw = storeGit(s.storeHome, ['diff-tree', '-r', '-M', '--raw', '--numstat', '-z', commit(a), commit(b)]).split('\0');
    const out: Record<string, string> = {};
    for (let i = 0; i < raw.length; i++) {
      const t = raw[i] ?? '';
      if (t.startsWith(':')) {
        const [, , , , status = ''] = t.slice(1).split(' ');
        out[raw[i + 1] ?? ''] = status;
        i++;
      } else if (/^(\d+|-)\t/.test(t)) {
        const [ins, del, rel = ''] = t.split('\t');
        out[rel] = `${out[rel] ?? ''} ${ins === '-' ? 'binary' : `+${ins} -${del}`}`;
      }
    }
    return out;
  }

  it('is made without a git process and gives git diff-tree\'s statuses and line counts', async () => {
    write(s.ws, 'edit.txt', 'a\nb\nc\nd\ne\n');
    write(s.ws, 'crlf.txt', 'one\ntwo\n');
    write(s.ws, 'tail.txt', 'no newline');
    write(s.ws, 'img.bin', Buffer.from([1, 0, 2]));
    write(s.ws, 'mode.sh', 'echo\n');
    write(s.ws, 'deep/a/b.txt', 'x\n'.repeat(50));
    fs.symlinkSync('edit.txt', path.join(s.ws, 'link'));
    const a = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'edit.txt', 'a\nB\nc\ne\nf\ng\n');
    write(s.ws, 'crlf.txt', 'one\r\ntwo\r\n');
    write(s.ws, 'tail.txt', 'no newline\n');
    write(s.ws, 'img.bin', Buffer.from([1, 0, 3, 4]));
    fs.chmodSync(path.join(s.ws, 'mode.sh'), 0o755);
    write(s.ws, 'deep/a/b.txt', 'y\n'.repeat(20) + 'x\n'.repeat(40));
    write(s.ws, 'new/file.txt', 'n1\nn2\n');
    fs.rmSync(path.join(s.ws, 'link'));
    fs.symlinkSync('tail.txt', path.join(s.ws, 'link'));
    const b = (await s.workspace.snapshot()).id as string;

    const spawn = vi.mocked(childProcess.spawn);
    spawn.mockClear();
    const diff = await s.workspace.diff(a, b);
    const spawned = spawn.mock.calls.map((c) => (c[1] as string[]).find((x) => !x.startsWith('-') && !x.includes('=')));
    expect(spawned).not.toContain('diff-tree');
    const ours = Object.fromEntries(diff.files.map((f) => [f.path, `${{ added: 'A', modified: 'M', deleted: 'D' }[f.status as string] ?? f.status} ${f.binary ? 'binary' : `+${f.insertions} -${f.deletions}`}`]));
    expect(ours).toEqual(gitAnswer(a, b));

    // Deletions alone too; a file added while another goes (a possible rename) is git's to judge.
    fs.rmSync(path.join(s.ws, 'deep'), { recursive: true });
    const c = (await s.workspace.snapshot()).id as string;
    const gone = await s.workspace.diff(b, c);
    expect(Object.fromEntries(gone.files.map((f) => [f.path, `D +${f.insertions} -${f.deletions}`]))).toEqual(gitAnswer(b, c));
    fs.renameSync(path.join(s.ws, 'new/file.txt'), path.join(s.ws, 'new/renamed.txt'));
    const d = (await s.workspace.snapshot()).id as string;
    spawn.mockClear();
    const moved = await s.workspace.diff(c, d);
    expect(moved.files).toMatchObject([{ path: 'new/renamed.txt', status: 'renamed', old_path: 'new/file.txt' }]);
    expect(spawn.mock.calls.map((c2) => (c2[1] as string[]).find((x) => !x.startsWith('-') && !x.includes('=')))).toContain('diff-tree');
  });
});
