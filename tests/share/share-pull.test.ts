// `share pull` with real git: a bare remote that allows filtering, clones with
// their own stores (one whose remote is not named origin), a teammate's
// checkpoints listed without their file contents, then fetched on demand.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { blobId, gitIn, makeTeam, storeLacks, type Team } from './team.js';

let team: Team | undefined;
afterEach(() => {
  team?.cleanup();
  team = undefined;
});

interface PullJson {
  remote: string;
  filtered: boolean;
  clones: number;
  updated: number;
  removed: number;
  bytes: number;
  shared_checkpoints: number;
}

const BIG = 4 * 1024 * 1024;

/** Alice's clone with two checkpoints: the first holds a 4 MB file and notes.txt "one", the second changes notes.txt. */
function aliceWithHistory(t: Team) {
  const alice = t.clone('alice');
  writeFileSync(join(alice.dir, 'big.bin'), randomBytes(BIG));
  writeFileSync(join(alice.dir, 'notes.txt'), 'one\n');
  expect(alice.cli(['snapshot', '-m', 'first']).code).toBe(0);
  writeFileSync(join(alice.dir, 'notes.txt'), 'two\n');
  expect(alice.cli(['snapshot', '-m', 'second']).code).toBe(0);
  t.publish(alice);
  return alice;
}

