// What crashes and disk faults leave in the store: a ref's leftover .lock,
// temporary files, empty (0-byte) objects. Each affects only what uses it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { picture, sandbox, storeGit, write, type Sandbox } from '../engine/helpers.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import type { WorkspaceImpl } from '../../electron/engine/workspace.js';

let s: Sandbox | undefined;
afterEach(() => s?.cleanup());

function objectFile(storeHome: string, oid: string): string {
  return path.join(storeHome, 'git', 'objects', oid.slice(0, 2), oid.slice(2));
}

/**
 * A damaged object. Loose: what a power loss after the rename but before the
 * data reached the disk leaves, an empty file. Packed (a snapshot's pack is
 * fsynced before it is renamed into place, so it is whole or absent): bit
 * rot, its compressed bytes overwritten where they sit in the pack.
 */
function emptyObject(storeHome: string, oid: string): void {
  const file = objectFile(storeHome, oid);
  if (fs.existsSync(file)) {
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, '');
    return;
  }
  const packDir = path.join(storeHome, 'git', 'objects', 'pack');
  for (const idx of fs.readdirSync(packDir).filter((n) => n.endsWith('.idx'))) {
    const pack = path.join(packDir, idx.replace(/\.idx$/, '.pack'));
    const line = storeGit(storeHome, ['verify-pack', '-v', pack])
      .split('\n')
      .find((l) => l.startsWith(`${oid} `));
    if (!line) continue;
    const [, , , inPack, offset] = line.trim().split(/\s+/).map(Number);
    fs.chmodSync(pack, 0o600);
    const fd = fs.openSync(pack, 'r+');
    // Past the type-and-size header (a few bytes): the deflated body becomes garbage.
    fs.writeSync(fd, Buffer.alloc((inPack as number) - 4, 0xa5), 0, (inPack as number) - 4, (offset as number) + 4);
    fs.closeSync(fd);
    return;
  }
  throw new Error(`object ${oid} is neither loose nor packed`);
}

/** Every object loose, as in a store written before snapshots wrote packs (and before objects were fsynced). */
function unpackAll(storeHome: string): void {
  const packDir = path.join(storeHome, 'git', 'objects', 'pack');
  for (const name of fs.readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
    const pack = path.join(packDir, name);
    const moved = path.join(storeHome, name);
    fs.renameSync(pack, moved);
    fs.rmSync(pack.replace(/\.pack$/, '.idx'));
    execFileSync('git', ['--git-dir', path.join(storeHome, 'git'), 'unpack-objects', '-q'], { input: fs.readFileSync(moved) });
    fs.rmSync(moved);
  }
}

/** The next snapshot (of `rel`, holding 'shared content') writes the damaged `blob` anew, and a restore of it (with `rel` and `alsoGone` removed) works. */
async function expectWrittenAnew(box: Sandbox, blob: string, rel: string, alsoGone: string[] = []): Promise<void> {
  const next = await box.workspace.snapshot();
  expect(next.id).not.toBeNull();
  // Written anew: loose over the empty file, or into a pack (which git reads before a loose file).
  const loose = fs.statSync(objectFile(box.storeHome, blob)).size > 0;
  const packDir = path.join(box.storeHome, 'git', 'objects', 'pack');
  const packed = fs
    .readdirSync(packDir)
    .filter((n) => n.endsWith('.pack'))
    .some((n) => storeGit(box.storeHome, ['verify-pack', '-v', path.join(packDir, n)]).includes(`${blob} blob`));
  expect(loose || packed).toBe(true);
  expect(storeGit(box.storeHome, ['cat-file', '-p', blob])).toBe('shared content\n');
  for (const gone of [rel, ...alsoGone]) fs.rmSync(path.join(box.ws, gone));
  await box.workspace.restore(next.id as string);
  expect(fs.readFileSync(path.join(box.ws, rel), 'utf8')).toBe('shared content\n');
}

async function three(box: Sandbox): Promise<string[]> {
  const ids: string[] = [];
  for (const v of ['one', 'two', 'three']) {
    write(box.ws, 'a.txt', `${v}\n`);
    ids.push((await box.workspace.snapshot()).id as string);
  }
  return ids;
}

