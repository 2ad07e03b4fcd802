// A snapshot limited to paths records exactly what a full scan would for
// those paths: ignore rules, extra excludes, deletions, links, new folders,
// nested repositories and files that are tracked although a rule now matches
// them (the fast path in scan-paths.ts and the general scan must agree).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realGit, sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox({ settings: { extra_excludes: ['*.secretish'] } });
});
afterEach(() => s.cleanup());

function stored(id: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = storeGit(s.storeHome, ['ls-tree', '-r', '-z', id]).split('\0').filter(Boolean);
  for (const line of lines) {
    const [info, name] = line.split('\t') as [string, string];
    out[name] = info.split(' ')[0] ?? '';
  }
  return out;
}

/** The limited snapshot covered every change: a full comparison with the disk finds none. */
async function expectInSync(id: string): Promise<void> {
  expect((await s.workspace.diff(id, 'workspace')).files).toEqual([]);
}

describe('path-limited snapshots', () => {
  it('record edits, additions, deletions and links like a full scan, and leave ignored paths out', async () => {
    write(s.ws, '.gitignore', 'ignored/\n*.log\n');
    write(s.ws, 'a.txt', 'a\n');
    write(s.ws, 'gone.txt', 'bye\n');
    write(s.ws, 'kept.log', 'tracked before it was ignored? no: ignored from the start\n');
    const first = await s.workspace.snapshot();
    expect(first.id).not.toBeNull();
    expect(Object.keys(stored(first.id as string)).sort()).toEqual(['.gitignore', 'a.txt', 'gone.txt']);

    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'new/deep/b.txt', 'b\n');
    fs.rmSync(path.join(s.ws, 'gone.txt'));
    fs.symlinkSync('a.txt', path.join(s.ws, 'link'));
    write(s.ws, 'ignored/x.txt', 'x\n');
    write(s.ws, 'z.log', 'log\n');
    write(s.ws, 'node_modules/m.js', 'm\n');
    write(s.ws, 'c.secretish', 'c\n');
    const paths = ['a.txt', 'new/deep/b.txt', 'gone.txt', 'link', 'ignored/x.txt', 'z.log', 'node_modules/m.js', 'c.secretish', 'a.txt'];
    const r = await s.workspace.snapshot({ paths });
    expect(r.id).not.toBeNull();
    expect(r.files_changed).toBe(4);
    const tree = stored(r.id as string);
    expect(Object.keys(tree).sort()).toEqual(['.gitignore', 'a.txt', 'link', 'new/deep/b.txt']);
    expect(tree['link']).toBe('120000');
    await expectInSync(r.id as string);

    // Naming only ignored or unchanged paths records nothing.
    expect((await s.workspace.snapshot({ paths: ['z.log', 'ignored/x.txt', 'a.txt'] })).id).toBeNull();
  });

  it('a tracked file stays tracked when a rule now matches it, as in a full scan', async () => {
    write(s.ws, 'notes.txt', 'v1\n');
    const first = await s.workspace.snapshot();
    // The rule arrives without the .gitignore being snapshotted; the file is edited.
    write(s.ws, '.gitignore', 'notes.txt\n');
    write(s.ws, 'notes.txt', 'v2\n');
    const r = await s.workspace.snapshot({ paths: ['notes.txt'] });
    expect(r.id).not.toBeNull();
    expect(r.id).not.toBe(first.id);
    expect(storeGit(s.storeHome, ['cat-file', 'blob', `${r.id as string}:notes.txt`])).toBe('v2\n');
  });

  it('a path inside a nested repository is not recorded as a file', async () => {
    write(s.ws, 'top.txt', 'top\n');
    await s.workspace.snapshot();
    write(s.ws, 'inner/f.txt', 'inner\n');
    realGit(path.join(s.ws, 'inner'), ['init', '-q']);
    write(s.ws, 'top.txt', 'top2\n');
    const r = await s.workspace.snapshot({ paths: ['top.txt', 'inner/f.txt'] });
    expect(r.id).not.toBeNull();
    expect(Object.keys(stored(r.id as string)).sort()).toEqual(['top.txt']);
  });

  it('a credential file named as a path stays out even when .gitignore re-includes it', async () => {
    write(s.ws, 'a.txt', 'a\n');
    await s.workspace.snapshot();
    write(s.ws, '.gitignore', '!.env\n!*.pem\n');
    write(s.ws, 'deep/.env', 'SECRET=1\n');
    write(s.ws, 'deep/server.pem', 'key\n');
    write(s.ws, 'a.txt', 'a2\n');
    const r = await s.workspace.snapshot({ paths: ['deep/.env', 'deep/server.pem', 'a.txt'] });
    expect(r.id).not.toBeNull();
    expect(Object.keys(stored(r.id as string)).sort()).toEqual(['a.txt']);
  });

  it('an ignored path left in the private index by an interrupted snapshot is not recorded', async () => {
    write(s.ws, '.gitignore', 'ignored/\n');
    write(s.ws, 'a.txt', 'a\n');
    await s.workspace.snapshot();
    // What a snapshot killed between its speculative add and the drop leaves.
    write(s.ws, 'ignored/x.txt', 'x\n');
    const dir = path.join(s.storeHome, 'workspaces');
    const index = path.join(dir, fs.readdirSync(dir)[0] ?? '', 'index');
    execFileSync('git', ['update-index', '--add', '--', 'ignored/x.txt'], {
      cwd: s.ws,
      env: { PATH: process.env['PATH'], GIT_DIR: path.join(s.storeHome, 'git'), GIT_WORK_TREE: s.ws, GIT_INDEX_FILE: index, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' },
    });
    write(s.ws, 'a.txt', 'a2\n');
    for (const paths of [['a.txt'], undefined]) {
      const r = await s.workspace.snapshot(paths ? { paths } : {});
      if (r.id !== null) expect(Object.keys(stored(r.id)).sort()).toEqual(['.gitignore', 'a.txt']);
    }
    const latest = (await s.workspace.list({ limit: 1 }))[0];
    expect(Object.keys(stored(latest?.id ?? '')).sort()).toEqual(['.gitignore', 'a.txt']);
  });
});