describe('share pull', () => {
  it("lists a teammate's checkpoints in a fresh clone (remote not named origin) without downloading a 4 MB file; a diff then fetches it", () => {
    team = makeTeam();
    const alice = aliceWithHistory(team);
    const big = blobId(join(alice.dir, 'big.bin'));
    const bob = team.clone('bob', { remoteName: 'team' });

    const pulled = bob.json<PullJson>(['share', 'pull']);
    expect(pulled).toMatchObject({ remote: 'team', filtered: true, clones: 1, updated: 1, shared_checkpoints: 2 });
    expect(pulled.bytes).toBeLessThan(BIG / 10);
    expect(storeLacks(bob.gitDir, big)).toBe(true);

    const list = bob.json<Checkpoint[]>(['list', '--all']);
    const theirs = list.filter((c) => c.shared);
    expect(theirs.map((c) => c.reason)).toEqual(['second', 'first']);
    expect(theirs[0]!.shared).toMatchObject({ person: 'Alice', email: 'alice@example.com' });
    expect(theirs[0]!.shared!.clone).toMatch(/^w[0-9a-f]{10}$/);
    expect(storeLacks(bob.gitDir, big)).toBe(true);

    // Upkeep compresses the store around her blob-less packs: it neither fetches her files nor loses anything.
    writeFileSync(join(bob.dir, 'mine.txt'), 'bob\n');
    expect(bob.cli(['snapshot', '-m', 'mine']).code).toBe(0);
    const upkeep = bob.cli(['upkeep', '--force']);
    expect(upkeep.code, upkeep.stderr).toBe(0);
    expect(storeLacks(bob.gitDir, big)).toBe(true);
    expect(bob.cli(['check']).code).toBe(0);

    // A comparison of her two checkpoints needs their files: the 4 MB one comes now, by id.
    const diff = bob.json<{ files: { path: string }[] }>(['diff', theirs[1]!.id, theirs[0]!.id]);
    expect(diff.files.map((f) => f.path)).toEqual(['notes.txt']);
    expect(storeLacks(bob.gitDir, big)).toBe(false);
  });

  it("restores a file from a teammate's checkpoint, and pulling twice changes nothing", () => {
    team = makeTeam();
    const alice = aliceWithHistory(team);
    const big = blobId(join(alice.dir, 'big.bin'));
    const bob = team.clone('bob');
    expect(bob.cli(['share', 'pull']).code).toBe(0);
    const before = gitIn(bob.gitDir, ['for-each-ref', 'refs/chronoscope-shared/']);
    const again = bob.json<PullJson>(['share', 'pull']);
    expect(again).toMatchObject({ updated: 0, bytes: 0, shared_checkpoints: 2 });
    expect(gitIn(bob.gitDir, ['for-each-ref', 'refs/chronoscope-shared/'])).toBe(before);

    const first = bob.json<Checkpoint[]>(['list', '--all']).find((c) => c.shared && c.reason === 'first')!;
    const restored = bob.cli(['restore', first.id, '--path', 'notes.txt', '--yes']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(bob.dir, 'notes.txt'), 'utf8')).toBe('one\n');
    // Only the path asked for: the 4 MB file is not written into Bob's clone.
    expect(() => readFileSync(join(bob.dir, 'big.bin'))).toThrow();
    // …nor fetched: only the blobs under the path asked for came from the remote.
    expect(storeLacks(bob.gitDir, big)).toBe(true);

    // A new push of Alice's is one more ref move; her own clone never lists itself as a teammate.
    writeFileSync(join(alice.dir, 'notes.txt'), 'three\n');
    expect(alice.cli(['snapshot', '-m', 'third']).code).toBe(0);
    team.publish(alice);
    expect(bob.json<PullJson>(['share', 'pull'])).toMatchObject({ updated: 1, shared_checkpoints: 3 });
    expect(alice.json<PullJson>(['share', 'pull'])).toMatchObject({ clones: 0, shared_checkpoints: 0 });
  });

  it("drops a teammate's checkpoints once their refs are deleted from the remote (as fetch --prune), but not where another remote was pulled too", () => {
    team = makeTeam();
    aliceWithHistory(team);
    const bob = team.clone('bob');
    expect(bob.json<PullJson>(['share', 'pull'])).toMatchObject({ updated: 1, removed: 0, shared_checkpoints: 2 });
    // Carol has pulled from a second remote too: what that one brought is not the first one's to judge.
    const carol = team.clone('carol');
    const other = join(team.base, 'other.git');
    gitIn(team.base, ['init', '-q', '--bare', other]);
    gitIn(other, ['config', 'uploadpack.allowFilter', 'true']);
    gitIn(carol.dir, ['remote', 'add', 'other', other]);
    expect(carol.json<PullJson>(['share', 'pull', '--remote', 'origin'])).toMatchObject({ shared_checkpoints: 2 });
    expect(carol.json<PullJson>(['share', 'pull', '--remote', 'other'])).toMatchObject({ clones: 0, removed: 0, shared_checkpoints: 2 });
    // Alice takes back what she shared: her refs go from the remote.
    const hers = gitIn(team.remote, ['for-each-ref', '--format=%(refname)', 'refs/chronoscope/']).split('\n').filter(Boolean);
    expect(hers.length).toBeGreaterThan(0);
    for (const ref of hers) gitIn(team.remote, ['update-ref', '-d', ref]);

    const pruned = bob.cli(['share', 'pull']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(/0 shared checkpoints \(nothing new; 1 ref the remote no longer has removed/);
    expect(gitIn(bob.gitDir, ['for-each-ref', 'refs/chronoscope-shared/'])).toBe('');
    expect(bob.json<Checkpoint[]>(['list', '--all']).filter((c) => c.shared)).toEqual([]);
    expect(carol.json<PullJson>(['share', 'pull', '--remote', 'origin'])).toMatchObject({ removed: 0, shared_checkpoints: 2 });
  });

  it('gets a bounded fetch with progress from a remote that cannot filter', () => {
    team = makeTeam({ filter: false });
    const alice = aliceWithHistory(team);
    const big = blobId(join(alice.dir, 'big.bin'));
    const carol = team.clone('carol');
    const pulled = carol.cli(['share', 'pull']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toMatch(/fetching 1–1 of 1 shared refs from origin \(it cannot filter/);
    expect(pulled.stdout).toMatch(/2 shared checkpoints/);
    expect(storeLacks(carol.gitDir, big)).toBe(false);
  });

  it('asks for a remote when it cannot tell which (exit 2), and refuses one that does not exist', () => {
    team = makeTeam();
    const dave = team.clone('dave');
    gitIn(dave.dir, ['remote', 'add', 'mirror', team.remote]);
    gitIn(dave.dir, ['checkout', '-q', '--detach']);
    const ask = dave.cli(['share', 'pull']);
    expect(ask.code).toBe(2);
    expect(ask.stderr.trim().split('\n')).toHaveLength(1);
    expect(ask.stderr).toMatch(/2 git remotes \(mirror, origin\).*--remote NAME/);
    const wrong = dave.cli(['share', 'pull', '--remote', 'nowhere']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/no git remote named "nowhere"/);
    expect(dave.cli(['share', 'pull', '--remote', 'mirror']).code).toBe(0);
  });
});
