// The push side of sharing (issue 43) with real git: enable/status/disable
// byte for byte, a plain `git push` that uploads through the pre-push hook,
// what leaves (and what never does), notes on pushed commits.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { folderFingerprint, git, gitOk, makeTeam, pollFor, remoteObjectText, remoteRefs, type Clone, type Team } from './push-fixture.js';
import { removeTempProject } from '../support/temp-project.js';

let team: Team;
afterEach(async () => {
  if (team) await removeTempProject(team.base);
});

interface Status {
  enabled: boolean;
  remote: string | null;
  url: string | null;
  namespace: string;
  hook: string | null;
  pending: { checkpoints: number; prompts: number; calls: number };
  scope: string;
}

function json<T>(clone: Clone, args: readonly string[]): T {
  const r = clone.cli([...args, '--json']);
  if (r.code !== 0) throw new Error(`chronoscope ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

function edit(clone: Clone, file: string, text: string, reason = `edit ${file}`): string {
  writeFileSync(join(clone.dir, file), text);
  return json<{ id: string }>(clone, ['snapshot', '--reason', reason]).id;
}

function commit(clone: Clone, message: string): string {
  gitOk(clone.dir, ['add', '-A']);
  gitOk(clone.dir, ['commit', '-q', '-m', message]);
  return gitOk(clone.dir, ['rev-parse', 'HEAD']).trim();
}

const hooksOf = (clone: Clone): string => join(clone.dir, '.git', 'hooks');

describe('share enable refuses bad input and changes nothing', () => {
  it('outside a git repository: one line, exit 2, no store', () => {
    team = makeTeam();
    const plain = join(team.base, 'plain');
    mkdirSync(plain);
    const home = join(team.base, 'plain-store');
    const r = spawnSync(process.execPath, [join(__dirname, '../../dist/electron/cli/bin.cjs'), 'share', 'enable'], { cwd: plain, env: { ...process.env, CHRONOSCOPE_HOME: home, GIT_CEILING_DIRECTORIES: team.base }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/not a git repository/);
    expect(existsSync(home)).toBe(false);
  });

  it('no such remote, or several and no upstream: exit 2, hooks and store untouched', () => {
    team = makeTeam();
    const a = team.clone('ann', { remoteName: 'team' });
    const before = folderFingerprint(hooksOf(a));
    const r = a.cli(['share', 'enable', '--remote', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/no git remote named "nope"/);
    gitOk(a.dir, ['remote', 'add', 'backup', team.remote]);
    gitOk(a.dir, ['checkout', '-q', '--detach']);
    const several = a.cli(['share', 'enable']);
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/--remote/);
    expect(folderFingerprint(hooksOf(a))).toEqual(before);
    expect(existsSync(a.home)).toBe(false);
  });
});

describe('enable, status, disable', () => {
  it("chains the person's own pre-push hook and puts it back byte for byte", () => {
    team = makeTeam();
    const a = team.clone('ann', { remoteName: 'team' });
    const own = join(hooksOf(a), 'pre-push');
    writeFileSync(own, '#!/bin/sh\n# the team\'s own hook\nexit 0\n');
    chmodSync(own, 0o750);
    const original = join(team.base, 'pre-push.original');
    copyFileSync(own, original);
    const before = folderFingerprint(hooksOf(a));
    const status = json<Status>(a, ['share', 'enable']);
    expect(status).toMatchObject({ enabled: true, remote: 'team', hook: own });
    expect(status.scope).toMatch(/only this workspace's checkpoints leave/);
    expect(readFileSync(own, 'utf8')).toMatch(/chronoscope-share-hook/);
    expect(existsSync(join(hooksOf(a), 'pre-push.chronoscope-chained'))).toBe(true);
    // Enabling twice keeps the chained hook (it is not chained to ourselves).
    expect(a.cli(['share', 'enable']).code).toBe(0);
    expect(readFileSync(join(hooksOf(a), 'pre-push.chronoscope-chained'), 'utf8')).toMatch(/the team's own hook/);
    expect(a.cli(['share', 'disable']).code).toBe(0);
    expect(spawnSync('cmp', [original, own]).status).toBe(0);
    expect(folderFingerprint(hooksOf(a))).toEqual(before);
    expect(json<Status>(a, ['share', 'status']).enabled).toBe(false);
  });

  it('respects core.hooksPath, and removes a folder it had to create', () => {
    team = makeTeam();
    const a = team.clone('ann');
    gitOk(a.dir, ['config', 'core.hooksPath', '.githooks']);
    const before = folderFingerprint(join(a.dir, '.git'));
    const status = json<Status>(a, ['share', 'enable']);
    expect(status.hook).toBe(join(a.dir, '.githooks', 'pre-push'));
    expect(a.cli(['share', 'disable']).code).toBe(0);
    expect(existsSync(join(a.dir, '.githooks'))).toBe(false);
    expect(folderFingerprint(join(a.dir, '.git'))).toEqual(before);
  });

  it('status shows the remote with credentials masked, the namespace and what would leave', () => {
    team = makeTeam();
    const a = team.clone('ann', { remoteName: 'team' });
    gitOk(a.dir, ['remote', 'set-url', '--push', 'team', 'https://ann:hunter2token@git.example.com/x.git']);
    edit(a, 'a.txt', 'one\n');
    edit(a, 'a.txt', 'two\n');
    const status = json<Status>(a, ['share', 'enable']);
    expect(status.url).toBe('https://***@git.example.com/x.git');
    expect(status.namespace).toMatch(/^refs\/chronoscope\/ann-example.com\/[a-z0-9._-]+\/w[0-9a-f]{10}$/);
    expect(status.pending.checkpoints).toBe(2);
    const text = a.cli(['share', 'status']).stdout;
    expect(text).not.toMatch(/hunter2token/);
    expect(text).toMatch(/would leave: 2 checkpoint/);
  });
});

describe('a plain git push shares', () => {
  it("uploads in the background to the push's own remote, chains the old hook with its args and stdin, into the store it was enabled with", async () => {
    team = makeTeam();
    const a = team.clone('ann', { remoteName: 'team' });
    const seen = join(team.base, 'seen.txt');
    const own = join(hooksOf(a), 'pre-push');
    writeFileSync(own, `#!/bin/sh\necho "args: $*" >> '${seen}'\ncat >> '${seen}'\nexit 0\n`);
    chmodSync(own, 0o755);
    edit(a, 'a.txt', 'one\n');
    expect(a.cli(['share', 'enable']).code).toBe(0);
    const second = edit(a, 'a.txt', 'two\n');
    // The prompt behind the second checkpoint, as the hooks record it (a call naming its checkpoint and prompt).
    const wsId = json<{ workspace: { id: string } }>(a, ['status']).workspace.id;
    const now = Date.now();
    appendFileSync(
      join(a.home, 'workspaces', wsId, 'prompts.jsonl'),
      `${JSON.stringify({ kind: 'prompt', id: 'pmabc12345cafe0001', text: 'make it two', agent: 'claude-code', session: 's1', time: new Date(now).toISOString(), time_ms: now, before: null })}\n` +
        `${JSON.stringify({ kind: 'call', prompt_id: 'pmabc12345cafe0001', agent: 'claude-code', tool: 'Edit', reason: 'Edit a.txt', status: 'ok', checkpoint: second, time: new Date(now).toISOString(), time_ms: now })}\n`,
    );
    const sha = commit(a, 'two');
    const branchesBefore = remoteRefs(team.remote, 'refs/tags');
    // Another CHRONOSCOPE_HOME in the pushing shell: the hook still writes to the store sharing was enabled with.
    const push = git(a.dir, ['push', 'team', 'HEAD:main'], { CHRONOSCOPE_HOME: join(team.base, 'elsewhere') });
    expect(push.code).toBe(0);
    const ns = json<Status>(a, ['share', 'status']).namespace;
    await pollFor('the share log on the remote', () => remoteRefs(team.remote).get(`${ns}/log`));
    await pollFor('the notes on the remote', () => remoteRefs(team.remote).get(`${ns}/notes`));
    expect(readFileSync(seen, 'utf8')).toBe(`args: team ${team.remote}\nHEAD ${sha} refs/heads/main ${gitOk(team.remote, ['rev-parse', 'main~1']).trim()}\n`);
    expect(existsSync(join(team.base, 'elsewhere'))).toBe(false);
    // The person's branch moved as they pushed it; tags untouched; nothing else of theirs appeared.
    expect(remoteRefs(team.remote, 'refs/heads')).toEqual(new Map([['refs/heads/main', sha]]));
    expect(remoteRefs(team.remote, 'refs/tags')).toEqual(branchesBefore);
    // Both checkpoints hang off the log.
    const log = gitOk(team.remote, ['rev-list', `${ns}/log`]).trim().split('\n');
    for (const cp of json<{ id: string }[]>(a, ['list'])) expect(log).toContain(cp.id);
    // The pushed commit is linked to the checkpoints before it, in git notes; `why` prints the link.
    const notes = gitOk(team.remote, ['ls-tree', '--name-only', `${ns}/notes`]).trim().split('\n');
    expect(notes).toEqual([sha]);
    const why = a.cli(['why', 'HEAD']);
    expect(why.code).toBe(0);
    expect(why.stdout).toMatch(/2 checkpoint\(s\)/);
    expect(why.stdout).toMatch(/edit a\.txt/);
    expect(why.stdout).toMatch(/1 prompt\(s\)/);
    expect(why.stdout).toMatch(/claude-code: make it two/);
    expect(gitOk(a.dir, ['log', '-1', '--format=%B']).trim()).toBe('two'); // never a trailer in the person's commit
  });

  it("a failing chained hook still stops the push", () => {
    team = makeTeam();
    const a = team.clone('ann');
    const own = join(hooksOf(a), 'pre-push');
    writeFileSync(own, '#!/bin/sh\necho "blocked by policy" >&2\nexit 1\n');
    chmodSync(own, 0o755);
    expect(a.cli(['share', 'enable']).code).toBe(0);
    edit(a, 'a.txt', 'x\n');
    commit(a, 'x');
    const before = remoteRefs(team.remote, 'refs/heads');
    const push = git(a.dir, ['push', 'origin', 'HEAD:main']);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/blocked by policy/);
    expect(remoteRefs(team.remote, 'refs/heads')).toEqual(before);
  });
});

