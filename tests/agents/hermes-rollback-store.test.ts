// Hermes Agent's own /rollback store on Chronoscope's timeline, through the
// real CLI: a Hermes store built with Hermes' layout in a temp dir, listed
// with its reasons and times, shown, diffed against ours and the disk,
// restored in full and one file (our safety checkpoint first), and left
// byte-for-byte untouched; a Hermes prune (every commit rewritten) breaks
// nothing; a damaged store is a warning, not a failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, DiffResult, FileDiff, RestorePreview, RestoreResult } from '../../shared/model.js';
import { CLI_PATH } from '../paths.js';
import { createHermesStore, storeFingerprint, type HermesFixture } from './hermes-store.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let base: string;
let ws: string;
let hermes: HermesFixture;
let env: NodeJS.ProcessEnv;

function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(process.execPath, [CLI_PATH, ...args, '--workspace', ws], { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function json<T>(args: string[], extraEnv: NodeJS.ProcessEnv = {}): T {
  const r = cli([...args, '--json'], extraEnv);
  if (r.code !== 0) throw new Error(`chronoscope ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
}
const read = (rel: string): string => fs.readFileSync(path.join(ws, rel), 'utf8');

const NPMRC = '//registry.npmjs.org/:_authToken=npm_SECRET\n';
const T1 = 1_780_000_000; // 2026-05-28: Hermes' first checkpoint
const T2 = T1 + 600;

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-hermes-')));
  ws = path.join(base, 'project');
  fs.mkdirSync(ws);
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  hermes = createHermesStore(path.join(base, 'hermes-home'), ws);
  env = { PATH: process.env['PATH'], HOME: home, CHRONOSCOPE_HOME: path.join(base, 'store'), HERMES_HOME: hermes.home, NO_COLOR: '1' };

  // State 1, Hermes checkpoints it; state 2, Hermes again; state 3, our own checkpoint.
  write('a.txt', 'a one\n');
  write('b.txt', 'b one\n');
  write('.npmrc', NPMRC); // Hermes keeps it; our credential policy never lets it into our store
  hermes.take('before write_file', T1);
  write('a.txt', 'a two\n');
  write('c.txt', 'c new\n');
  hermes.take('before terminal: npm test', T2);
  write('a.txt', 'a three\n');
  write('bundle.zip', 'zip\n'); // Hermes leaves *.zip out; we record it
  write('run.log', 'log\n'); // and *.log
  expect(cli(['snapshot', '--reason', 'ours']).code).toBe(0);
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe("Hermes' /rollback store on the timeline", () => {
  it('lists Hermes checkpoints with their reason and time, marked as Hermes', () => {
    const before = storeFingerprint(hermes.home);
    const list = json<Checkpoint[]>(['list']);
    expect(list.map((c) => [c.reason, c.origin ?? 'ours'])).toEqual([
      ['ours', 'ours'],
      ['before terminal: npm test', 'hermes'],
      ['before write_file', 'hermes'],
    ]);
    const [, h2, h1] = list as [Checkpoint, Checkpoint, Checkpoint];
    expect(h2).toMatchObject({ agent: 'hermes', trigger: 'hook', tool: 'terminal', time: new Date(T2 * 1000).toISOString(), time_ms: T2 * 1000 });
    // Stats are Hermes' own count (its .npmrc included).
    expect(h1).toMatchObject({ agent: 'hermes', tool: 'write_file', time_ms: T1 * 1000, stats: { files: 3, insertions: 3, deletions: 0 } });
    expect(h2.stats).toEqual({ files: 2, insertions: 2, deletions: 1 });
    expect(h1.id).toMatch(/^h[0-9a-f]{16}$/);

    const text = cli(['list']);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^#\s+H\s+ID/);
    expect(lines[2]).toMatch(/^2\s+H\s+h[0-9a-f]{7}\s.*before terminal: npm test$/);
    expect(lines[1]).not.toMatch(/^1\s+H\s/);

    // Indexes count in the merged list: #2 is Hermes' newest.
    expect(json<{ checkpoint: Checkpoint }>(['show', '2']).checkpoint.id).toBe(h2.id);
    expect(storeFingerprint(hermes.home)).toBe(before);
  });

  it('shows and diffs Hermes checkpoints against its previous one, ours and the disk', () => {
    const before = storeFingerprint(hermes.home);
    const [ours, h2, h1] = json<Checkpoint[]>(['list']) as [Checkpoint, Checkpoint, Checkpoint];

    const shown = json<{ checkpoint: Checkpoint; files: { path: string; status: string }[] }>(['show', h2.id]);
    expect(shown.checkpoint.origin).toBe('hermes');
    expect(shown.files.map((f) => [f.path, f.status])).toEqual([
      ['a.txt', 'modified'],
      ['c.txt', 'added'],
    ]);

    // One id: what it changed, against Hermes' checkpoint before it (not ours in between).
    const own = json<FileDiff>(['diff', h2.id, '--file', 'a.txt']);
    expect([own.from, own.old.text, own.new.text]).toEqual([h1.id, 'a one\n', 'a two\n']);

    const vsOurs = json<DiffResult>(['diff', h1.id, ours.id]);
    expect(vsOurs.from).toBe(h1.id);
    expect(vsOurs.files.map((f) => [f.path, f.status]).sort()).toEqual([
      ['a.txt', 'modified'],
      ['bundle.zip', 'added'],
      ['c.txt', 'added'],
      ['run.log', 'added'],
    ]);

    write('b.txt', 'b edited on disk\n');
    const vsDisk = json<DiffResult>(['diff', h1.id, 'workspace']);
    expect(vsDisk.files.map((f) => f.path).sort()).toEqual(['a.txt', 'b.txt', 'bundle.zip', 'c.txt', 'run.log']);
    const file = json<FileDiff>(['diff', h1.id, 'workspace', '--file', 'a.txt']);
    expect([file.old.text, file.new.text]).toEqual(['a one\n', 'a three\n']);
    const unified = cli(['diff', h2.id, 'workspace', '--file', 'a.txt']);
    expect(unified.code).toBe(0);
    expect(unified.stdout).toContain('-a two');
    expect(unified.stdout).toContain('+a three');
    expect(storeFingerprint(hermes.home)).toBe(before);
  });

  it('restores a Hermes checkpoint in full and one file, our safety checkpoint first, Hermes store untouched', () => {
    const before = storeFingerprint(hermes.home);
    const [ours, h2, h1] = json<Checkpoint[]>(['list']) as [Checkpoint, Checkpoint, Checkpoint];
    write('a.txt', 'a four, not checkpointed\n');

    // One file: only a.txt goes back to Hermes' first checkpoint.
    const preview = json<{ preview: RestorePreview; applied: boolean }>(['restore', h1.id, '--path', 'a.txt']);
    expect(preview).toMatchObject({ applied: false, preview: { target: h1.id, modified: ['a.txt'], added: [], deleted: [] } });
    expect(read('a.txt')).toBe('a four, not checkpointed\n');
    const one = json<RestoreResult>(['restore', h1.id, '--path', 'a.txt', '--yes']);
    expect(one.restored).toBe(h1.id);
    expect(read('a.txt')).toBe('a one\n');
    expect(read('c.txt')).toBe('c new\n');
    // The safety checkpoint holds what the disk had just before: restoring it undoes the restore.
    const safety = json<{ checkpoint: Checkpoint }>(['show', one.safety]).checkpoint;
    expect(safety).toMatchObject({ trigger: 'safety', restore_target: h1.id });
    expect(safety.origin).toBeUndefined();
    json<RestoreResult>(['restore', one.safety, '--path', 'a.txt', '--yes']);
    expect(read('a.txt')).toBe('a four, not checkpointed\n');

    // Full: the tree Hermes recorded comes back; what Hermes never records (*.zip, *.log) stays.
    const full = json<RestoreResult>(['restore', h2.id, '--yes']);
    expect(read('a.txt')).toBe('a two\n');
    expect(read('b.txt')).toBe('b one\n');
    expect(read('c.txt')).toBe('c new\n');
    expect(read('bundle.zip')).toBe('zip\n');
    expect(read('run.log')).toBe('log\n');
    const fullSafety = json<{ checkpoint: Checkpoint }>(['show', full.safety]).checkpoint;
    expect(fullSafety.trigger).toBe('safety');
    expect(fullSafety.time_ms).toBeGreaterThanOrEqual(ours.time_ms);
    // Restoring further back removes a file Hermes did record and the older state lacks.
    json<RestoreResult>(['restore', h1.id, '--yes']);
    expect(fs.existsSync(path.join(ws, 'c.txt'))).toBe(false);
    expect(read('bundle.zip')).toBe('zip\n');
    // And every restore can be undone.
    json<RestoreResult>(['restore', full.safety, '--yes']);
    expect(read('a.txt')).toBe('a four, not checkpointed\n');

    expect(storeFingerprint(hermes.home)).toBe(before);
    // Hermes' .npmrc was neither restored over nor removed, and never entered our store.
    expect(read('.npmrc')).toBe(NPMRC);
    const secret = spawnSync('git', ['hash-object', '--stdin'], { input: NPMRC, encoding: 'utf8' }).stdout.trim();
    const inOurs = spawnSync('git', ['--git-dir', path.join(base, 'store', 'git'), 'cat-file', '-e', secret], { env: { PATH: process.env['PATH'] } });
    expect(inOurs.status).not.toBe(0);
  });

  it('keeps working when Hermes prunes and rewrites every commit', () => {
    const [, h2, h1] = json<Checkpoint[]>(['list']) as [Checkpoint, Checkpoint, Checkpoint];
    const oldCommits = hermes.commits();
    hermes.prune(1); // drops the oldest, re-commits the newest on no parent, gc --prune=now
    expect(hermes.commits()).toHaveLength(1);
    expect(oldCommits).not.toContain(hermes.commits()[0]);

    const after = json<Checkpoint[]>(['list']);
    expect(after.map((c) => c.id)).toEqual([after[0]?.id, h2.id]); // the kept one keeps its id
    expect(json<{ checkpoint: Checkpoint }>(['show', h2.id]).checkpoint.reason).toBe('before terminal: npm test');
    const gone = cli(['show', h1.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr.trim()).toMatch(/^chronoscope: no Hermes checkpoint h[0-9a-f]+ in this workspace \(Hermes may have pruned it\)$/);

    const before = storeFingerprint(hermes.home);
    json<RestoreResult>(['restore', h2.id, '--yes']);
    expect(read('a.txt')).toBe('a two\n');
    expect(storeFingerprint(hermes.home)).toBe(before);
  });

  it('a damaged Hermes store is a one-line warning; an absent one is nothing; our list always works', () => {
    // Absent: no Hermes at all (the usual case).
    const absent = cli(['list', '--json'], { HERMES_HOME: path.join(base, 'no-such-hermes') });
    expect(absent.code).toBe(0);
    expect(absent.stderr).toBe('');
    expect((JSON.parse(absent.stdout) as Checkpoint[]).map((c) => c.reason)).toEqual(['ours']);

    // The ref names an object that is not there.
    fs.writeFileSync(path.join(hermes.store, ...hermes.ref.split('/')), `${'1'.repeat(40)}\n`);
    const missing = cli(['list', '--json']);
    expect(missing.code).toBe(0);
    expect((JSON.parse(missing.stdout) as Checkpoint[]).map((c) => c.reason)).toEqual(['ours']);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/^chronoscope: warning: Hermes checkpoints left out: /);

    // The ref holds garbage.
    fs.writeFileSync(path.join(hermes.store, ...hermes.ref.split('/')), 'HEAD~1 --exec=boom\n');
    const garbage = cli(['list']);
    expect(garbage.code).toBe(0);
    expect(garbage.stdout).toContain('ours');
    expect(garbage.stderr).toMatch(/^chronoscope: warning: Hermes checkpoints left out: .*does not hold a commit id\n$/);

    // Hermes ids asked for by name get one clear error, and our own ids still work.
    const asked = cli(['show', 'h0123456789abcdef']);
    expect(asked.code).toBe(1);
    expect(asked.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli(['show', '1']).code).toBe(0);
  });

  it('list --hermes-home reads Hermes checkpoints from a home that is not the default; a missing folder is one line and exit 1', () => {
    const elsewhere = { HERMES_HOME: path.join(base, 'no-such-hermes') };
    expect(json<Checkpoint[]>(['list'], elsewhere).map((c) => c.reason)).toEqual(['ours']);

    const listed = json<Checkpoint[]>(['list', '--hermes-home', hermes.home], elsewhere);
    expect(listed.map((c) => [c.reason, c.origin ?? 'ours'])).toEqual([
      ['ours', 'ours'],
      ['before terminal: npm test', 'hermes'],
      ['before write_file', 'hermes'],
    ]);
    const text = cli(['list', '--hermes-home', hermes.home], elsewhere);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toMatch(/^2\s+H\s+h[0-9a-f]{7}\s.*before terminal: npm test$/m);

    const missing = path.join(base, 'typo-hermes');
    const bad = cli(['list', '--hermes-home', missing]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(`chronoscope: no such Hermes home folder: ${missing} (--hermes-home)\n`);
    // With --json the same error is one JSON object on stderr.
    const badJson = cli(['list', '--json', '--hermes-home', missing]);
    expect(badJson.code).toBe(1);
    expect(badJson.stdout).toBe('');
    expect((JSON.parse(badJson.stderr) as { error: { message: string } }).error.message).toBe(`no such Hermes home folder: ${missing} (--hermes-home)`);
  });

  it('refuses malformed Hermes ids before anything runs', () => {
    for (const bad of ['h12', 'hxyz12', 'h0123456789abcdef0', 'H1234']) {
      const r = cli(['show', bad]);
      expect(r.code, bad).toBe(2); // a malformed id is a usage error
      expect(r.stderr).toMatch(/^chronoscope: not a checkpoint id/);
    }
    const pin = cli(['pin', (json<Checkpoint[]>(['list'])[1] as Checkpoint).id]);
    expect(pin.code).toBe(1);
    expect(pin.stderr).toMatch(/cannot be pinned/);
  });
});
