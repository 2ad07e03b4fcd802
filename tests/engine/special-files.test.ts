// Files a snapshot cannot or must not read (named pipes, unreadable files)
// are left out and reported; they never block or hang a snapshot or restore.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { picture, sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const isRoot = process.getuid?.() === 0;

describe('special and unreadable files', () => {
  it.skipIf(process.platform === 'win32')('a named pipe (new, or replacing a recorded file) is skipped as special and blocks nothing', async () => {
    write(s.ws, 'a.txt', 'one\n');
    write(s.ws, 'was-file', 'recorded\n');
    const first = (await s.workspace.snapshot()).id as string;

    execFileSync('mkfifo', [path.join(s.ws, 'pipe')]);
    fs.rmSync(path.join(s.ws, 'was-file'));
    execFileSync('mkfifo', [path.join(s.ws, 'was-file')]);
    write(s.ws, 'a.txt', 'two\n');
    const r = await s.workspace.snapshot();
    if (r.id === null) throw new Error('expected a checkpoint');
    // The untracked pipe too, though git's listing never shows it (special-files.ts).
    const both = [
      { path: 'pipe', size: 0, why: 'special' },
      { path: 'was-file', size: 0, why: 'special' },
    ];
    expect(r.skipped_files).toEqual(both);
    const files = (await s.workspace.show(r.id)).files.map((f) => `${f.status} ${f.path}`);
    expect(files.sort()).toEqual(['deleted was-file', 'modified a.txt']);
    expect((await s.workspace.list())[0]?.skipped).toEqual(both);

    // A restore works and leaves the pipes alone.
    const restored = await s.workspace.restore(first);
    expect(restored.modified).toEqual(['a.txt']);
    expect(fs.lstatSync(path.join(s.ws, 'pipe')).isFIFO()).toBe(true);
    expect(fs.lstatSync(path.join(s.ws, 'was-file')).isFIFO()).toBe(true);
    expect(picture(s.ws, { skip: (rel) => rel === 'pipe' || rel === 'was-file' })['a.txt']).toBeDefined();
  });

  it.skipIf(isRoot || process.platform === 'win32')('an unreadable file is skipped as unreadable and blocks nothing (not as root: root reads anything)', async () => {
    write(s.ws, 'a.txt', 'one\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'secret', 'hidden\n', 0o000);
    write(s.ws, 'a.txt', 'two\n');
    const r = await s.workspace.snapshot();
    if (r.id === null) throw new Error('expected a checkpoint');
    expect(r.skipped_files).toEqual([{ path: 'secret', size: 7, why: 'unreadable' }]);
    const restored = await s.workspace.restore(first);
    expect(restored.modified).toEqual(['a.txt']);
  });
});