describe('what leaves', () => {
  it("only this workspace's checkpoints, redacted; never another workspace's objects, a secret or a token; never the remote's refs", () => {
    team = makeTeam();
    const store = join(team.base, 'one-store');
    const a = team.clone('ann', { home: store });
    const b = team.clone('bob', { home: store });
    const unique = `UNIQUE-SECRET-${Date.now().toString(36)}-kept-at-home`;
    writeFileSync(join(b.dir, 'private.txt'), `${unique}\n`);
    expect(b.cli(['snapshot']).code).toBe(0);

    const cp = edit(a, 'a.txt', 'one\n');
    // A ledger line as an older writer left it, unredacted: a token in the prompt, one in the command.
    const wsId = gitOk(store, ['--git-dir', join(store, 'git'), 'for-each-ref', '--format=%(refname)', 'refs/chronoscope/']).split('\n').map((r) => r.split('/')[2]).find((id) => existsSync(join(store, 'workspaces', id!, 'meta.json')) && readFileSync(join(store, 'workspaces', id!, 'meta.json'), 'utf8').includes(a.dir))!;
    const ghp = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const sk = `sk-${'Zy9'.repeat(12)}`;
    const ledger = join(store, 'workspaces', wsId, 'prompts.jsonl');
    appendFileSync(ledger, `${JSON.stringify({ kind: 'prompt', id: 'pmabc12345deadbeef', text: `deploy it, my token is ${ghp}`, agent: 'claude-code', session: 's1', time: new Date().toISOString(), time_ms: Date.now(), before: null })}\n`);
    appendFileSync(ledger, `${JSON.stringify({ kind: 'call', prompt_id: 'pmabc12345deadbeef', agent: 'claude-code', tool: 'Bash', reason: `Bash: curl -H "Authorization: Bearer ${sk}" https://api.example.com`, status: 'ok', checkpoint: cp, time: new Date().toISOString(), time_ms: Date.now() })}\n`);
    // A checkpoint written before messages were masked: its message holds a token as typed.
    const gitDir = join(store, 'git');
    const raw = gitOk(store, ['--git-dir', gitDir, 'cat-file', 'commit', cp]);
    const akia = 'AKIAIOSFODNN7EXAMPLE';
    const oldStyle = spawnSync('git', ['--git-dir', gitDir, 'hash-object', '-t', 'commit', '-w', '--stdin'], { input: raw.replace(/\n\n[^\n]*/, `\n\nold reason with ${akia}`), encoding: 'utf8' }).stdout.trim();
    gitOk(store, ['--git-dir', gitDir, 'update-ref', `refs/chronoscope/${wsId}/cp/${Date.now() + 1000}-0001`, oldStyle]);

    const refsBefore = remoteRefs(team.remote);
    expect(a.cli(['share', 'enable']).code).toBe(0);
    const status = json<Status>(a, ['share', 'status']);
    expect(status.pending).toMatchObject({ checkpoints: 2, prompts: 1, calls: 1 });
    const pushed = a.cli(['share', 'push']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toMatch(/shared 2 checkpoint\(s\), 1 prompt/);

    const objects = remoteObjectText(team.remote);
    expect(objects).not.toContain(unique);
    expect(objects).not.toContain(ghp);
    expect(objects).not.toContain(sk);
    expect(objects).not.toContain(akia);
    expect(objects).toContain('deploy it, my token is ghp_***'); // the prompt did travel, masked
    expect(objects).toContain('old reason with AKIA***'.slice(0, 20));
    // Only our namespace's refs are new; the remote's branches and tags are as they were.
    const after = remoteRefs(team.remote);
    for (const [name, sha] of refsBefore) expect(after.get(name)).toBe(sha);
    expect([...after.keys()].filter((n) => !refsBefore.has(n)).every((n) => n.startsWith(status.namespace))).toBe(true);
    expect(json<Status>(a, ['share', 'status']).pending.checkpoints).toBe(0);
  });
});

describe('a store behind its remote', () => {
  it('a store that forgot its last push (a crash before its ref moved) builds on the remote instead of failing', () => {
    team = makeTeam();
    const a = team.clone('ann');
    const first = edit(a, 'a.txt', 'one\n');
    expect(a.cli(['share', 'enable']).code).toBe(0);
    expect(a.cli(['share', 'push']).code).toBe(0);
    const ns = json<Status>(a, ['share', 'status']).namespace;
    const pushedLog = remoteRefs(team.remote).get(`${ns}/log`)!;
    const gitDir = join(a.home, 'git');
    for (const ref of gitOk(a.home, ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname)', 'refs/chronoscope-push/']).trim().split('\n')) gitOk(a.home, ['--git-dir', gitDir, 'update-ref', '-d', ref]);
    const second = edit(a, 'a.txt', 'two\n');
    const again = a.cli(['share', 'push']);
    expect(again.code, again.stderr).toBe(0);
    const log = remoteRefs(team.remote).get(`${ns}/log`)!;
    expect(git(team.remote, ['merge-base', '--is-ancestor', pushedLog, log]).code).toBe(0); // a fast-forward
    const reached = gitOk(team.remote, ['rev-list', log]).trim().split('\n');
    expect(reached).toContain(first);
    expect(reached).toContain(second);
  });
});

describe('two clones, two stores, one remote', () => {
  it('push at the same moment without conflict; both namespaces arrive', async () => {
    team = makeTeam();
    const a = team.clone('ann', { remoteName: 'team' });
    const b = team.clone('bob', { email: 'bob@example.com' });
    for (const c of [a, b]) {
      edit(c, 'a.txt', `${c.dir}\n`);
      expect(c.cli(['share', 'enable']).code).toBe(0);
    }
    const [ra, rb] = await Promise.all([a.cliAsync(['share', 'push']), b.cliAsync(['share', 'push'])]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    const refs = [...remoteRefs(team.remote, 'refs/chronoscope').keys()];
    expect(refs.filter((r) => r.endsWith('/log'))).toHaveLength(2);
    expect(refs.some((r) => r.startsWith('refs/chronoscope/ann-example.com/'))).toBe(true);
    expect(refs.some((r) => r.startsWith('refs/chronoscope/bob-example.com/'))).toBe(true);
  });
});
