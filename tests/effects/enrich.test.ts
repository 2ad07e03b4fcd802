import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { classifyInWorkspace } from '../../electron/effects/enrich.js';
import { git, runCommandLine } from './git-helpers.js';

let dir: string;
let work: string;
let bare: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-enrich-'));
  work = join(dir, 'work');
  bare = join(dir, 'remote.git');
  git(dir, 'init', '-q', '--bare', bare);
  git(dir, 'init', '-q', '-b', 'main', work);
  git(work, 'remote', 'add', 'origin', bare);
  await writeFile(join(work, 'a.txt'), 'one');
  git(work, 'add', 'a.txt');
  git(work, 'commit', '-q', '-m', 'one');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('classifyInWorkspace', () => {
  it('fills in the branch, the old commit and the new one, and the compensation works', async () => {
    git(work, 'push', '-q', '-u', 'origin', 'main');
    const old = git(work, 'rev-parse', 'HEAD');
    await writeFile(join(work, 'a.txt'), 'two');
    git(work, 'commit', '-q', '-am', 'two');
    const next = git(work, 'rev-parse', 'HEAD');

    const [e] = classifyInWorkspace('git push', work);
    expect(e).toMatchObject({ kind: 'git_push', target: 'origin/main' });
    expect(e!.compensation).toBe(`git push --force-with-lease=refs/heads/main:${next} origin ${old}:refs/heads/main`);
    git(work, 'push', '-q');
    runCommandLine(work, e!.compensation!);
    expect(git(bare, 'rev-parse', 'main')).toBe(old);
  });

  it('a branch the remote does not have yet compensates with a delete', () => {
    const [e] = classifyInWorkspace('git push -u origin main', work);
    expect(e?.compensation).toBe('git push origin --delete main');
  });

  it('names the package being published', async () => {
    await writeFile(join(work, 'package.json'), JSON.stringify({ name: '@me/pkg', version: '1.2.3' }));
    const [e] = classifyInWorkspace('npm publish --access public', work);
    expect(e).toMatchObject({ kind: 'package_publish', target: '@me/pkg@1.2.3', compensation: 'npm unpublish @me/pkg@1.2.3' });
  });
});
