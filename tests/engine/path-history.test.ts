import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

async function snap(reason: string): Promise<string> {
  const r = await s.workspace.snapshot({ reason });
  if (r.id === null) throw new Error(`nothing to snapshot for ${reason}`);
  return r.id;
}

describe('pathHistory', () => {
  it('lists only the checkpoints that changed a file: added, modified, deleted, added again', async () => {
    write(s.ws, 'other.txt', '1');
    const c0 = await snap('before the file');
    write(s.ws, 'dir with space/a b.txt', 'one\n');
    const c1 = await snap('add');
    write(s.ws, 'other.txt', '2');
    await snap('other only');
    write(s.ws, 'dir with space/a b.txt', 'two\n');
    const c3 = await snap('modify');
    fs.rmSync(path.join(s.ws, 'dir with space/a b.txt'));
    const c4 = await snap('delete');
    write(s.ws, 'other.txt', '3');
    await snap('other again');
    write(s.ws, 'dir with space/a b.txt', 'back\n');
    const c6 = await snap('re-add');

    const h = await s.workspace.pathHistory('dir with space/a b.txt');
    expect(h.scanned).toBe(7);
    expect(h.entries).toEqual([
      { id: c6, change: 'added' },
      { id: c4, change: 'deleted' },
      { id: c3, change: 'modified' },
      { id: c1, change: 'added' },
    ]);
    expect(h.entries.map((e) => e.id)).not.toContain(c0);

    // A folder changes whenever something inside it does.
    const folder = await s.workspace.pathHistory('dir with space/');
    expect(folder.path).toBe('dir with space');
    expect(folder.entries.map((e) => e.id)).toEqual([c6, c4, c3, c1]);
  });

  it('answers an empty story for a path that never existed, and refuses unsafe paths with one line', async () => {
    write(s.ws, 'a.txt', 'a');
    await snap('one');
    expect((await s.workspace.pathHistory('nope.txt')).entries).toEqual([]);
    await expect(s.workspace.pathHistory('../etc/passwd')).rejects.toThrow(/outside the workspace/);
    await expect(s.workspace.pathHistory('a\nb')).rejects.toThrow(/line break/);
    await expect(s.workspace.pathHistory('-x')).rejects.toThrow(/leading -/);
  });
});

describe('pathHistory with a glob', () => {
  it('lists the checkpoints that changed any file matching it', async () => {
    write(s.ws, 'src/a.ts', '1');
    write(s.ws, 'src/deep/b.ts', '1');
    write(s.ws, 'docs/readme.md', '1');
    const c0 = await snap('start');
    write(s.ws, 'docs/readme.md', '2');
    await snap('docs only');
    write(s.ws, 'src/deep/b.ts', '2');
    const c2 = await snap('deep ts');
    write(s.ws, 'src/c.ts', 'new');
    const c3 = await snap('new ts');
    fs.rmSync(path.join(s.ws, 'src/a.ts'));
    const c4 = await snap('delete ts');

    const h = await s.workspace.pathHistory('src/**/*.ts');
    expect(h.entries).toEqual([
      { id: c4, change: 'deleted' },
      { id: c3, change: 'added' },
      { id: c2, change: 'modified' },
      { id: c0, change: 'added' },
    ]);
    expect((await s.workspace.pathHistory('**/*.md')).entries.map((e) => e.id)).toHaveLength(2);
  });
});
