// Undoing a restore: a path-limited restore is undone for its paths only, and
// the preview of a whole-tree undo names the files changed since the restore.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const read = (rel: string): string => fs.readFileSync(path.join(s.ws, rel), 'utf8');

describe('undo of a restore', () => {
  it('a one-file restore records its paths; undoing it with them leaves a file changed since alone', async () => {
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'b.txt', 'b1\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'b.txt', 'b2\n');
    await s.workspace.snapshot();

    const restored = await s.workspace.restore(first, { paths: ['a.txt'] });
    expect(restored.paths).toEqual(['a.txt']);
    expect(read('a.txt')).toBe('a1\n');
    const safety = await s.workspace.resolve(restored.safety);
    expect(safety.restore_paths).toEqual(['a.txt']);

    write(s.ws, 'b.txt', 'b3, changed after the restore\n');
    const undo = await s.workspace.restore(restored.safety, restored.paths ? { paths: restored.paths } : {});
    expect(undo.modified).toEqual(['a.txt']);
    expect(read('a.txt')).toBe('a2\n');
    expect(read('b.txt')).toBe('b3, changed after the restore\n');
  });

  it('a whole-tree undo says in its preview which files changed since the restore', async () => {
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'b.txt', 'b1\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'a.txt', 'a2\n');
    await s.workspace.snapshot();
    const restored = await s.workspace.restore(first);
    expect(read('a.txt')).toBe('a1\n');

    expect((await s.workspace.previewRestore(restored.safety)).changed_since_restore).toEqual([]);
    write(s.ws, 'b.txt', 'b2, changed after the restore\n');
    write(s.ws, 'c.txt', 'new after the restore\n');
    const preview = await s.workspace.previewRestore(restored.safety);
    expect(preview.modified.sort()).toEqual(['a.txt', 'b.txt']);
    expect(preview.changed_since_restore?.sort()).toEqual(['b.txt', 'c.txt']);
    // Not a safety checkpoint: nothing to say.
    expect((await s.workspace.previewRestore(first)).changed_since_restore).toBeUndefined();
  });
});
