import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('a renamed file', () => {
  it('is listed as a rename with its edits, and its file diff reads the old side where the file was', async () => {
    const body = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('');
    write(s.ws, 'src/old-name.ts', body);
    const a = (await s.workspace.snapshot()).id as string;
    fs.mkdirSync(path.join(s.ws, 'lib'));
    fs.renameSync(path.join(s.ws, 'src/old-name.ts'), path.join(s.ws, 'lib/new-name.ts'));
    write(s.ws, 'lib/new-name.ts', body.replace('line 7\n', 'line seven\n'));
    const b = (await s.workspace.snapshot()).id as string;

    const change = (await s.workspace.diff(a, b)).files.find((f) => f.path === 'lib/new-name.ts');
    expect(change).toMatchObject({ status: 'renamed', old_path: 'src/old-name.ts', insertions: 1, deletions: 1 });

    const fd = await s.workspace.fileDiff(a, b, 'lib/new-name.ts', 'src/old-name.ts');
    expect(fd.old_path).toBe('src/old-name.ts');
    expect(fd.old).toMatchObject({ kind: 'text', text: body });
    expect(fd.new.text).toContain('line seven');
    // Without the old path the old side is missing: what the viewer showed as "New file" before.
    expect((await s.workspace.fileDiff(a, b, 'lib/new-name.ts')).old.kind).toBe('missing');
    await expect(s.workspace.fileDiff(a, b, 'lib/new-name.ts', '../x')).rejects.toThrow(/outside the workspace/);
  });
});
