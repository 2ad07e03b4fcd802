// The blame behind `chronoscope why`, on the real store: lines keep the
// checkpoint that brought them through later edits; a restore (or any return
// to an earlier content) gives lines back their first origin, not the
// restore's; a file deleted and written again starts over; and carryOrigins
// alone, on the cases a line diff has to get right.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blame, carryOrigins, lineOrigin } from '../../electron/prompts/blame.js';
import { sandbox, write, type Sandbox } from '../engine/helpers.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

async function take(reason: string): Promise<string> {
  const r = await s.workspace.snapshot({ reason });
  if (r.id === null) throw new Error('expected a checkpoint');
  return r.id;
}

describe('blame over checkpoints', () => {
  it('credits each line to the checkpoint that brought it, through edits, a restore and a deletion', async () => {
    write(s.ws, 'f.txt', 'a\nb\nc\n');
    const v1 = await take('v1');
    write(s.ws, 'f.txt', 'a\nB\nc\nd\n');
    const v2 = await take('v2');
    write(s.ws, 'f.txt', 'x\na\nB\nc\nd\n');
    const v3 = await take('v3');
    let b = await blame(s.workspace, 'f.txt');
    expect([1, 2, 3, 4, 5].map((n) => lineOrigin(b, n).checkpoint.id)).toEqual([v3, v1, v2, v1, v2]);

    // Back to v2's content by a restore: its lines are v1's and v2's again, not the restore's.
    await s.workspace.restore(v2);
    b = await blame(s.workspace, 'f.txt');
    expect(b.current.checkpoint.id).not.toBe(v3);
    expect([1, 2, 3, 4].map((n) => lineOrigin(b, n).checkpoint.id)).toEqual([v1, v2, v1, v2]);

    // Deleted, then written again with a line it had: it starts over.
    rmSync(join(s.ws, 'f.txt'));
    const gone = await take('gone');
    expect((await blame(s.workspace, 'f.txt')).deleted?.id).toBe(gone);
    write(s.ws, 'f.txt', 'a\n');
    const again = await take('again');
    b = await blame(s.workspace, 'f.txt');
    expect(lineOrigin(b, 1).checkpoint.id).toBe(again);
    expect(b.deleted).toBeUndefined();
  });

  it('refuses a line past the end and a binary file, each in one line', async () => {
    write(s.ws, 'f.txt', 'one\n');
    write(s.ws, 'bin.dat', Buffer.from([0, 1, 2, 0]));
    await take('v1');
    const b = await blame(s.workspace, 'f.txt');
    expect(() => lineOrigin(b, 2)).toThrow(/f.txt has 1 line in its last checkpoint \(\w{8}\); line 2 is past its end/);
    await expect(blame(s.workspace, 'bin.dat')).rejects.toThrow(/bin.dat is a binary file in its last checkpoint/);
    await expect(blame(s.workspace, 'nope.txt')).rejects.toThrow(/nope.txt was never recorded as a file/);
  });
});

describe('carryOrigins', () => {
  it('keeps origins of kept lines, gives new lines the version, drops removed ones', () => {
    expect(carryOrigins(['a', 'b', 'c'], [0, 1, 2], ['a', 'c'], 5)).toEqual([0, 2]);
    expect(carryOrigins(['a', 'b', 'c'], [0, 1, 2], ['a', 'x', 'b', 'c', 'y'], 5)).toEqual([0, 5, 1, 2, 5]);
    expect(carryOrigins(['a', 'a', 'a'], [0, 1, 2], ['a', 'a'], 5)).toHaveLength(2);
    expect(carryOrigins([], [], ['n'], 3)).toEqual([3]);
    expect(carryOrigins(['a', 'b'], [0, 1], [], 3)).toEqual([]);
    // A rewrite in the middle of a long file: head and tail keep theirs.
    const long = Array.from({ length: 1000 }, (_, i) => `l${i}`);
    const edited = [...long.slice(0, 500), 'new', ...long.slice(501)];
    const origins = carryOrigins(long, long.map(() => 1), edited, 7);
    expect(origins[500]).toBe(7);
    expect(origins.filter((o) => o === 1)).toHaveLength(999);
  });
});
