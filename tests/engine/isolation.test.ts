import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import { hashTree, realGit, sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox | undefined;
afterEach(() => s?.cleanup());

describe('isolation from the user and the workspace repository', () => {
  it("leaves the workspace's own .git byte-identical through snapshots and restores", async () => {
    s = await sandbox();
    const env = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
    realGit(s.ws, ['init', '-q'], env);
    write(s.ws, 'tracked.txt', 'v1\n');
    realGit(s.ws, ['add', '.'], env);
    realGit(s.ws, ['commit', '-q', '-m', 'init'], env);
    const before = hashTree(path.join(s.ws, '.git'));
    const v1 = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'tracked.txt', 'v2\n');
    write(s.ws, 'new.txt', 'new\n');
    await s.workspace.snapshot();
    await s.workspace.diff(v1, 'workspace');
    await s.workspace.previewRestore(v1);
    await s.workspace.restore(v1);
    await s.workspace.status();
    expect(hashTree(path.join(s.ws, '.git'))).toEqual(before);
    expect(fs.readFileSync(path.join(s.ws, 'tracked.txt'), 'utf8')).toBe('v1\n');
    const files = (await s.workspace.show(v1)).files.map((f) => f.path);
    expect(files.some((f) => f.startsWith('.git/'))).toBe(false);
  });

  it("ignores the user's git config: signing with a broken gpg, failing hooks, aliases", async () => {
    s = await sandbox();
    const hooks = path.join(s.home, 'hooks');
    fs.mkdirSync(hooks);
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'reference-transaction', 'post-index-change']) {
      write(hooks, hook, '#!/bin/sh\necho hook ran >> "$HOME/hook-ran"\nexit 1\n', 0o755);
    }
    const config = `[user]\n\tname = Someone\n\temail = someone@example.com\n[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = /bin/false\n[core]\n\thooksPath = ${hooks}\n\tautocrlf = true\n\tfsmonitor = /bin/false\n[alias]\n\tcommit-tree = !false\n\twrite-tree = !false\n[init]\n\ttemplateDir = /nonexistent\n`;
    fs.writeFileSync(path.join(s.home, '.gitconfig'), config);
    fs.mkdirSync(path.join(s.home, '.config', 'git'), { recursive: true });
    fs.writeFileSync(path.join(s.home, '.config', 'git', 'config'), config);
    fs.writeFileSync(path.join(s.home, '.config', 'git', 'ignore'), '*.txt\n');
    // A fresh store opened under this HOME, so `git init` also runs with it.
    const store = await openStore({ home: path.join(s.base, 'store2') });
    const ws = await store.workspace(s.ws);
    write(s.ws, 'a.txt', 'line\r\n');
    const result = await ws.snapshot();
    expect(result.id).not.toBeNull();
    const commit = storeGit(path.join(s.base, 'store2'), ['cat-file', 'commit', result.id as string]);
    expect(commit).toContain('author Chronoscope <chronoscope@localhost>');
    expect(commit).not.toContain('gpgsig');
    expect(fs.existsSync(path.join(s.home, 'hook-ran'))).toBe(false);
    // autocrlf from the user's config would have normalised the CRLF
    fs.writeFileSync(path.join(s.ws, 'a.txt'), 'changed\n');
    await ws.restore(result.id as string);
    expect(fs.readFileSync(path.join(s.ws, 'a.txt'), 'utf8')).toBe('line\r\n');
  });

  it('excludes credential files by default and includes them on opt-in', async () => {
    s = await sandbox();
    const secrets = ['.env', '.env.local', 'server.pem', 'tls.key', 'id_rsa', 'id_ed25519.pub', '.npmrc', '.netrc', '.git-credentials', '.ssh/config', '.aws/credentials', '.docker/config.json', 'cert.p12'];
    for (const f of secrets) write(s.ws, f, 'secret\n');
    write(s.ws, '.env.example', 'KEY=\n');
    write(s.ws, 'app.ts', 'code\n');
    write(s.ws, 'node_modules/pkg/index.js', 'dep\n');
    write(s.ws, '__pycache__/x.pyc', 'cache\n');
    const id = (await s.workspace.snapshot()).id as string;
    const files = (await s.workspace.show(id)).files.map((f) => f.path).sort();
    expect(files).toEqual(['.env.example', 'app.ts']);
    const diff = await s.workspace.fileDiff(id, 'workspace', '.env');
    expect(diff.new.kind).toBe('missing');

    const optIn = await openStore({ home: s.storeHome, settings: { include_credentials: true } });
    const ws2 = await optIn.workspace(s.ws);
    const id2 = (await ws2.snapshot()).id as string;
    const files2 = (await ws2.show(id2)).files.map((f) => f.path).sort();
    expect(files2).toEqual(secrets.slice().sort());
  });

  it('honours extra excludes from config.json and rejects an invalid config file', async () => {
    s = await sandbox();
    fs.writeFileSync(path.join(s.storeHome, 'config.json'), JSON.stringify({ extra_excludes: ['*.tmp', 'scratch/'] }));
    const store = await openStore({ home: s.storeHome });
    const ws = await store.workspace(s.ws);
    write(s.ws, 'a.tmp', 'x');
    write(s.ws, 'scratch/b.txt', 'x');
    write(s.ws, 'keep.txt', 'x');
    const id = (await ws.snapshot()).id as string;
    expect((await ws.show(id)).files.map((f) => f.path)).toEqual(['keep.txt']);
    fs.writeFileSync(path.join(s.storeHome, 'config.json'), JSON.stringify({ max_file_mb: 'big' }));
    await expect(openStore({ home: s.storeHome })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringContaining('config.json') });
  });

  it('skips oversized files, names them, and a restore never overwrites them', async () => {
    s = await sandbox({ settings: { max_file_mb: 0.001 } });
    write(s.ws, 'small.txt', 'small\n');
    write(s.ws, 'big.bin', Buffer.alloc(5000, 1));
    const r = await s.workspace.snapshot();
    if (r.id === null) throw new Error('expected a checkpoint');
    expect(r.skipped_files).toEqual([{ path: 'big.bin', size: 5000, why: 'too_large' }]);
    expect(r.checkpoint.skipped).toEqual([{ path: 'big.bin', size: 5000, why: 'too_large' }]);
    expect((await s.workspace.show(r.id)).files.map((f) => f.path)).toEqual(['small.txt']);
    // a tracked file that grows too large leaves the next checkpoint
    write(s.ws, 'small.txt', 'x'.repeat(3000));
    const r2 = await s.workspace.snapshot({ paths: ['small.txt'] });
    if (r2.id === null) throw new Error('expected a checkpoint');
    expect(r2.skipped_files.map((f) => f.path)).toEqual(['small.txt']);
    await s.workspace.restore(r.id);
    expect(fs.readFileSync(path.join(s.ws, 'big.bin')).length).toBe(5000);
  });

  it('leaves nested git repositories out instead of recording broken gitlinks', async () => {
    s = await sandbox();
    const nested = path.join(s.ws, 'vendor', 'lib');
    fs.mkdirSync(nested, { recursive: true });
    realGit(nested, ['init', '-q']);
    write(nested, 'lib.c', 'int x;\n');
    write(s.ws, 'main.c', 'int main;\n');
    const id = (await s.workspace.snapshot()).id as string;
    const tree = storeGit(s.storeHome, ['ls-tree', '-r', id]);
    expect(tree).not.toContain('160000');
    expect(tree).not.toContain('vendor/lib');
    expect(tree).toContain('main.c');
    write(nested, 'more.c', 'int y;\n');
    expect((await s.workspace.snapshot()).id).toBeNull();
    write(s.ws, 'main.c', 'int main2;\n');
    await s.workspace.restore(id);
    expect(fs.readFileSync(path.join(nested, 'more.c'), 'utf8')).toBe('int y;\n');
    expect(fs.existsSync(path.join(nested, '.git', 'HEAD'))).toBe(true);
    expect(storeGit(s.storeHome, ['fsck', '--strict'])).toBe('');
  });
});
