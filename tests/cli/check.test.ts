// `chronoscope check` as a person and a script run it: the real built CLI,
// real git, a store damaged the way disks damage it (a loose blob whose bytes
// changed, a flipped byte in a pack, an object gone). Each names exactly the
// checkpoints that use the damaged object and the paths they lost; `list`
// marks those afterwards.
import { execFileSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, SnapshotResult } from '../../shared/model.js';
import { makeSandbox, treeFingerprint, type Sandbox } from './run-cli.js';

interface CheckJson {
  clean: boolean;
  checkpoints: number;
  damaged: { id: string; lost: string[]; lost_count: number }[];
  packs: { pack: string; problem: string }[];
}

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

const gitDir = (): string => join(box.home, 'git');
const storeGit = (args: string[], input?: Buffer): string =>
  execFileSync('git', ['--git-dir', gitDir(), ...args], { encoding: 'utf8', env: { PATH: process.env['PATH'], GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }, ...(input ? { input } : {}) });

const write = (rel: string, text: string): void => {
  mkdirSync(join(box.workspace, rel, '..'), { recursive: true });
  writeFileSync(join(box.workspace, rel), text);
};

function snapshot(reason: string): string {
  const r = box.json<SnapshotResult>(['snapshot', '--reason', reason]);
  if (r.id === null) throw new Error(`no checkpoint: ${r.skipped}`);
  return r.id;
}

const blobId = (text: string): string => execFileSync('git', ['hash-object', '--stdin'], { input: text, encoding: 'utf8' }).trim();
const looseFile = (oid: string): string => join(gitDir(), 'objects', oid.slice(0, 2), oid.slice(2));

/**
 * Four checkpoints; the deep file's first version is in the 2nd and 3rd only.
 * Returns the ids oldest first and the text of that version.
 */
function history(): { ids: string[]; deep: string } {
  write('README.md', 'readme\n');
  for (let i = 0; i < 30; i++) write(`src/lib/f${i}.ts`, `export const f${i} = ${i};\n`);
  const ids = [snapshot('start')];
  const deep = 'deep version one\n';
  write('src/deep/er/x.txt', deep);
  ids.push(snapshot('add the deep file'));
  write('README.md', 'readme, edited\n');
  ids.push(snapshot('edit the readme'));
  write('src/deep/er/x.txt', 'deep version two\n');
  ids.push(snapshot('edit the deep file'));
  return { ids, deep };
}

/** Every object loose (as a store from before snapshots wrote packs), so one can be damaged in place. */
function unpackAll(): void {
  const packDir = join(gitDir(), 'objects', 'pack');
  for (const name of readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
    const moved = join(box.home, name);
    renameSync(join(packDir, name), moved);
    rmSync(join(packDir, name.replace(/\.pack$/, '.idx')));
    storeGit(['unpack-objects', '-q'], readFileSync(moved));
    rmSync(moved);
  }
}

/** Every object loose, then the deep file's first version rewritten: a well-formed object with other content (it inflates, its header is fine, only its hash gives it away). */
function changeDeepBlob(deep: string): void {
  unpackAll();
  const file = looseFile(blobId(deep));
  chmodSync(file, 0o600);
  writeFileSync(file, deflateSync(Buffer.from('blob 17\0deep version 1!\n')));
}

function check(...args: string[]): { code: number; json: CheckJson } {
  const run = box.cli(['check', '--json', ...args]);
  expect(run.stderr).toBe('');
  return { code: run.code, json: JSON.parse(run.stdout) as CheckJson };
}

function damagedIds(): string[] {
  return box
    .json<Checkpoint[]>(['list', '--all'])
    .filter((c) => c.damaged === true)
    .map((c) => c.id);
}

