// Credentials stay out of the store wherever they sit: the credential
// excludes match at every depth, and a workspace that is (or lies inside) a
// credential folder of the home (~/.aws, ~/.ssh, ~/.gnupg, ~/.config/gh,
// ~/.docker, ~/.kube) is refused with the reason, by the engine, the CLI and
// (failing open: the agent is never blocked) the hooks. include_credentials
// still opts in.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import { sandbox, write, type Sandbox } from '../engine/helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const SECRET = 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

/** Every blob the store holds, as text: no secret may be among them. */
function storeText(storeHome: string): string {
  const gitDir = path.join(storeHome, 'git');
  const objects = execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'], { encoding: 'utf8' });
  const blobs = objects.split('\n').filter((l) => l.endsWith(' blob')).map((l) => l.split(' ')[0] ?? '');
  return blobs.map((oid) => execFileSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', oid], { encoding: 'utf8' })).join('\n');
}

const FOLDERS: Array<[string, string]> = [
  ['.aws', 'credentials'],
  ['.config/gh', 'hosts.yml'],
  ['.docker', 'config.json'],
  ['.kube', 'config'],
  ['.ssh', 'id_work'],
  ['.gnupg', 'private-keys-v1.d/key'],
];

describe('a workspace that is or lies inside a credential folder', () => {
  it('is refused by the engine, naming the folder and the opt-in', async () => {
    for (const [folder, file] of FOLDERS) {
      write(s.home, `${folder}/${file}`, `${SECRET}\n`);
      write(s.home, `${folder}/inner/more.txt`, `${SECRET}\n`);
      const real = fs.realpathSync(path.join(s.home, folder));
      await expect(s.store.workspace(real)).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining(`it is ${real}, a folder of credentials`) });
      await expect(s.store.workspace(path.join(real, 'inner'))).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining(`inside ${real}`) });
      await expect(s.store.workspace(path.join(real, 'inner'))).rejects.toMatchObject({ message: expect.stringContaining('include_credentials') });
    }
    expect(storeText(s.storeHome)).not.toContain('wJalrXUtnFEMI');
  });

  it('~/.aws as a link into a dotfiles folder: the folder it leads to is refused too', async () => {
    write(s.base, 'dotfiles/aws/credentials', `${SECRET}\n`);
    fs.symlinkSync(path.join(s.base, 'dotfiles', 'aws'), path.join(s.home, '.aws'));
    await expect(s.store.workspace(path.join(s.base, 'dotfiles', 'aws'))).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('a folder of credentials') });
    expect((await s.store.workspace(path.join(s.base, 'dotfiles')).catch(() => null)) !== null).toBe(true); // its parent is no credential folder
  });

  it('include_credentials still opts in', async () => {
    write(s.home, '.aws/credentials', `${SECRET}\n`);
    const optIn = await openStore({ home: s.storeHome, settings: { include_credentials: true } });
    const ws = await optIn.workspace(path.join(s.home, '.aws'));
    expect((await ws.snapshot()).id).not.toBeNull();
    expect(storeText(s.storeHome)).toContain('wJalrXUtnFEMI');
  });

  it('chronoscope snapshot -w ~/.aws: one line saying why, no store created', () => {
    write(s.home, '.aws/credentials', `${SECRET}\n`);
    const fresh = path.join(s.base, 'fresh-store');
    const r = spawnSync(process.execPath, [CLI_PATH, 'snapshot', '-w', path.join(s.home, '.aws')], { env: { ...process.env, HOME: s.home, CHRONOSCOPE_HOME: fresh, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^chronoscope: refusing to use .*\.aws as a workspace: it is .*\.aws, a folder of credentials/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(fresh)).toBe(false);
  });

  it('a hook whose agent runs in ~/.aws fails open: exit 0, the call goes on, nothing stored', async () => {
    write(s.home, '.aws/credentials', `${SECRET}\n`);
    const cwd = path.join(s.home, '.aws');
    const hookHome = path.join(s.base, 'hook-store');
    const payload = JSON.stringify({ session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: path.join(cwd, 'credentials'), old_string: 'a', new_string: 'b' }, tool_use_id: 't1', permission_mode: 'default' });
    const r = await runCli(['hook', 'claude-code'], { input: payload, env: { ...baseEnv(hookHome), HOME: s.home, CHRONOSCOPE_NO_DELEGATE: '1' }, cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/"(deny|block)"/);
    const workspaces = path.join(hookHome, 'workspaces');
    expect(fs.existsSync(workspaces) ? fs.readdirSync(workspaces) : []).toEqual([]);
    if (fs.existsSync(path.join(hookHome, 'git'))) expect(storeText(hookHome)).not.toContain('wJalrXUtnFEMI');
  });
});

describe('credential excludes at every depth', () => {
  const NESTED = ['sub/.kube/config', 'sub/.docker/config.json', 'a/b/.aws/credentials', 'tools/.config/gh/hosts.yml', 'x/.config/gcloud/credentials.db', 'deep/er/.ssh/id_work'];

  it('sub/.kube/config, sub/.docker/config.json and the like are never stored, by a full or a path-limited snapshot', async () => {
    for (const rel of NESTED) write(s.ws, rel, `${SECRET}\n`);
    write(s.ws, 'sub/.kube/notes.md', 'kept\n');
    write(s.ws, 'sub/ok.txt', 'kept\n');
    const first = await s.workspace.snapshot();
    expect(first.id).not.toBeNull();
    for (const rel of NESTED) write(s.ws, rel, `${SECRET} changed\n`);
    expect((await s.workspace.snapshot({ paths: NESTED })).id).toBeNull();
    const stored = execFileSync('git', ['--git-dir', path.join(s.storeHome, 'git'), 'ls-tree', '-r', '--name-only', first.id as string], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(stored).toEqual(['sub/.kube/notes.md', 'sub/ok.txt']);
    expect(storeText(s.storeHome)).not.toContain('wJalrXUtnFEMI');
  });
});
