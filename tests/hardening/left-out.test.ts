// Everything a checkpoint leaves out is named in it: names git cannot store
// (not UTF-8, .git look-alikes) are listed as 'unrecordable', not dropped.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, write, type Sandbox } from '../engine/helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe.skipIf(process.platform !== 'linux')('left out, and said so', () => {
  it('non-UTF-8 names, .GIT/, sub/.Git/ and ".git " are named as unrecordable', async () => {
    write(s.ws, 'ok.txt', 'fine\n');
    write(s.ws, '.GIT/x', 'a\n');
    write(s.ws, 'sub/.Git/y', 'b\n');
    write(s.ws, '.git /z', 'c\n');
    fs.writeFileSync(Buffer.concat([Buffer.from(`${s.ws}/bad`), Buffer.from([0xff]), Buffer.from('.txt')]), 'n\n');
    const r = await s.workspace.snapshot();
    if (r.id === null) throw new Error('expected a checkpoint');
    const left = r.skipped_files.map((f) => `${f.why} ${f.path}`).sort();
    expect(left).toEqual(['unrecordable .GIT/x', 'unrecordable .git /z', 'unrecordable bad\uFFFD.txt', 'unrecordable sub/.Git/y']);
    expect((await s.workspace.show(r.id)).files.map((f) => f.path)).toEqual(['ok.txt']);
    expect((await s.workspace.resolve(r.id)).skipped).toHaveLength(4);
    expect(fs.existsSync(path.join(s.ws, '.GIT', 'x'))).toBe(true);
  });
});
