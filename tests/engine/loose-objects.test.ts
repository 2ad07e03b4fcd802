// Objects are read in Node when they are loose or in a pack a snapshot wrote,
// and through cat-file when git packed them (gc, with deltas): diffs, file
// views and restores give the same answers either way, including for
// incompressible content (whose zlib header arrives late).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { picture, sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe("loose objects, our packs and git's packs", () => {
  it('diff, file view and restore agree before and after the store is packed', async () => {
    const noise = randomBytes(200_000);
    write(s.ws, 'noise.bin', noise);
    write(s.ws, 'text.txt', 'one\ntwo\n');
    write(s.ws, 'big.txt', 'x'.repeat(300_000));
    const a = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'noise.bin', randomBytes(150_000));
    write(s.ws, 'text.txt', 'one\nthree\n');
    fs.rmSync(path.join(s.ws, 'big.txt'));
    const b = (await s.workspace.snapshot()).id as string;
    // The first snapshot's blobs are loose (git hashed them), the second's objects in one pack of ours.
    const written = storeGit(s.storeHome, ['count-objects', '-v']);
    expect(Number(/^count: (\d+)/m.exec(written)?.[1])).toBeGreaterThan(0);
    expect(/in-pack: (\d+)/.exec(written)?.[1]).toBe('4');
    expect(/packs: (\d+)/.exec(written)?.[1]).toBe('1');
    const look = async (): Promise<unknown> => {
      const diff = await s.workspace.diff(a, b);
      const sides = await Promise.all(['noise.bin', 'text.txt', 'big.txt'].map((p) => s.workspace.fileDiff(a, b, p)));
      return { files: diff.files, sides };
    };
    const loose = await look();
    const files = (loose as { files: { path: string; old_size: number | null }[] }).files;
    expect(files.find((f) => f.path === 'noise.bin')?.old_size).toBe(200_000);
    expect(files.find((f) => f.path === 'big.txt')?.old_size).toBe(300_000);

    await s.store.compact();
    expect(storeGit(s.storeHome, ['count-objects', '-v'])).toMatch(/count: 0/);
    expect(await look()).toEqual(loose);

    // A restore reading packed objects puts back the exact bytes.
    await s.workspace.restore(a);
    expect(fs.readFileSync(path.join(s.ws, 'noise.bin')).equals(noise)).toBe(true);
    const before = picture(s.ws);
    await s.workspace.restore(b);
    await s.workspace.restore(a);
    expect(picture(s.ws)).toEqual(before);
  });

  it('a snapshot of many files writes them into one pack; fsck is clean and a restore is byte-identical', async () => {
    for (let i = 0; i < 260; i++) write(s.ws, `d${i % 7}/f${i}.txt`, `file ${i}\n${'y'.repeat(i * 37)}`);
    write(s.ws, 'noise.bin', randomBytes(70_000));
    fs.symlinkSync('d0/f0.txt', path.join(s.ws, 'link'));
    const before = picture(s.ws);
    const first = (await s.workspace.snapshot()).id as string;
    const counts = storeGit(s.storeHome, ['count-objects', '-v']);
    expect(Number(/in-pack: (\d+)/.exec(counts)?.[1])).toBeGreaterThanOrEqual(260);
    storeGit(s.storeHome, ['fsck', '--strict', '--no-dangling']);
    fs.rmSync(path.join(s.ws, 'd3'), { recursive: true });
    write(s.ws, 'd1/f1.txt', 'changed');
    await s.workspace.restore(first);
    expect(picture(s.ws)).toEqual(before);
  });
});