describe('leftovers of killed writers', () => {
  it("a ref's stale .lock (kill between link and rm) does not make prune fail once retention picks that ref", async () => {
    s = await sandbox({ settings: { retention: { max_checkpoints: 1, max_age_days: 30, max_store_mb: 10240 } } });
    const [oldest] = await three(s);
    const refs = storeGit(s.storeHome, ['for-each-ref', '--format=%(refname)', `refs/chronoscope/${s.workspace.meta.id}/`]).trim().split('\n');
    const oldestRef = refs[0] as string;
    fs.writeFileSync(path.join(s.storeHome, 'git', `${oldestRef}.lock`), `${oldest}\n`);
    const pruned = await s.workspace.prune();
    expect(pruned.removed).toHaveLength(2);
    expect(fs.existsSync(path.join(s.storeHome, 'git', `${oldestRef}.lock`))).toBe(false);
  });

  it('temporary files of dead writers are swept; a fresh one (a live writer elsewhere) is left', async () => {
    s = await sandbox();
    await three(s);
    const objects = path.join(s.storeHome, 'git', 'objects');
    const old = Date.now() / 1000 - 2 * 3600;
    // And a pack whose index a killed join of packs had already removed (invisible to git).
    const stale = [path.join(objects, 'ab', 'tmp_obj_dead01'), path.join(objects, 'pack', 'tmp_pack_dead02'), path.join(objects, 'pack', `pack-${'d'.repeat(40)}.pack`)];
    fs.mkdirSync(path.join(objects, 'ab'), { recursive: true });
    fs.mkdirSync(path.join(objects, 'pack'), { recursive: true });
    for (const f of stale) {
      fs.writeFileSync(f, 'half');
      fs.utimesSync(f, old, old);
    }
    const fresh = path.join(objects, 'ab', 'tmp_obj_live03');
    fs.writeFileSync(fresh, 'being written');
    // Our atomic temp file of a process that no longer exists (pid beyond any pid_max): swept at once.
    const orphan = path.join(s.storeHome, 'workspaces', s.workspace.meta.id, '.head.99999999.abcd.tmp');
    fs.writeFileSync(orphan, '{');
    await s.workspace.prune();
    for (const f of [...stale, orphan]) expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(fresh)).toBe(true);
    // Compaction holds every lock: everything left is a leftover.
    await s.workspace.prune({ compact: true });
    expect(fs.existsSync(fresh)).toBe(false);
  });
});

