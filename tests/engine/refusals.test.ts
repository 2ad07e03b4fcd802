import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { picture, sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
let v1: string;
beforeEach(async () => {
  s = await sandbox();
  write(s.ws, 'a.txt', 'a1\n');
  write(s.ws, 'sub/b.txt', 'b1\n');
  v1 = (await s.workspace.snapshot()).id as string;
  write(s.ws, 'a.txt', 'a2\n');
});
afterEach(() => s.cleanup());

describe('refused workspaces', () => {
  it('refuses /, the home folder, a folder containing it, and the store', async () => {
    await expect(s.store.workspace('/')).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('root') });
    await expect(s.store.workspace(s.home)).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('home') });
    await expect(s.store.workspace(s.base)).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('contains the home') });
    await expect(s.store.workspace(s.storeHome)).rejects.toMatchObject({ code: 'refused' });
    await expect(s.store.workspace(path.join(s.storeHome, 'git'))).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('inside the Chronoscope store') });
    await expect(s.store.workspace(path.join(s.base, 'missing'))).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.store.workspace(path.join(s.ws, 'a.txt'))).rejects.toMatchObject({ code: 'bad_input' });
    expect(fs.readdirSync(path.join(s.storeHome, 'workspaces'))).toHaveLength(1);
  });

  it('refuses a workspace that contains the store', async () => {
    const { openStore } = await import('../../electron/engine/index.js');
    const inner = await openStore({ home: path.join(s.ws, '.store') });
    await expect(inner.workspace(s.ws)).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('contains the Chronoscope store') });
  });
});

describe('bad checkpoint references', () => {
  const bad = ['--patch', '-x', 'HEAD~1', 'HEAD', '@{1}', ':foo', 'abc; rm -rf /', 'abc', '0', 'latest~1', '', 'v1.0', 'g123', '../x'];
  it.each(bad)('rejects %j before git sees it, changing nothing', async (ref) => {
    const before = picture(s.ws);
    const refsBefore = picture(path.join(s.storeHome, 'git'));
    await expect(s.workspace.restore(ref)).rejects.toMatchObject({ code: 'bad_input', message: expect.stringContaining('is not valid') });
    await expect(s.workspace.previewRestore(ref)).rejects.toMatchObject({ code: 'bad_input' });
    await expect(s.workspace.show(ref)).rejects.toMatchObject({ code: 'bad_input' });
    await expect(s.workspace.diff(ref, 'workspace')).rejects.toMatchObject({ code: 'bad_input' });
    await expect(s.workspace.pin(ref, true)).rejects.toMatchObject({ code: 'bad_input' });
    expect(picture(s.ws)).toEqual(before);
    expect(picture(path.join(s.storeHome, 'git'))).toEqual(refsBefore);
  });

  it('reports unknown and ambiguous prefixes, and never resolves another workspace', async () => {
    await expect(s.workspace.resolve('ffff')).rejects.toMatchObject({ code: v1.startsWith('ffff') ? 'bad_input' : 'not_found' });
    await expect(s.workspace.resolve('5')).rejects.toMatchObject({ code: 'not_found' });
    const other = path.join(s.base, 'other');
    fs.mkdirSync(other);
    write(other, 'o.txt', 'o\n');
    const ws2 = await s.store.workspace(other);
    const foreign = (await ws2.snapshot()).id as string;
    await expect(s.workspace.resolve(foreign)).rejects.toMatchObject({ code: 'not_found' });
    await expect(s.workspace.restore(foreign)).rejects.toMatchObject({ code: 'not_found' });
    // Ambiguity: forge two checkpoints of this workspace whose ids share a 5-digit prefix.
    const tree = storeGit(s.storeHome, ['rev-parse', `${v1}^{tree}`]).trim();
    const seen = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair; i++) {
      const body = `tree ${tree}\nauthor A <a@a> 0 +0000\ncommitter A <a@a> 0 +0000\n\nforged ${i}\n`;
      const id = createHash('sha1').update(`commit ${Buffer.byteLength(body)}\0${body}`).digest('hex');
      const other = seen.get(id.slice(0, 5));
      if (other) pair = [other, body];
      else seen.set(id.slice(0, 5), body);
    }
    const prefix = createHash('sha1').update(`commit ${Buffer.byteLength(pair[0])}\0${pair[0]}`).digest('hex').slice(0, 5);
    pair.forEach((body, n) => {
      const id = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: body, env: { PATH: process.env['PATH'], GIT_DIR: path.join(s.storeHome, 'git') }, encoding: 'utf8' }).trim();
      storeGit(s.storeHome, ['update-ref', `refs/chronoscope/${s.workspace.meta.id}/cp/000000000000${n}-0000`, id]);
    });
    await expect(s.workspace.resolve(prefix)).rejects.toMatchObject({ code: 'bad_input', message: expect.stringContaining('ambiguous: it matches 2') });
  });
});

describe('bad paths', () => {
  const bad = ['../x', '/etc/passwd', 'a/../../b', '-rf', 'sub/../../x', '.git/config', 'a\0b', ''];
  it.each(bad)('rejects %j with a clear error and changes nothing', async (p) => {
    const before = picture(s.ws);
    const count = (await s.workspace.list()).length;
    await expect(s.workspace.restore(v1, { paths: [p] })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/^path '.*' is /) });
    await expect(s.workspace.previewRestore(v1, { paths: [p] })).rejects.toMatchObject({ code: 'bad_input' });
    await expect(s.workspace.fileDiff(v1, 'workspace', p)).rejects.toMatchObject({ code: 'bad_input' });
    await expect(s.workspace.snapshot({ paths: [p] })).rejects.toMatchObject({ code: 'bad_input' });
    expect(picture(s.ws)).toEqual(before);
    expect(await s.workspace.list()).toHaveLength(count);
  });

  it('refuses to restore through a symlinked folder', async () => {
    const outside = path.join(s.base, 'outside');
    fs.mkdirSync(outside);
    fs.rmSync(path.join(s.ws, 'sub'), { recursive: true });
    fs.symlinkSync(outside, path.join(s.ws, 'sub'));
    const before = picture(s.ws);
    await expect(s.workspace.restore(v1, { paths: ['sub/b.txt'] })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringContaining('symlinked') });
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(picture(s.ws)).toEqual(before);
    const side = await s.workspace.fileDiff(v1, 'workspace', 'sub/b.txt');
    expect(side.new.kind).toBe('missing');
  });

  it('a limited snapshot of vanished, ignored and unknown paths does not fail', async () => {
    write(s.ws, '.gitignore', '*.log\n');
    write(s.ws, 'x.log', 'ignored\n');
    write(s.ws, 'gone.txt', 'soon gone\n');
    fs.rmSync(path.join(s.ws, 'gone.txt'));
    const r = await s.workspace.snapshot({ paths: ['x.log', 'gone.txt', 'never/was.txt', 'a.txt', '.env'] });
    if (r.id === null) throw new Error('expected a checkpoint');
    expect((await s.workspace.show(r.id)).files.map((f) => f.path)).toEqual(['a.txt']);
  });
});
