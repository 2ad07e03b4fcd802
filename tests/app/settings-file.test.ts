// Settings writes go through the guarded write: a config.json (or the list of workspaces) that is a
// link out of the store is refused, naming it, and the file it points at is left as it was.
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { writeSettings } from '../../electron/app/settings-file.js';
import { WorkspaceListFile } from '../../electron/app/workspace-list.js';
import { SettingsSchema } from '../../shared/settings.js';

let dir: string;
let store: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-settings-'));
  store = join(dir, 'store');
  await mkdir(store);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('writes config.json owner-only inside the store', async () => {
  await writeSettings(store, { daemon: false }, SettingsSchema.parse({}));
  expect(JSON.parse(await readFile(join(store, 'config.json'), 'utf8'))).toMatchObject({ daemon: false });
  expect((await lstat(join(store, 'config.json'))).mode & 0o777).toBe(0o600);
});

it('refuses a config.json that is a link out of the store', async () => {
  await writeFile(join(dir, 'elsewhere.json'), '{"theirs": true}');
  await symlink(join(dir, 'elsewhere.json'), join(store, 'config.json'));
  await expect(writeSettings(store, { daemon: false }, SettingsSchema.parse({}))).rejects.toThrow(`${join(store, 'config.json')} is a symbolic link that leads outside the store`);
  expect(await readFile(join(dir, 'elsewhere.json'), 'utf8')).toBe('{"theirs": true}');
});

it('refuses a list of workspaces that is a link out of the store', async () => {
  await writeFile(join(dir, 'elsewhere.json'), 'theirs');
  await symlink(join(dir, 'elsewhere.json'), join(store, 'app-workspaces.json'));
  const list = new WorkspaceListFile(store);
  await expect(list.update(() => [])).rejects.toThrow('leads outside the store');
  expect(await readFile(join(dir, 'elsewhere.json'), 'utf8')).toBe('theirs');
});
