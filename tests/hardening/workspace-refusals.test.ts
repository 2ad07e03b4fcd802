// System folders are never workspaces, whichever way they are reached, and
// reading (the checkpoints:list channel) never registers a folder.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { systemFolder } from '../../electron/engine/store.js';
import { createRouter } from '../../electron/router/index.js';
import { tempDirs, type TempDirs } from '../app/helpers.js';
import { CLI_PATH } from '../paths.js';

let dirs: TempDirs;
let app: AppService | undefined;
beforeEach(async () => {
  dirs = await tempDirs('chronoscope-refusals-');
});
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  await dirs.cleanup();
});

const SYSTEM = ['/proc', `/proc/${process.pid}`, '/proc/self', '/dev', '/etc', '/sys', '/usr', '/var', '/boot'].filter((d) => fs.existsSync(d));

describe('system folders', () => {
  it.skipIf(process.platform === 'win32')('are refused by the CLI with one line, and leave no store behind', () => {
    for (const dir of SYSTEM) {
      const r = spawnSync(process.execPath, [CLI_PATH, 'snapshot', '-w', dir], { env: { ...process.env, CHRONOSCOPE_HOME: dirs.home }, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, dir).toBe(1);
      expect(r.stderr, dir).toMatch(/system folder/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(fs.readdirSync(dirs.home)).toEqual([]);
  });

  it('are refused by the app service too; Windows and macOS system folders by the same rule', async () => {
    app = await createAppService({ home: dirs.home, host: 'browser', version: '0', watch: false });
    for (const dir of SYSTEM) await expect(app.addWorkspace(dir)).rejects.toMatchObject({ code: 'refused' });
    expect(systemFolder('C:\\Windows', 'win32', {})).not.toBeNull();
    expect(systemFolder('C:\\Windows\\System32', 'win32', {})).not.toBeNull();
    expect(systemFolder('C:\\Program Files', 'win32', {})).not.toBeNull();
    expect(systemFolder('C:\\src\\project', 'win32', {})).toBeNull();
    expect(systemFolder('/System/Library', 'darwin')).not.toBeNull();
    expect(systemFolder('/var/www/site', 'linux')).toBeNull();
    expect(systemFolder('/usr/local/src/project', 'linux')).toBeNull();
  });
});

describe('reading does not register', () => {
  it('checkpoints:list of a folder the store does not know answers [] and records nothing', async () => {
    app = await createAppService({ home: dirs.home, host: 'browser', version: '0', watch: false });
    const router = createRouter(app);
    const listed = await router.invoke('checkpoints:list', { workspace: dirs.workspace });
    expect(listed).toEqual({ ok: true, value: [] });
    for (const channel of ['checkpoints:diff'] as const) {
      const r = await router.invoke(channel, { workspace: dirs.workspace, from: 'latest', to: 'workspace' });
      expect(r.ok).toBe(false);
    }
    expect(await app.store.listWorkspaces()).toEqual([]);
    expect(fs.existsSync(path.join(dirs.home, 'workspaces')) ? fs.readdirSync(path.join(dirs.home, 'workspaces')) : []).toEqual([]);
  });
});
