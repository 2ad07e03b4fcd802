// The guarded write: real files, real links, no mocks.
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkContained, removeContained, removeEmptyFolders, writeContained } from '../../electron/fs/contained-write.js';

let dir: string;
let ws: string;
let elsewhere: string;
const root = () => ({ dir: ws, label: 'the workspace' });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-contained-'));
  ws = join(dir, 'ws');
  elsewhere = join(dir, 'elsewhere');
  await mkdir(ws);
  await mkdir(elsewhere);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeContained', () => {
  it('writes the file whole, creates its folders and says which', async () => {
    const r = await writeContained(root(), join(ws, 'a', 'b', 'f.json'), 'x\n', { mode: 0o600 });
    expect(r.createdDirs).toEqual([join(ws, 'a'), join(ws, 'a', 'b')]);
    expect(await readFile(join(ws, 'a', 'b', 'f.json'), 'utf8')).toBe('x\n');
    expect((await stat(join(ws, 'a', 'b', 'f.json'))).mode & 0o777).toBe(0o600);
    expect(await readdir(join(ws, 'a', 'b'))).toEqual(['f.json']);
  });

  it("keeps an existing file's mode when none is given", async () => {
    await writeFile(join(ws, 'f'), 'old', { mode: 0o640 });
    await writeContained(root(), join(ws, 'f'), 'new');
    expect((await stat(join(ws, 'f'))).mode & 0o777).toBe(0o640);
  });

  it('refuses a folder link out of the root, naming it, and writes nothing there', async () => {
    await symlink(elsewhere, join(ws, '.gemini'));
    const file = join(ws, '.gemini', 'settings.json');
    await expect(writeContained(root(), file, '{}')).rejects.toThrow(`${join(ws, '.gemini')} is a symbolic link that leads outside the workspace (to ${elsewhere})`);
    await expect(checkContained(root(), file)).rejects.toMatchObject({ code: 'refused' });
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('refuses a deeper folder link and a file link out of the root', async () => {
    await mkdir(join(ws, '.github'));
    await symlink(elsewhere, join(ws, '.github', 'hooks'));
    await expect(writeContained(root(), join(ws, '.github', 'hooks', 'c.json'), '{}')).rejects.toThrow('leads outside the workspace');
    await writeFile(join(elsewhere, 'target'), 'theirs');
    await symlink(join(elsewhere, 'target'), join(ws, 'f'));
    await expect(writeContained(root(), join(ws, 'f'), 'ours')).rejects.toThrow(`${join(ws, 'f')} is a symbolic link that leads outside`);
    await expect(removeContained(root(), join(ws, 'f'))).rejects.toThrow('leads outside');
    expect(await readFile(join(elsewhere, 'target'), 'utf8')).toBe('theirs');
    expect((await lstat(join(ws, 'f'))).isSymbolicLink()).toBe(true);
  });

  it('refuses a dangling link (it could be made to lead anywhere)', async () => {
    await symlink(join(elsewhere, 'not-yet'), join(ws, '.opencode'));
    await expect(writeContained(root(), join(ws, '.opencode', 'plugin', 'p.js'), 'x')).rejects.toThrow('leads nowhere');
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it('follows a link that stays inside the root', async () => {
    await mkdir(join(ws, 'real'));
    await symlink(join(ws, 'real'), join(ws, 'alias'));
    await writeContained(root(), join(ws, 'alias', 'f'), 'x');
    expect(await readFile(join(ws, 'real', 'f'), 'utf8')).toBe('x');
  });

  it('a root that is itself a link is taken as given', async () => {
    await symlink(elsewhere, join(dir, 'home-link'));
    await writeContained({ dir: join(dir, 'home-link'), label: "the agent's config folder" }, join(dir, 'home-link', 'f'), 'x');
    expect(await readFile(join(elsewhere, 'f'), 'utf8')).toBe('x');
  });

  it('creates a missing root and reports it', async () => {
    const home = join(dir, 'home', '.gemini');
    const r = await writeContained({ dir: home, label: "Gemini's config folder" }, join(home, 'settings.json'), '{}');
    expect(r.createdDirs).toEqual([join(dir, 'home'), home]);
  });
});

describe('removeContained and removeEmptyFolders', () => {
  it('removes the file, then the folders left empty, never a folder with something in it', async () => {
    const { createdDirs } = await writeContained(root(), join(ws, 'a', 'b', 'f'), 'x');
    await writeFile(join(ws, 'a', 'keep'), 'theirs');
    expect(await removeContained(root(), join(ws, 'a', 'b', 'f'))).toBe(true);
    expect(await removeContained(root(), join(ws, 'a', 'b', 'f'))).toBe(false);
    expect(await removeEmptyFolders(root(), createdDirs)).toEqual([join(ws, 'a', 'b')]);
    expect(await readdir(join(ws, 'a'))).toEqual(['keep']);
  });

  it('does not remove a folder through a link out of the root', async () => {
    await mkdir(join(elsewhere, 'empty'));
    await symlink(elsewhere, join(ws, 'link'));
    expect(await removeEmptyFolders(root(), [join(ws, 'link', 'empty')])).toEqual([]);
    expect(await readdir(elsewhere)).toEqual(['empty']);
  });
});
