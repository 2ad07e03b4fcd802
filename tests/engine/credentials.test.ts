// Credential files stay out of the store even when the project's own
// .gitignore re-includes them (a .gitignore outranks core.excludesFile).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const SECRETS = ['.env', '.npmrc', 'id_rsa', '.aws/credentials', 'sub/.env', 'deep/sub/.env.local'];
const KEPT = ['.env.example', '.gitignore', 'deep/sub/.gitignore', 'deep/sub/ok.txt', 'sub/.gitignore', 'sub/ok.txt'];

function setUp(ws: string): void {
  write(ws, '.gitignore', '!.env\n!.npmrc\n!id_rsa\n!.aws/\n');
  write(ws, 'sub/.gitignore', '*\n!*\n');
  write(ws, 'deep/sub/.gitignore', '!.env.local\n');
  for (const secret of SECRETS) write(ws, secret, `secret ${secret}\n`);
  write(ws, '.env.example', 'KEY=\n');
  write(ws, 'sub/ok.txt', 'ok\n');
  write(ws, 'deep/sub/ok.txt', 'ok\n');
}

function storedPaths(storeHome: string, tree: string): string[] {
  return storeGit(storeHome, ['ls-tree', '-r', '--name-only', '-z', tree]).split('\0').filter(Boolean).sort();
}

describe('credential excludes', () => {
  it("a project's .gitignore cannot re-include .env, .npmrc, id_rsa, .aws/ (nor a nested '*' then '!*')", async () => {
    setUp(s.ws);
    const r = await s.workspace.snapshot();
    expect(r.id).not.toBeNull();
    const tree = storeGit(s.storeHome, ['rev-parse', `${r.id as string}^{tree}`]).trim();
    expect(storedPaths(s.storeHome, tree)).toEqual(KEPT);

    // A path-limited snapshot naming a secret records nothing.
    write(s.ws, '.env', 'changed\n');
    expect((await s.workspace.snapshot({ paths: ['.env', 'sub/.env'] })).id).toBeNull();

    // Comparing with the workspace and reading a file from disk don't show secrets.
    const diff = await s.workspace.diff(r.id as string, 'workspace');
    expect(diff.files).toEqual([]);
    const side = await s.workspace.fileDiff(r.id as string, 'workspace', 'sub/.env');
    expect(side.new.kind).toBe('missing');

    // A restore neither removes nor lists them.
    write(s.ws, 'sub/ok.txt', 'changed\n');
    const preview = await s.workspace.previewRestore(r.id as string);
    expect([...preview.modified, ...preview.added, ...preview.deleted, ...preview.untracked_removed]).toEqual(['sub/ok.txt']);
    await s.workspace.restore(r.id as string);
    for (const secret of SECRETS) expect(fs.existsSync(path.join(s.ws, secret))).toBe(true);
  });

  it('include_credentials still stores them', async () => {
    s.cleanup();
    s = await sandbox({ settings: { include_credentials: true } });
    setUp(s.ws);
    const r = await s.workspace.snapshot();
    const tree = storeGit(s.storeHome, ['rev-parse', `${r.id as string}^{tree}`]).trim();
    expect(storedPaths(s.storeHome, tree)).toEqual([...KEPT, ...SECRETS].sort());
  });
});
