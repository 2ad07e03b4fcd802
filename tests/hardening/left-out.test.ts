// Everything a checkpoint leaves out is named in it: names git cannot store
// (not UTF-8, .git look-alikes) are listed as 'unrecordable', not dropped;
// untracked FIFOs and sockets, which git's listing never shows, as 'special'.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SnapshotResult } from '../../shared/model.js';
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

/** What a snapshot named as left out (it must have recorded a checkpoint). */
function leftOut(r: SnapshotResult): string[] {
  if (r.id === null) throw new Error(`expected a checkpoint: ${r.skipped}`);
  return r.skipped_files.map((f) => f.path);
}

/** A listening Unix socket at `file`, made by a separate process (gone when it exits; the socket file stays). */
function socketFile(file: string): void {
  const r = spawnSync(process.execPath, ['-e', `const s=require('net').createServer().listen(process.argv[1],()=>process.exit(0))`, file], { timeout: 10_000 });
  if (r.status !== 0) throw new Error(`cannot make a socket: ${r.stderr}`);
}

describe.skipIf(process.platform === 'win32')('untracked special files are named as left out', () => {
  it('FIFOs and sockets, at any depth, are named special; ignored ones and those in ignored folders are not', async () => {
    write(s.ws, 'ok.txt', 'fine\n');
    write(s.ws, '.gitignore', 'node_modules/\n*.ignored\n');
    fs.mkdirSync(path.join(s.ws, 'deep', 'er'), { recursive: true });
    fs.mkdirSync(path.join(s.ws, 'node_modules', 'pkg'), { recursive: true });
    execFileSync('mkfifo', [path.join(s.ws, 'pipe'), path.join(s.ws, 'deep', 'er', 'fifo'), path.join(s.ws, 'node_modules', 'pkg', 'fifo'), path.join(s.ws, 'x.ignored')]);
    socketFile(path.join(s.ws, 'deep', 'agent.sock'));
    const r = await s.workspace.snapshot();
    if (r.id === null) throw new Error('expected a checkpoint');
    expect(r.skipped_files.map((f) => `${f.why} ${f.path}`)).toEqual(['special deep/agent.sock', 'special deep/er/fifo', 'special pipe']);
    expect((await s.workspace.resolve(r.id)).skipped.map((f) => f.path)).toEqual(['deep/agent.sock', 'deep/er/fifo', 'pipe']);
  });

  it('the next full scan sees a FIFO made or removed since (the walk remembers unchanged folders)', async () => {
    write(s.ws, 'a/b/file.txt', 'one\n');
    execFileSync('mkfifo', [path.join(s.ws, 'a', 'first')]);
    expect(leftOut(await s.workspace.snapshot())).toEqual(['a/first']);
    fs.rmSync(path.join(s.ws, 'a', 'first'));
    execFileSync('mkfifo', [path.join(s.ws, 'a', 'b', 'second')]);
    fs.mkdirSync(path.join(s.ws, 'new'));
    execFileSync('mkfifo', [path.join(s.ws, 'new', 'third')]);
    write(s.ws, 'a/b/file.txt', 'two\n');
    expect(leftOut(await s.workspace.snapshot())).toEqual(['a/b/second', 'new/third']);
    // Ignore rules changed: what they now match is no longer named.
    write(s.ws, '.gitignore', 'new/\n');
    expect(leftOut(await s.workspace.snapshot())).toEqual(['a/b/second']);
  });

  it('a snapshot limited to a FIFO path names it', async () => {
    write(s.ws, 'a.txt', 'one\n');
    await s.workspace.snapshot();
    execFileSync('mkfifo', [path.join(s.ws, 'made-later')]);
    write(s.ws, 'a.txt', 'two\n');
    const r = await s.workspace.snapshot({ paths: ['a.txt', 'made-later'] });
    expect(r.id === null ? r.skipped : r.skipped_files.map((f) => `${f.why} ${f.path}`)).toEqual(['special made-later']);
  });
});
