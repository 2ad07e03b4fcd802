// A refused workspace leaves nothing behind, and the home-folder rule holds
// even when $HOME points elsewhere.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../paths.js';
import { sandbox, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const realHome = os.userInfo().homedir;

describe('refused workspaces', () => {
  it.skipIf(!fs.existsSync(realHome))("refuses the account's home folder even when $HOME points elsewhere", async () => {
    expect(process.env['HOME']).not.toBe(realHome);
    await expect(s.store.workspace(realHome)).rejects.toMatchObject({ code: 'refused' });
  });

  it.each([['/'], [realHome]])('chronoscope list -w %s (HOME elsewhere) is refused and creates no store', (dir) => {
    const fresh = path.join(s.base, 'fresh-store');
    for (const command of [['list', '-w', dir], ['status', '-w', dir], ['snapshot', '-w', dir]]) {
      const run = spawnSync(process.execPath, [CLI_PATH, ...command], {
        env: { ...process.env, HOME: s.home, CHRONOSCOPE_HOME: fresh, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(/refusing/);
      expect(fs.existsSync(fresh)).toBe(false);
    }
  });
});