describe('chronoscope check', () => {
  it('exits 0 on a clean store and marks nothing', () => {
    const { ids } = history();
    const { code, json } = check();
    expect(code).toBe(0);
    expect(json).toMatchObject({ clean: true, checkpoints: ids.length, damaged: [], packs: [] });
    const text = box.cli(['check']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^no damage: 4 checkpoints/);
    expect(damagedIds()).toEqual([]);
  });

  it('a loose blob deep in a tree whose bytes changed: exit 3, names the two checkpoints that hold it and the path; list marks only those', () => {
    const { ids, deep } = history();
    changeDeepBlob(deep);
    const { code, json } = check();
    expect(code).toBe(3);
    expect(json.clean).toBe(false);
    expect(json.damaged.map((d) => d.id).sort()).toEqual([ids[1], ids[2]].sort());
    for (const d of json.damaged) expect(d).toMatchObject({ lost: ['src/deep/er/x.txt'], lost_count: 1 });
    expect(damagedIds().sort()).toEqual([ids[1], ids[2]].sort());
    // The text listing gets a DAMAGED column, filled for those two rows only (newest first: #2 and #3).
    const listed = box.cli(['list']).stdout.trimEnd().split('\n');
    expect(listed[0]).toMatch(/^#\s+DAMAGED\s+ID\s/);
    expect(listed.slice(1).map((row) => / damaged /.test(row))).toEqual([false, true, true, false]);
    const text = box.cli(['check']);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain('lost: src/deep/er/x.txt');
    expect(text.stdout).not.toContain((ids[0] as string).slice(0, 8));
    expect(text.stdout).not.toContain((ids[3] as string).slice(0, 8));
  });

  it('list says how many damaged checkpoints lie beyond the page it shows', () => {
    const { ids, deep } = history();
    changeDeepBlob(deep);
    expect(check().code).toBe(3);
    // Two pages: the newest (which holds neither damaged checkpoint), then all.
    const page = box.cli(['list', '--limit', '1']);
    expect(page.code).toBe(0);
    expect(page.stdout).toContain("2 damaged checkpoints beyond this page: 'chronoscope list --all' marks them");
    expect(page.stdout.split('\n')[0]).not.toMatch(/DAMAGED/); // the page itself holds none
    const two = box.cli(['list', '--limit', '2']).stdout;
    expect(two).toContain('1 damaged checkpoint beyond this page');
    const all = box.cli(['list', '--all']).stdout;
    expect(all).not.toContain('beyond this page');
    expect(ids).toHaveLength(4);
  });

  it('a flipped byte in a pack (CRC mismatch): exit 3, names the checkpoints that use that object', () => {
    const { ids, deep } = history();
    const oid = blobId(deep);
    if (existsSync(looseFile(oid))) storeGit(['repack', '-a', '-d', '-q']); // make sure it is packed
    const packDir = join(gitDir(), 'objects', 'pack');
    let flipped = false;
    for (const idx of readdirSync(packDir).filter((n) => n.endsWith('.idx'))) {
      const pack = join(packDir, idx.replace(/\.idx$/, '.pack'));
      const line = storeGit(['verify-pack', '-v', pack])
        .split('\n')
        .find((l) => l.startsWith(`${oid} `));
      if (!line) continue;
      const [, , , inPack, offset] = line.trim().split(/\s+/).map(Number);
      chmodSync(pack, 0o600);
      const fd = openSync(pack, 'r+');
      // The last byte of its record: inside the deflated body's checksum.
      const at = (offset as number) + (inPack as number) - 1;
      const byte = readFileSync(pack).subarray(at, at + 1);
      writeSync(fd, Buffer.from([(byte[0] as number) ^ 0xff]), 0, 1, at);
      closeSync(fd);
      flipped = true;
    }
    expect(flipped).toBe(true);
    const { code, json } = check();
    expect(code).toBe(3);
    expect(json.damaged.map((d) => d.id).sort()).toEqual([ids[1], ids[2]].sort());
    for (const d of json.damaged) expect(d.lost).toEqual(['src/deep/er/x.txt']);
    expect(json.packs.map((p) => p.problem).join('\n')).toMatch(/trailer checksum/);
    expect(box.cli(['check']).stdout).toMatch(/CRC-32/);
    expect(damagedIds().sort()).toEqual([ids[1], ids[2]].sort());
  });

  it('a missing object: exit 3, names the checkpoints that need it; a later clean check clears the marks', () => {
    const { ids } = history();
    unpackAll();
    // The subtree src/deep/er of the 4th checkpoint alone.
    const tree = storeGit(['rev-parse', `${ids[3]}:src/deep/er`]).trim();
    const saved = readFileSync(looseFile(tree));
    rmSync(looseFile(tree));
    const { code, json } = check();
    expect(code).toBe(3);
    expect(json.damaged.map((d) => d.id)).toEqual([ids[3]]);
    expect(json.damaged[0]?.lost).toEqual(['src/deep/er/']);
    expect(damagedIds()).toEqual([ids[3]]);
    // Put back (as a backup would): the next check finds it whole and list no longer marks it.
    writeFileSync(looseFile(tree), saved);
    expect(check().code).toBe(0);
    expect(damagedIds()).toEqual([]);
  });

  it('bad input exits with one line and changes nothing', () => {
    history();
    const before = treeFingerprint(box.home);
    const unknown = join(box.workspace, '..', 'never-recorded');
    mkdirSync(unknown);
    const notKnown = box.cli(['check', '-w', unknown]);
    expect(notKnown.code).toBe(1);
    expect(notKnown.stdout).toBe('');
    expect(notKnown.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(notKnown.stderr).toMatch(/^chronoscope: .*not a workspace Chronoscope has recorded/);
    const both = box.cli(['check', '--all', '-w', box.workspace]);
    expect(both.code).toBe(1);
    expect(both.stderr.trimEnd().split('\n')).toHaveLength(1);
    // A bad flag is a usage error, as for every command (exit 2: the message and a hint).
    const flag = box.cli(['check', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stdout).toBe('');
    expect(flag.stderr).toMatch(/^chronoscope: unknown option '--frobnicate'/);
    expect(treeFingerprint(box.home)).toBe(before);
  });

  it('--all checks every workspace of the store and names the workspace', () => {
    const { ids, deep } = history();
    const other = join(box.workspace, '..', 'other-ws');
    mkdirSync(other);
    writeFileSync(join(other, 'o.txt'), 'other\n');
    expect(box.cli(['snapshot', '-w', other]).code).toBe(0);
    unpackAll();
    rmSync(looseFile(blobId(deep)));
    const run = box.cli(['check', '--all', '--json']);
    expect(run.code).toBe(3);
    const json = JSON.parse(run.stdout) as CheckJson & { workspaces: number; damaged: { workspace: string }[] };
    expect(json.workspaces).toBe(2);
    expect(json.checkpoints).toBe(ids.length + 1);
    expect(json.damaged.map((d) => d.workspace)).toEqual([realpathSync(box.workspace), realpathSync(box.workspace)]);
  });
});
