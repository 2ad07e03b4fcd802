import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { picture, sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const BINARY = Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 13, 10]);

describe('round trip', () => {
  it('restores every checkpoint byte-identically: contents, modes, links, odd names', async () => {
    const ws = s.ws;
    const states: { id: string; pic: Record<string, string> }[] = [];
    const take = async (reason: string) => {
      const r = await s.workspace.snapshot({ reason });
      expect(r.id).not.toBeNull();
      states.push({ id: r.id as string, pic: picture(ws) });
    };

    // 1: a mix of kinds
    write(ws, 'readme.md', '# hello\n');
    write(ws, 'src/main.ts', 'export const a = 1;\n');
    write(ws, 'bin/run.sh', '#!/bin/sh\necho hi\n', 0o755);
    write(ws, 'empty.txt', '');
    write(ws, 'data.bin', BINARY);
    write(ws, 'ünï cødé/файл с пробелом.txt', 'unicode\n');
    write(ws, 'crlf.txt', 'a\r\nb\r\n');
    write(ws, '.gitattributes', '* text=auto eol=lf\n');
    fs.symlinkSync('src/main.ts', path.join(ws, 'link-to-main'));
    fs.symlinkSync('src', path.join(ws, 'dirlink'));
    await take('one');

    // 2: edit, delete, rename, chmod, newline in a name, retarget a link
    write(ws, 'src/main.ts', 'export const a = 2;\n');
    fs.rmSync(path.join(ws, 'empty.txt'));
    fs.renameSync(path.join(ws, 'readme.md'), path.join(ws, 'README.md'));
    fs.chmodSync(path.join(ws, 'bin/run.sh'), 0o644);
    write(ws, 'line\nbreak.txt', 'newline in name\n');
    fs.rmSync(path.join(ws, 'link-to-main'));
    fs.symlinkSync('README.md', path.join(ws, 'link-to-main'));
    await take('two');

    // 3: a file becomes a folder, a link becomes a file, a folder goes away
    fs.rmSync(path.join(ws, 'data.bin'));
    write(ws, 'data.bin/inner.txt', 'now a folder\n');
    fs.rmSync(path.join(ws, 'dirlink'));
    write(ws, 'dirlink', 'now a file\n');
    fs.rmSync(path.join(ws, 'ünï cødé'), { recursive: true });
    await take('three');

    for (const state of [states[0], states[2], states[1], states[0], states[2]]) {
      const result = await s.workspace.restore(state!.id);
      expect(result.restored).toBe(state!.id);
      expect(picture(ws)).toEqual(state!.pic);
      const again = await s.workspace.snapshot();
      expect(again.id).toBeNull();
    }
  });

  it('records nothing when nothing changed and says since which checkpoint', async () => {
    write(s.ws, 'a.txt', 'a');
    const first = await s.workspace.snapshot();
    const second = await s.workspace.snapshot();
    expect(second).toEqual({ id: null, skipped: `no changes since ${(first.id as string).slice(0, 12)}` });
    expect(await s.workspace.list()).toHaveLength(1);
  });

  it('stores checkpoint metadata in the commit and lists newest first', async () => {
    write(s.ws, 'a.txt', 'one\n');
    await s.workspace.snapshot({ reason: 'first\nline two', trigger: 'hook', agent: 'claude', tool: 'Edit', session: 's1', tool_use_id: 't1' });
    write(s.ws, 'a.txt', 'one\ntwo\nthree\n');
    write(s.ws, 'b.txt', 'b\n');
    await s.workspace.snapshot({ reason: 'second' });
    const list = await s.workspace.list();
    expect(list.map((c) => c.reason)).toEqual(['second', 'first line two']);
    expect(list[0]!.stats).toEqual({ files: 2, insertions: 3, deletions: 0 });
    expect(list[1]).toMatchObject({ trigger: 'hook', agent: 'claude', tool: 'Edit', session: 's1', tool_use_id: 't1', stats: { files: 1, insertions: 1, deletions: 0 } });
    expect(await s.workspace.list({ limit: 1 })).toHaveLength(1);
    expect((await s.workspace.resolve('latest')).id).toBe(list[0]!.id);
    expect((await s.workspace.resolve('2')).id).toBe(list[1]!.id);
    expect((await s.workspace.resolve(list[1]!.id.slice(0, 7))).id).toBe(list[1]!.id);
    const shown = await s.workspace.show('1');
    expect(shown.files.map((f) => [f.path, f.status])).toEqual([
      ['a.txt', 'modified'],
      ['b.txt', 'added'],
    ]);
  });
});

