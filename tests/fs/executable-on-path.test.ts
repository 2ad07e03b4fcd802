// A program found on PATH as a shell finds it, but never through a relative
// PATH entry: "." would find a program of that name in whatever folder the app
// runs in, and an agent writes to workspaces.
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executableOnPath } from '../../electron/fs/executable-on-path.js';

let dir: string;
let cwd: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'chronoscope-on-path-'));
  cwd = process.cwd();
});
afterEach(async () => {
  process.chdir(cwd);
  await rm(dir, { recursive: true, force: true });
});

async function program(folder: string, name: string, mode: number): Promise<string> {
  await mkdir(path.join(dir, folder), { recursive: true });
  const file = path.join(dir, folder, name);
  await writeFile(file, '#!/bin/sh\nexit 0\n');
  await chmod(file, mode);
  return file;
}

describe.skipIf(process.platform === 'win32')('executableOnPath', () => {
  it('finds the first executable of that name in PATH order; a file that cannot run is passed over', async () => {
    await program('a', 'tool', 0o644);
    const b = await program('b', 'tool', 0o755);
    await program('c', 'tool', 0o755);
    const PATH = ['a', 'b', 'c'].map((f) => path.join(dir, f)).join(path.delimiter);
    expect(await executableOnPath(['tool'], PATH)).toBe(b);
    expect(await executableOnPath(['nothing', 'tool'], PATH)).toBe(b);
    expect(await executableOnPath(['nothing'], PATH)).toBeNull();
  });

  it('never looks in a relative PATH entry, even where it would find one', async () => {
    await program('here', 'tool', 0o755);
    process.chdir(dir);
    expect(await executableOnPath(['tool'], ['here', '.', ''].join(path.delimiter))).toBeNull();
    expect(await executableOnPath(['tool'], '')).toBeNull();
  });
});
