import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EffectLedger } from '../../electron/effects/ledger.js';
import { pushReflogDir, pushStatePath, scanPushes } from '../../electron/effects/push-monitor.js';
import { stripUrlCredentials } from '../../shared/redact.js';
import { execFileSync } from 'node:child_process';
import { openStore } from '../../electron/engine/index.js';
import { GIT_ENV, git, runCommandLine } from './git-helpers.js';

let dir: string;
let home: string;
let work: string;
let bare: string;
let ledger: EffectLedger;
let state: string;

async function commit(name: string, text: string): Promise<string> {
  await writeFile(join(work, name), text);
  git(work, 'add', name);
  git(work, 'commit', '-q', '-m', `change ${name}`);
  return git(work, 'rev-parse', 'HEAD');
}

/** git with its reflog stamped at `seconds` (epoch): reflog times have whole seconds only. */
function gitAt(cwd: string, seconds: number, ...args: string[]): string {
  const date = `${seconds} +0000`;
  const env = { ...GIT_ENV, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-push-'));
  home = join(dir, 'home');
  work = join(dir, 'work');
  bare = join(dir, 'remote.git');
  git(dir, 'init', '-q', '--bare', bare);
  git(dir, 'init', '-q', '-b', 'main', work);
  // Fetch URL carries credentials (as a token-in-URL remote would); pushes go to the local bare repo.
  git(work, 'remote', 'add', 'origin', 'https://alice:s3cr3t-token@example.invalid/team/app.git');
  git(work, 'config', 'remote.origin.pushurl', bare);
  ledger = new EffectLedger(home, 'ws1');
  state = pushStatePath(ledger);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('push monitor', () => {
  it('records a plain git push with its old and new commits, and its compensation puts the remote back', async () => {
    const first = await commit('a.txt', 'one');
    git(work, 'push', '-q', 'origin', 'main');
    // First scan: that push predates the monitor, so it only takes a baseline.
    expect(await scanPushes(work, ledger, state)).toEqual([]);

    const second = await commit('a.txt', 'two');
    git(work, 'push', '-q', 'origin', 'main');
    const found = await scanPushes(work, ledger, state, { checkpoint: 'abc123' });
    expect(found).toHaveLength(1);
    const rec = found[0]!;
    expect(rec).toMatchObject({
      kind: 'git_push',
      source: 'reflog',
      status: 'happened',
      old_commit: first,
      new_commit: second,
      checkpoint: 'abc123',
    });
    expect(rec.target).toBe('origin/main (https://example.invalid/team/app.git)');
    expect(rec.compensation).toBe(`git push --force-with-lease=refs/heads/main:${second} origin ${first}:refs/heads/main`);
    expect(JSON.stringify(await ledger.list())).not.toContain('s3cr3t');

    expect(git(bare, 'rev-parse', 'refs/heads/main')).toBe(second);
    runCommandLine(work, rec.compensation!);
    expect(git(bare, 'rev-parse', 'refs/heads/main')).toBe(first);
  });

  it('records a force push and undoes it', async () => {
    await scanPushes(work, ledger, state);
    const base = await commit('a.txt', 'one');
    const lost = await commit('a.txt', 'two');
    git(work, 'push', '-q', 'origin', 'main');
    git(work, 'reset', '-q', '--hard', base);
    const rewritten = await commit('b.txt', 'other');
    git(work, 'push', '-q', '--force', 'origin', 'main');

    const found = await scanPushes(work, ledger, state);
    expect(found.map((r) => [r.old_commit, r.new_commit])).toEqual([
      [null, lost],
      [lost, rewritten],
    ]);
    runCommandLine(work, found[1]!.compensation!);
    expect(git(bare, 'rev-parse', 'refs/heads/main')).toBe(lost);
  });

  it('a new branch compensates with a delete', async () => {
    await commit('a.txt', 'one');
    git(work, 'push', '-q', 'origin', 'main');
    await scanPushes(work, ledger, state);
    git(work, 'checkout', '-q', '-b', 'feature/x');
    const tip = await commit('c.txt', 'feature');
    git(work, 'push', '-q', '-u', 'origin', 'feature/x');

    const [rec, ...more] = await scanPushes(work, ledger, state);
    expect(more).toEqual([]);
    expect(rec).toMatchObject({ old_commit: null, new_commit: tip, compensation: 'git push origin --delete feature/x' });
    expect(rec!.target.startsWith('origin/feature/x ')).toBe(true);
    runCommandLine(work, rec!.compensation!);
    expect(git(bare, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
  });

  it('never records a push twice: not on a second scan, not after losing its state', async () => {
    const since = Date.now() - 2000;
    await commit('a.txt', 'one');
    git(work, 'push', '-q', 'origin', 'main');
    const first = await scanPushes(work, ledger, state, { sinceMs: since });
    expect(first).toHaveLength(1);
    expect(await scanPushes(work, ledger, state, { sinceMs: since })).toEqual([]);
    await unlink(state);
    expect(await scanPushes(work, ledger, state, { sinceMs: since })).toEqual([]);
    expect(await ledger.list()).toHaveLength(1);
  });

  it('a push in the very second the workspace is first seen counts by order of events, not by its reflog time', async () => {
    // Both pushes carry the registration's whole second in the reflog: only the order tells them apart.
    const second = Math.floor(Date.now() / 1000) + 1;
    await commit('a.txt', 'one');
    gitAt(work, second, 'push', '-q', 'origin', 'main');
    await new Promise((r) => setTimeout(r, second * 1000 - Date.now() + 5));
    const store = await openStore({ home });
    const workspace = await store.workspace(work);
    expect(Math.floor(Date.parse(workspace.meta.created) / 1000)).toBe(second);
    const after = await commit('a.txt', 'two');
    gitAt(work, second, 'push', '-q', 'origin', 'main');

    const wsLedger = new EffectLedger(store.home, workspace.meta.id);
    const found = await scanPushes(work, wsLedger, pushStatePath(wsLedger), { sinceMs: Date.parse(workspace.meta.created) });
    expect(found.map((r) => r.new_commit)).toEqual([after]);
  });

  it('ignores fetches and sees pushes made from a linked worktree', async () => {
    await commit('a.txt', 'one');
    git(work, 'push', '-q', 'origin', 'main');
    await scanPushes(work, ledger, state);
    const wt = join(dir, 'wt');
    git(work, 'worktree', 'add', '-q', '-b', 'side', wt);
    expect(pushReflogDir(wt)).toBe(pushReflogDir(work));
    expect(pushReflogDir(work)).toBe(join(work, '.git', 'logs', 'refs', 'remotes'));
    await writeFile(join(wt, 'w.txt'), 'from worktree');
    git(wt, 'add', 'w.txt');
    git(wt, 'commit', '-q', '-m', 'wt');
    git(wt, 'push', '-q', 'origin', 'side');
    git(work, 'fetch', '-q', bare, '+refs/heads/*:refs/remotes/origin/*');
    const found = await scanPushes(wt, ledger, state);
    expect(found.map((r) => r.target.split(' ')[0])).toEqual(['origin/side']);
  });

  it('returns nothing outside a git repository', async () => {
    expect(pushReflogDir(dir)).toBeNull();
    expect(await scanPushes(dir, ledger, state)).toEqual([]);
  });

  it('strips credentials from URLs', () => {
    expect(stripUrlCredentials('https://user:token@host/x')).toBe('https://host/x');
    expect(stripUrlCredentials('ssh://git@host:22/x.git')).toBe('ssh://host:22/x.git');
    expect(stripUrlCredentials('git@github.com:o/r.git')).toBe('git@github.com:o/r.git');
    expect(stripUrlCredentials('/srv/remote.git')).toBe('/srv/remote.git');
  });
});