describe('restore modes', () => {
  async function threeFiles() {
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'dir/b.txt', 'b1\n');
    write(s.ws, 'c.txt', 'c1\n');
    const first = await s.workspace.snapshot({ reason: 'v1' });
    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'dir/b.txt', 'b2\n');
    fs.rmSync(path.join(s.ws, 'c.txt'));
    await s.workspace.snapshot({ reason: 'v2' });
    return first.id as string;
  }

  it('restores only the given paths', async () => {
    const v1 = await threeFiles();
    const result = await s.workspace.restore(v1, { paths: ['dir'] });
    expect(fs.readFileSync(path.join(s.ws, 'dir/b.txt'), 'utf8')).toBe('b1\n');
    expect(fs.readFileSync(path.join(s.ws, 'a.txt'), 'utf8')).toBe('a2\n');
    expect(fs.existsSync(path.join(s.ws, 'c.txt'))).toBe(false);
    expect(result.modified).toEqual(['dir/b.txt']);
    await s.workspace.restore(v1, { paths: ['c.txt'] });
    expect(fs.readFileSync(path.join(s.ws, 'c.txt'), 'utf8')).toBe('c1\n');
  });

  it('clean mode removes new untracked files, keep mode leaves them; deleted files are reported', async () => {
    const v1 = await threeFiles();
    write(s.ws, 'new.txt', 'new\n');
    write(s.ws, 'newdir/x.txt', 'x\n');
    write(s.ws, 'ignored.log', 'log\n');
    write(s.ws, '.gitignore', '*.log\n');
    const kept = await s.workspace.previewRestore(v1, { keep_untracked: true });
    expect(kept.untracked_removed).toEqual([]);
    await s.workspace.restore(v1, { keep_untracked: true });
    expect(fs.existsSync(path.join(s.ws, 'new.txt'))).toBe(true);
    expect(fs.existsSync(path.join(s.ws, 'newdir/x.txt'))).toBe(true);

    write(s.ws, 'another.txt', 'another\n');
    const preview = await s.workspace.previewRestore(v1);
    expect(preview.untracked_removed).toEqual(['another.txt']);
    const result = await s.workspace.restore(v1);
    expect(result.untracked_removed).toBe(1);
    expect(fs.existsSync(path.join(s.ws, 'another.txt'))).toBe(false);
    // ignored files are never touched
    expect(fs.readFileSync(path.join(s.ws, 'ignored.log'), 'utf8')).toBe('log\n');
  });

  it('a restore is undone by restoring its safety checkpoint', async () => {
    const v1 = await threeFiles();
    write(s.ws, 'unsaved.txt', 'work in progress\n');
    write(s.ws, 'a.txt', 'a3 unsaved\n');
    const before = picture(s.ws);
    const result = await s.workspace.restore(v1);
    expect(picture(s.ws)).not.toEqual(before);
    const safety = await s.workspace.resolve(result.safety);
    expect(safety).toMatchObject({ trigger: 'safety', restore_target: v1 });
    expect(result.checkpoint).not.toBeNull();
    expect((await s.workspace.resolve(result.checkpoint as string)).trigger).toBe('restore');
    await s.workspace.restore(result.safety);
    expect(picture(s.ws)).toEqual(before);
  });

  it('records a safety checkpoint even when nothing changed since the latest', async () => {
    const v1 = await threeFiles();
    const latest = await s.workspace.resolve('latest');
    const result = await s.workspace.restore(v1);
    expect(result.safety).not.toBe(latest.id);
    const safety = await s.workspace.resolve(result.safety);
    expect(safety).toMatchObject({ trigger: 'safety', restore_target: v1, stats: { files: 0 } });
    await s.workspace.restore(result.safety);
    expect((await s.workspace.resolve('latest')).trigger).toBe('restore');
  });

  it('preview changes nothing on disk and records nothing', async () => {
    const v1 = await threeFiles();
    write(s.ws, 'new.txt', 'new\n');
    const before = picture(s.ws);
    const storeBefore = picture(path.join(s.storeHome, 'git', 'refs'));
    const preview = await s.workspace.previewRestore(v1);
    expect(preview).toMatchObject({ modified: ['a.txt', 'dir/b.txt'], added: ['c.txt'], deleted: [], untracked_removed: ['new.txt'] });
    expect(picture(s.ws)).toEqual(before);
    expect(picture(path.join(s.storeHome, 'git', 'refs'))).toEqual(storeBefore);
    expect(await s.workspace.list()).toHaveLength(2);
  });

  it('replaces a symlinked folder by a real one instead of writing through it', async () => {
    write(s.ws, 'conf/settings.txt', 'real\n');
    const v1 = (await s.workspace.snapshot()).id as string;
    const outside = path.join(s.base, 'outside');
    fs.mkdirSync(outside);
    write(outside, 'settings.txt', 'outside must stay\n');
    fs.rmSync(path.join(s.ws, 'conf'), { recursive: true });
    fs.symlinkSync(outside, path.join(s.ws, 'conf'));
    await s.workspace.snapshot();
    await s.workspace.restore(v1);
    expect(fs.lstatSync(path.join(s.ws, 'conf')).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(s.ws, 'conf/settings.txt'), 'utf8')).toBe('real\n');
    expect(fs.readFileSync(path.join(outside, 'settings.txt'), 'utf8')).toBe('outside must stay\n');
  });
});
