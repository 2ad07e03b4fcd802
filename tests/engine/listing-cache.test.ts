// The listing of checkpoints is cached per process and vouched for by the
// refs folder's stamp (list.ts): whatever changes the refs afterwards must be
// seen. The folder's mtime is set an hour back first, so the stamp is old
// enough to be trusted and the cached path is the one under test.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

async function snap(text: string): Promise<string> {
  write(s.ws, 'a.txt', text);
  const r = await s.workspace.snapshot({ reason: text });
  if (r.id === null) throw new Error('nothing to snapshot');
  return r.id;
}

/** The ref of a checkpoint, and its folder set an hour back so its stamp vouches for the cached listing. */
function refOf(id: string): string {
  const line = storeGit(s.storeHome, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/chronoscope/'])
    .split('\n')
    .find((l) => l.startsWith(`${id} `));
  if (!line) throw new Error(`no ref for ${id}`);
  return line.slice(41);
}

function ageRefsFolder(ref: string): void {
  const dir = path.dirname(path.join(s.storeHome, 'git', ref));
  const hourAgo = new Date(Date.now() - 3600_000);
  fs.utimesSync(dir, hourAgo, hourAgo);
}

describe('the cached listing', () => {
  it('sees a checkpoint deleted after it was cached: the next one is counted from the one before, the deleted one is not found', async () => {
    const a = await snap('one\n');
    write(s.ws, 'b.txt', 'b');
    const b = (await s.workspace.snapshot({ reason: 'b' })).id!;
    const c = await snap('three\n');
    ageRefsFolder(refOf(c));
    // Cached, vouched by the aged stamp: C's changes are counted from B.
    expect((await s.workspace.show(c)).files.map((f) => f.path)).toEqual(['a.txt']);

    storeGit(s.storeHome, ['update-ref', '-d', refOf(b)]);
    await expect(s.workspace.show(b)).rejects.toThrow(/no checkpoint/);
    expect((await s.workspace.list()).map((x) => x.id)).toEqual([c, a]);
    // C now follows A: b.txt is one of its changes.
    expect((await s.workspace.show(c)).files.map((f) => f.path).sort()).toEqual(['a.txt', 'b.txt']);
  });

  it('sees a checkpoint taken after it was cached, from its full id and from a prefix', async () => {
    await snap('one\n');
    const b = await snap('two\n');
    ageRefsFolder(refOf(b));
    await s.workspace.show(b);
    const c = await snap('three\n');
    expect((await s.workspace.show(c)).checkpoint.id).toBe(c);
    expect((await s.workspace.resolve(c.slice(0, 10))).id).toBe(c);
    ageRefsFolder(refOf(c));
    expect((await s.workspace.resolve(c)).id).toBe(c);
    expect((await s.workspace.show(c)).files.map((f) => f.path)).toEqual(['a.txt']);
  });

  it('applies a pin made after the listing was cached', async () => {
    await snap('one\n');
    const b = await snap('two\n');
    ageRefsFolder(refOf(b));
    expect((await s.workspace.show(b)).checkpoint.pinned).toBe(false);
    await s.workspace.pin(b, true);
    expect((await s.workspace.show(b)).checkpoint.pinned).toBe(true);
  });
});
