// Trees written from Node (tree-write.ts, tree-update.ts) are byte for byte
// what `git write-tree` writes for the same content — same ids — including
// modes, symlinks, unicode names, empty folders dropping out and git's order
// (`a.b` < `a/` < `a0`, a file `a` before `a-b`); and a path-limited snapshot
// of known files runs no git process, with git's own line counts.
import { execFileSync } from 'node:child_process';
import * as childProcess from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeLooseObject } from '../../electron/engine/objects/object-batch.js';
import { lineCounts } from '../../electron/engine/trees/line-stats.js';
import { writeUpdatedTree, type PathChange } from '../../electron/engine/trees/tree-write.js';
import { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:child_process')>();
  return { ...real, spawn: vi.fn(real.spawn) };
});

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

/** What git itself writes for the disk as it is: every file added to a fresh index, then write-tree. */
function gitWriteTree(ws: string): string {
  const index = path.join(s.base, `git-index-${Math.random().toString(36).slice(2)}`);
  const env = {
    PATH: process.env['PATH'],
    GIT_DIR: path.join(s.storeHome, 'git'),
    GIT_WORK_TREE: ws,
    GIT_INDEX_FILE: index,
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const run = (args: string[]): string => execFileSync('git', ['-c', 'core.excludesFile=/dev/null', '-c', 'core.fileMode=true', '-c', 'core.symlinks=true', ...args], { cwd: ws, env, encoding: 'utf8' });
  run(['add', '-A', '--', '.']);
  const tree = run(['write-tree']).trim();
  fs.rmSync(index, { force: true });
  return tree;
}

/** Names whose order differs between plain byte order and git's (folders sort as if ending in '/'). */
function edgeCaseWorkspace(ws: string): void {
  write(ws, 'a', 'file a\n');
  write(ws, 'a.b', 'a dot b\n');
  write(ws, 'a-b', 'a dash b\n');
  write(ws, 'a0', 'a zero\n');
  write(ws, 'b/c', 'inside b\n');
  write(ws, 'b.c', 'b dot c\n');
  write(ws, 'b-c/d', 'in b-c\n');
  write(ws, 'x/a/b', 'deep\n');
  write(ws, 'x/a.b', 'x a.b\n');
  write(ws, 'x/a-b/c', 'x a-b\n');
  write(ws, 'é.txt', 'accent\n');
  write(ws, 'e\u0301.txt', 'decomposed accent\n');
  write(ws, '日本/語.txt', 'nihongo\n');
  write(ws, 'with space.txt', 'space\n');
  write(ws, 'run.sh', '#!/bin/sh\necho hi\n', 0o755);
  write(ws, 'empty', '');
  write(ws, 'no-newline', 'last line');
  write(ws, 'lonely/only', 'the only file here\n');
  fs.symlinkSync('a.b', path.join(ws, 'link'));
  fs.symlinkSync('日本/語.txt', path.join(ws, 'ünicode-link'));
}

describe('trees written from Node', () => {
  it('have the ids git write-tree gives for the same content', async () => {
    edgeCaseWorkspace(s.ws);
    const before = gitWriteTree(s.ws);
    const gitDir = path.join(s.storeHome, 'git');
    const changes = new Map<string, PathChange>();
    const blob = async (rel: string, data: string | Buffer, mode = '100644'): Promise<void> => {
      write(s.ws, rel, data);
      changes.set(rel, { mode, oid: await writeLooseObject(gitDir, 'blob', Buffer.from(data)) });
    };
    await blob('a', 'file a, edited\n');
    await blob('x/a/b', 'deep, edited\n');
    await blob('日本/語.txt', 'nihongo 2\n');
    fs.chmodSync(path.join(s.ws, 'a.b'), 0o755);
    changes.set('a.b', { mode: '100755', oid: await writeLooseObject(gitDir, 'blob', fs.readFileSync(path.join(s.ws, 'a.b'))) });
    fs.rmSync(path.join(s.ws, 'link'));
    fs.symlinkSync('a0', path.join(s.ws, 'link'));
    changes.set('link', { mode: '120000', oid: await writeLooseObject(gitDir, 'blob', Buffer.from('a0')) });
    fs.rmSync(path.join(s.ws, 'lonely'), { recursive: true });
    changes.set('lonely/only', null);
    fs.rmSync(path.join(s.ws, 'b.c'));
    changes.set('b.c', null);
    await blob('x/a-b/new', 'a new file in x/a-b\n');

    const expected = gitWriteTree(s.ws);
    expect(await writeUpdatedTree({ gitDir }, before, changes)).toBe(expected);
    // Every object it wrote is a well-formed git object.
    execFileSync('git', ['--git-dir', gitDir, 'fsck', '--no-dangling', '--strict'], { stdio: 'pipe', env: { PATH: process.env['PATH'], GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' } });
  });

  it('drop a folder that ends up empty and give the empty tree when nothing is left', async () => {
    write(s.ws, 'only/one', 'x\n');
    const before = gitWriteTree(s.ws);
    const tree = await writeUpdatedTree({ gitDir: path.join(s.storeHome, 'git') }, before, new Map([['only/one', null]]));
    expect(tree).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });
});

/** `node -e WAIT_THEN_RUN cmd args…`: runs cmd after 30 s (longer than the test may take: waiting for it fails the test). */
const WAIT_THEN_RUN = "setTimeout(() => { const r = require('node:child_process').spawnSync(process.argv[1], process.argv.slice(2), { stdio: 'inherit' }); process.exit(r.status ?? 1); }, 30000)";

describe('a first snapshot of many files', () => {
  it('writes its trees as one pack, with the ids git write-tree gives', async () => {
    edgeCaseWorkspace(s.ws);
    // Past the bulk threshold (200 files), in nested folders, with a non-UTF-8-safe mix of names.
    for (let i = 0; i < 260; i++) write(s.ws, `pkg${i % 7}/mod${i % 13}/f${i}.txt`, `file ${i}\n`);
    // A pipe among them is left out (never handed to git, which would refuse the whole list).
    execFileSync('mkfifo', [path.join(s.ws, 'pkg3', 'pipe')]);
    // What a first snapshot killed while hashing leaves: its processes' indexes and a lock.
    const index = (s.workspace as WorkspaceImpl).ctx.layout.indexFile;
    fs.writeFileSync(`${index}.part1`, 'torn');
    fs.writeFileSync(`${index}.part0.lock`, '');
    const spawned = vi.mocked(childProcess.spawn);
    spawned.mockClear();
    const r = await s.workspace.snapshot();
    // Hashed once (a process per core, two at most): the leftovers were cleared first, not failed on and retried.
    expect(spawned.mock.calls.filter((c) => (c[1] as string[]).includes('update-index')).length).toBeLessThanOrEqual(2);
    if (r.id === null) throw new Error('no checkpoint taken');
    expect(r.skipped_files.map((f) => `${f.path} ${f.why}`)).toEqual(['pkg3/pipe special']);
    const tree = storeGit(s.storeHome, ['rev-parse', `${r.id}^{tree}`]).trim();
    expect(tree).toBe(gitWriteTree(s.ws));
    // No tree went into a loose file: every loose object left is the commit (or git's blobs, none here).
    const objects = path.join(s.storeHome, 'git', 'objects');
    const loose = fs.readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d)).flatMap((d) => fs.readdirSync(path.join(objects, d)).map((f) => d + f));
    const types = loose.map((oid) => storeGit(s.storeHome, ['cat-file', '-t', oid]).trim());
    expect(types.filter((t) => t === 'tree')).toEqual([]);
    execFileSync('git', ['--git-dir', path.join(s.storeHome, 'git'), 'fsck', '--no-dangling', '--strict'], { stdio: 'pipe', env: { PATH: process.env['PATH'], GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' } });
    // The index joined from the hashing processes kept every file's stat data:
    // a full scan now reads no file and records nothing (a person's checkpoint reads the latest
    // commit once: the pipe it leaves out was already named there, so it is no reason to record).
    const spawn = vi.mocked(childProcess.spawn);
    spawn.mockClear();
    expect((await s.workspace.snapshot()).id).toBeNull();
    expect(spawn.mock.calls.map((c) => (c[1] as string[]).find((a) => !a.startsWith('-') && !a.includes('='))).sort()).toEqual(['cat-file', 'diff-files', 'ls-files']);
    expect(fs.readdirSync(path.join(s.storeHome, 'workspaces', fs.readdirSync(path.join(s.storeHome, 'workspaces'))[0] as string)).filter((f) => f.includes('.part'))).toEqual([]);
    // The next snapshots build on it as on any other.
    write(s.ws, 'pkg0/mod0/f0.txt', 'edited\n');
    const next = await s.workspace.snapshot();
    if (next.id === null) throw new Error('no second checkpoint taken');
    expect(storeGit(s.storeHome, ['rev-parse', `${next.id}^{tree}`]).trim()).toBe(gitWriteTree(s.ws));
    expect(next.files_changed).toBe(1);
  });
});

describe('a path-limited snapshot of known files', () => {
  it('runs no git process, records what git would, and leaves the index in sync afterwards', async () => {
    edgeCaseWorkspace(s.ws);
    const first = await s.workspace.snapshot();
    expect(first.id).not.toBeNull();
    const ws = s.workspace as WorkspaceImpl;
    await ws.settled();

    write(s.ws, 'a', 'file a, edited\nsecond line\n');
    write(s.ws, 'x/a/b', 'deep, edited\n');
    write(s.ws, 'é.txt', 'accent\nmore\n');
    write(s.ws, 'no-newline', 'last line\n');
    fs.chmodSync(path.join(s.ws, 'run.sh'), 0o644);
    fs.rmSync(path.join(s.ws, 'ünicode-link'));
    fs.symlinkSync('a', path.join(s.ws, 'ünicode-link'));
    fs.rmSync(path.join(s.ws, 'lonely'), { recursive: true });
    fs.rmSync(path.join(s.ws, 'a-b'));
    const paths = ['a', 'x/a/b', 'é.txt', 'no-newline', 'run.sh', 'ünicode-link', 'lonely/only', 'a-b', 'a0'];

    const spawn = vi.mocked(childProcess.spawn);
    spawn.mockClear();
    const r = await s.workspace.snapshot({ paths });
    const spawnedDuring = spawn.mock.calls.length;
    if (r.id === null) throw new Error('no checkpoint taken');
    expect(spawnedDuring).toBe(0);

    const tree = storeGit(s.storeHome, ['rev-parse', `${r.id}^{tree}`]).trim();
    expect(tree).toBe(gitWriteTree(s.ws));
    // Line counts as git's numstat gives them between the two checkpoints.
    const numstat = storeGit(s.storeHome, ['diff-tree', '-r', '--no-renames', '--numstat', first.id as string, r.id]).trim().split('\n');
    const sum = (col: number): number => numstat.reduce((n, line) => n + Number(line.split('\t')[col]), 0);
    expect({ files: r.files_changed, insertions: r.insertions, deletions: r.deletions }).toEqual({ files: numstat.length, insertions: sum(0), deletions: sum(1) });

    // The index caught up in the background: a full scan now finds nothing to record.
    await ws.settled();
    const head = JSON.parse(fs.readFileSync(path.join(ws.ctx.layout.dir, 'head'), 'utf8')) as { id: string; index?: string };
    expect(head.id).toBe(r.id);
    expect(head.index).toBeDefined();
    spawn.mockClear();
    expect((await s.workspace.snapshot()).id).toBeNull();
    // diff-files and ls-files -o only: the head file knew the index's tree, so no write-tree.
    expect(spawn.mock.calls.map((c) => (c[1] as string[]).find((a) => !a.startsWith('-') && !a.includes('='))).sort()).toEqual(['diff-files', 'ls-files']);
  });

  it('a file changed again while the index catches up is still recorded by the next full scan', async () => {
    write(s.ws, 'a.txt', 'one\n');
    write(s.ws, 'b.txt', 'b\n');
    await s.workspace.snapshot();
    const ws = s.workspace as WorkspaceImpl;
    await ws.settled();
    write(s.ws, 'a.txt', 'two\n');
    const r = await s.workspace.snapshot({ paths: ['a.txt'] });
    write(s.ws, 'a.txt', 'three, longer\n'); // while the background sync runs (or just before it)
    await ws.settled();
    const again = await s.workspace.snapshot();
    if (r.id === null || again.id === null) throw new Error('a checkpoint was not taken');
    expect(storeGit(s.storeHome, ['cat-file', 'blob', `${r.id}:a.txt`])).toBe('two\n');
    expect(storeGit(s.storeHome, ['cat-file', 'blob', `${again.id}:a.txt`])).toBe('three, longer\n');
  });

  it('snapshots in a burst wait for no index sync and leave one, which brings the index up to date', async () => {
    for (let i = 0; i < 6; i++) write(s.ws, `f${i}.txt`, `${i}\n`);
    await s.workspace.snapshot();
    const ws = s.workspace as WorkspaceImpl;
    await ws.settled();
    const spawn = vi.mocked(childProcess.spawn);
    spawn.mockClear();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      write(s.ws, `f${i}.txt`, `${i} edited\n`);
      const r = await s.workspace.snapshot({ paths: [`f${i}.txt`] });
      if (r.id === null) throw new Error('no checkpoint taken');
      ids.push(r.id);
    }
    // No git process ran between them: each sync waited out its quiet time and the next snapshot merged into it.
    expect(spawn.mock.calls.length).toBe(0);
    await ws.settled();
    expect(spawn.mock.calls.filter((c) => (c[1] as string[]).includes('update-index')).length).toBe(1);
    const head = JSON.parse(fs.readFileSync(path.join(ws.ctx.layout.dir, 'head'), 'utf8')) as { id: string; index?: string };
    expect(head).toMatchObject({ id: ids[4] });
    expect(head.index).toBeDefined();
    spawn.mockClear();
    expect((await s.workspace.snapshot()).id).toBeNull();
    expect(spawn.mock.calls.map((c) => (c[1] as string[]).find((a) => !a.startsWith('-') && !a.includes('='))).sort()).toEqual(['diff-files', 'ls-files']);
  });

  it('a snapshot that arrives while an index sync runs stops it, waits for no git, and the sync is done after it', { timeout: 20_000 }, async () => {
    for (let i = 0; i < 3; i++) write(s.ws, `f${i}.txt`, `${i}\n`);
    await s.workspace.snapshot();
    const ws = s.workspace as WorkspaceImpl;
    await ws.settled();
    const spawn = vi.mocked(childProcess.spawn);
    const real = spawn.getMockImplementation();
    if (real === undefined) throw new Error('spawn is not wrapped');
    // The sync's first update-index is made slow (as one on a 100,000-file index is), so a snapshot
    // surely arrives while it runs; the ones after run as they are.
    let started!: () => void;
    const syncStarted = new Promise<void>((resolve) => (started = resolve));
    let slowed: childProcess.ChildProcess | null = null;
    spawn.mockImplementation(((cmd: string, args: readonly string[], options: childProcess.SpawnOptions) => {
      if (slowed === null && cmd === 'git' && args.includes('update-index')) {
        // A node process that waits, then runs git with its own stdio: killed while it waits, it holds
        // no pipe open (a sleeping child of a shell would, and the sync would seem to end only when it did).
        slowed = real(process.execPath, ['-e', WAIT_THEN_RUN, cmd, ...args], options);
        started();
        return slowed;
      }
      return real(cmd, args, options);
    }) as typeof childProcess.spawn);
    try {
      write(s.ws, 'f0.txt', 'edited\n');
      const first = await s.workspace.snapshot({ paths: ['f0.txt'] });
      const settling = ws.settled(); // ends the quiet time: the sync starts
      await syncStarted;
      write(s.ws, 'f1.txt', 'edited too\n');
      const second = await s.workspace.snapshot({ paths: ['f1.txt'] });
      if (first.id === null || second.id === null) throw new Error('no checkpoint taken');
      // The slow sync was stopped, not waited for.
      expect((slowed as childProcess.ChildProcess | null)?.signalCode).toBe('SIGTERM');
      await settling;
      await ws.settled();
      // The stopped job merged into the next sync: the index holds the latest tree, and a full scan reads no file.
      const head = JSON.parse(fs.readFileSync(path.join(ws.ctx.layout.dir, 'head'), 'utf8')) as { id: string; index?: string };
      expect(head).toMatchObject({ id: second.id });
      expect(head.index).toBeDefined();
      spawn.mockClear();
      expect((await s.workspace.snapshot({ trigger: 'auto' })).id).toBeNull();
      expect(spawn.mock.calls.map((c) => (c[1] as string[]).find((a) => !a.startsWith('-') && !a.includes('='))).sort()).toEqual(['diff-files', 'ls-files']);
      expect(storeGit(s.storeHome, ['cat-file', 'blob', `${second.id}:f0.txt`])).toBe('edited\n');
    } finally {
      spawn.mockImplementation(real);
    }
  });

  it('hands new files, folders and ignored names to git and still records them right', async () => {
    write(s.ws, '.gitignore', '*.log\n');
    write(s.ws, 'keep.txt', 'k\n');
    await s.workspace.snapshot();
    write(s.ws, 'new.txt', 'n\n');
    write(s.ws, 'x.log', 'ignored\n');
    write(s.ws, 'keep.txt', 'k2\n');
    const r = await s.workspace.snapshot({ paths: ['new.txt', 'x.log', 'keep.txt'] });
    if (r.id === null) throw new Error('no checkpoint taken');
    const names = storeGit(s.storeHome, ['ls-tree', '-r', '--name-only', r.id]).trim().split('\n');
    expect(names.sort()).toEqual(['.gitignore', 'keep.txt', 'new.txt']);
  });
});

describe('line counts', () => {
  const counts = (a: string, b: string) => lineCounts(Buffer.from(a), Buffer.from(b));
  it('match what a minimal diff counts, with a missing last newline as a change', () => {
    expect(counts('a\nb\nc\n', 'a\nB\nc\nd\n')).toMatchObject({ insertions: 2, deletions: 1 });
    expect(counts('a\nb', 'a\nb\n')).toMatchObject({ insertions: 1, deletions: 1 });
    expect(counts('', 'x\ny\n')).toMatchObject({ insertions: 2, deletions: 0 });
    expect(counts('1\n2\n3\n4\n5\n', '5\n4\n3\n2\n1\n')).toMatchObject({ insertions: 4, deletions: 4 });
    expect(lineCounts(Buffer.from('a\0b'), Buffer.from('c'))).toEqual({ insertions: 0, deletions: 0, binary: true });
  });
});
