// Joining the indexes of a first snapshot's hashing processes (index-merge.ts):
// git reads the joined index as the union of the parts, stat data included,
// and a damaged part is refused rather than joined.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeIndexFiles } from '../../electron/engine/index/index-merge.js';

let base: string;
let ws: string;
beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'chronoscope-merge-'));
  ws = path.join(base, 'ws');
  fs.mkdirSync(path.join(ws, 'a', 'b'), { recursive: true });
  for (const rel of ['a/b/one.txt', 'a/b.txt', 'a/two.txt', 'z.txt', 'ünï.txt', 'a-b.txt']) fs.writeFileSync(path.join(ws, rel), `${rel}\n`);
  execFileSync('git', ['init', '-q', '--bare', path.join(base, 'git')]);
});
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

function git(index: string, args: string[], input?: string): string {
  const env = { PATH: process.env['PATH'], GIT_DIR: path.join(base, 'git'), GIT_WORK_TREE: ws, GIT_INDEX_FILE: index, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' };
  return execFileSync('git', ['-c', 'core.quotepath=off', ...args], { cwd: ws, env, encoding: 'utf8', ...(input === undefined ? {} : { input }) });
}

describe('joining index files', () => {
  it('gives git the union of the parts, with their stat data', async () => {
    const [one, two, joined, whole] = ['one', 'two', 'joined', 'whole'].map((n) => path.join(base, n)) as [string, string, string, string];
    git(one, ['update-index', '--add', '-z', '--stdin'], 'a/b/one.txt\0a/two.txt\0ünï.txt\0');
    git(two, ['update-index', '--add', '-z', '--stdin'], 'a-b.txt\0a/b.txt\0z.txt\0');
    git(whole, ['add', '-A']);
    await mergeIndexFiles([one, two], joined);
    // The joined index is no newer than its oldest part (racy entries stay suspect).
    expect(fs.statSync(joined).mtimeMs).toBeLessThanOrEqual(Math.min(fs.statSync(one).mtimeMs, fs.statSync(two).mtimeMs));
    expect(git(joined, ['ls-files', '-s'])).toBe(git(whole, ['ls-files', '-s']));
    expect(git(joined, ['write-tree'])).toBe(git(whole, ['write-tree']));
    // Stat data kept: nothing looks modified.
    expect(git(joined, ['diff-files', '--name-only'])).toBe('');
  });

  it('refuses a damaged part and a path in two parts, writing nothing', async () => {
    const [one, two, joined] = ['one', 'two', 'joined'].map((n) => path.join(base, n)) as [string, string, string];
    git(one, ['update-index', '--add', '-z', '--stdin'], 'a/two.txt\0');
    git(two, ['update-index', '--add', '-z', '--stdin'], 'a/two.txt\0z.txt\0');
    await expect(mergeIndexFiles([one, two], joined)).rejects.toThrow(/path in two parts: a\/two.txt/);
    const bytes = fs.readFileSync(two);
    bytes[20] = (bytes[20] ?? 0) ^ 0xff;
    fs.writeFileSync(two, bytes);
    await expect(mergeIndexFiles([one, two], joined)).rejects.toThrow(/checksum mismatch/);
    expect(fs.existsSync(joined)).toBe(false);
  });
});