describe('a damaged (empty) object', () => {
  it("spoils only the checkpoint whose commit it is: list works and marks it, the others show, snapshots go on", async () => {
    s = await sandbox();
    const [first, middle, last] = await three(s);
    emptyObject(s.storeHome, middle as string);
    const listed = await s.workspace.list();
    expect(listed.map((c) => c.id)).toEqual([last, middle, first]);
    expect(listed.map((c) => c.damaged === true)).toEqual([false, true, false]);
    await expect(s.workspace.show(middle as string)).rejects.toThrow(/damaged/);
    expect((await s.workspace.show(first as string)).files.map((f) => f.path)).toEqual(['a.txt']);
    write(s.ws, 'a.txt', 'four\n');
    expect((await s.workspace.snapshot()).id).not.toBeNull();
    await s.workspace.restore(first as string);
    expect(fs.readFileSync(path.join(s.ws, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it('a damaged newest checkpoint does not stop the next snapshot', async () => {
    s = await sandbox();
    const ids = await three(s);
    emptyObject(s.storeHome, ids[2] as string);
    // The head file would vouch for it: a fresh process has none it trusts.
    fs.rmSync(path.join(s.storeHome, 'workspaces', s.workspace.meta.id, 'head'));
    write(s.ws, 'a.txt', 'four\n');
    const next = await s.workspace.snapshot();
    expect(next.id).not.toBeNull();
    expect((await s.workspace.list()).map((c) => c.damaged === true)).toEqual([false, true, false, false]);
  });

  it('is never reused: a file with the same content gets its object written anew', async () => {
    s = await sandbox();
    write(s.ws, 'a.txt', 'shared content\n');
    await s.workspace.snapshot();
    const blob = storeGit(s.storeHome, ['rev-parse', `${(await s.workspace.resolve('latest')).id}:a.txt`]).trim();
    emptyObject(s.storeHome, blob);
    write(s.ws, 'b.txt', 'shared content\n');
    await expectWrittenAnew(s, blob, 'b.txt', ['a.txt']);
  });
});

describe('a damaged object a bulk snapshot would reuse', () => {
  it('is read back and written anew when 200+ files are hashed into one pack', async () => {
    s = await sandbox();
    // Another workspace of the same store recorded this content first (a loose blob), then it was damaged.
    const other = path.join(s.base, 'other');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'shared.txt'), 'shared content\n');
    const first = await s.store.workspace(other);
    await first.snapshot();
    const blob = storeGit(s.storeHome, ['rev-parse', `${(await first.resolve('latest')).id}:shared.txt`]).trim();
    emptyObject(s.storeHome, blob);
    for (let i = 0; i < 250; i++) write(s.ws, `many/f${i}.txt`, `file ${i}\n`);
    write(s.ws, 'shared.txt', 'shared content\n');
    await expectWrittenAnew(s, blob, 'shared.txt');
  });
});

describe('a damaged tree', () => {
  /** Three checkpoints of a.txt and sub/b.txt; each changes both. */
  async function withSub(box: Sandbox): Promise<string[]> {
    const ids: string[] = [];
    for (const v of ['one', 'two', 'three']) {
      write(box.ws, 'a.txt', `${v}\n`);
      write(box.ws, 'sub/b.txt', `${v}\n`);
      ids.push((await box.workspace.snapshot()).id as string);
    }
    return ids;
  }

  it('root tree: list marks that checkpoint only; show and restore refuse in one line and change nothing', async () => {
    s = await sandbox();
    const [first, middle, last] = await withSub(s);
    // list reads loose root trees only (a pack is fsynced before it is named): a store of loose objects, as older versions wrote.
    unpackAll(s.storeHome);
    emptyObject(s.storeHome, storeGit(s.storeHome, ['rev-parse', `${middle}^{tree}`]).trim());
    expect((await s.workspace.list()).map((c) => c.damaged === true)).toEqual([false, true, false]);
    const env = baseEnv(s.storeHome);
    const before = picture(s.ws);
    for (const args of [['show', middle as string], ['restore', middle as string, '--yes'], ['diff', middle as string]]) {
      const r = await runCli([...args, '-w', s.ws], { env });
      expect(r.code, args[0]).toBe(1);
      expect(r.stderr.trim().split('\n'), args[0]).toHaveLength(1);
      expect(r.stderr).toMatch(/is damaged \(its tree .* cannot be read\)/);
    }
    expect(picture(s.ws)).toEqual(before);
    // No safety checkpoint either.
    expect((await s.workspace.list()).map((c) => c.id)).toEqual([last, middle, first]);
    expect((await s.workspace.show(first as string)).files.map((f) => f.path)).toEqual(['a.txt', 'sub/b.txt']);
  });

  it('root tree in a long listing (loose objects found by fan-out folder): list marks that checkpoint only', async () => {
    s = await sandbox();
    const ids: string[] = [];
    const take = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        write(s.ws, 'a.txt', `${ids.length}\n`);
        ids.push((await s.workspace.snapshot()).id as string);
      }
    };
    // The older half loose (as older versions wrote), the newer half in the packs snapshots write.
    // Each time after the snapshots' background pack merge is done: one still running would write
    // the objects just unpacked (or damaged) into a new pack, and the listing would find them whole.
    await take(150);
    await (s.workspace as WorkspaceImpl).settled();
    unpackAll(s.storeHome);
    await take(150);
    await (s.workspace as WorkspaceImpl).settled();
    const damagedOne = ids[50] as string;
    emptyObject(s.storeHome, storeGit(s.storeHome, ['rev-parse', `${damagedOne}^{tree}`]).trim());
    const listed = await s.workspace.list();
    expect(listed).toHaveLength(300);
    expect(listed.filter((c) => c.damaged).map((c) => c.id)).toEqual([damagedOne]);
  });

  it('a subtree: show, diff and restore of that checkpoint refuse in one line, nothing changes; the others work', async () => {
    s = await sandbox();
    const [first, middle, last] = await withSub(s);
    emptyObject(s.storeHome, storeGit(s.storeHome, ['rev-parse', `${middle}:sub`]).trim());
    expect((await s.workspace.list()).map((c) => c.id)).toEqual([last, middle, first]);
    // Only the root tree is read by list: damage below it is found when the checkpoint is opened.
    expect((await s.workspace.list()).map((c) => c.damaged === true)).toEqual([false, false, false]);
    const env = baseEnv(s.storeHome);
    const before = picture(s.ws);
    for (const args of [['show', middle as string], ['restore', middle as string, '--yes'], ['diff', first as string, middle as string]]) {
      const r = await runCli([...args, '-w', s.ws], { env });
      expect(r.code, args[0]).toBe(1);
      expect(r.stderr.trim().split('\n'), args[0]).toHaveLength(1);
      expect(r.stderr).toContain(`checkpoint ${(middle as string).slice(0, 12)} is damaged`);
    }
    expect(picture(s.ws)).toEqual(before);
    expect((await s.workspace.list()).map((c) => c.id)).toEqual([last, middle, first]);
    // Found once, marked from then on.
    expect((await s.workspace.list()).map((c) => c.damaged === true)).toEqual([false, true, false]);
    await s.workspace.restore(first as string);
    expect(fs.readFileSync(path.join(s.ws, 'sub', 'b.txt'), 'utf8')).toBe('one\n');
  });
});
