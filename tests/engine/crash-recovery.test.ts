// What a killed process leaves behind must not block the next writer.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { picture, sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('after a crash', () => {
  it('a leftover index.lock (kill -9 during a snapshot) does not block snapshots or restores', async () => {
    write(s.ws, 'a.txt', 'one\n');
    const first = (await s.workspace.snapshot()).id as string;
    const pic = picture(s.ws);
    const indexFile = path.join(s.storeHome, 'workspaces', s.workspace.meta.id, 'index');
    expect(fs.existsSync(indexFile)).toBe(true);
    fs.writeFileSync(`${indexFile}.lock`, '');

    write(s.ws, 'a.txt', 'two\n');
    const second = await s.workspace.snapshot();
    expect(second.id).not.toBeNull();
    expect(fs.existsSync(`${indexFile}.lock`)).toBe(false);

    fs.writeFileSync(`${indexFile}.lock`, '');
    const restored = await s.workspace.restore(first);
    expect(restored.modified).toEqual(['a.txt']);
    expect(picture(s.ws)).toEqual(pic);
    expect(fs.existsSync(`${indexFile}.lock`)).toBe(false);
  });

  it('a damaged private index is rebuilt from the disk', async () => {
    write(s.ws, 'a.txt', 'one\n');
    await s.workspace.snapshot();
    const indexFile = path.join(s.storeHome, 'workspaces', s.workspace.meta.id, 'index');
    fs.writeFileSync(indexFile, 'DIRC garbage that is not an index at all, long enough to have a tail');
    write(s.ws, 'b.txt', 'two\n');
    const r = await s.workspace.snapshot();
    expect(r.id).not.toBeNull();
    expect((await s.workspace.show(r.id as string)).files.map((f) => f.path)).toEqual(['b.txt']);
  });
});
