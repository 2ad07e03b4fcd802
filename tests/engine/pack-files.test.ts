// The packs snapshots write from Node (pack-write.ts), read back in Node
// (pack-read.ts) and join (pack-merge.ts) are git's own formats: git checks
// them, reads every object, and writes the very same index for the same pack.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packedObject } from '../../electron/engine/objects/pack-read.js';
import { MERGE_AT, mergeSmallPacks, settlePackMerges } from '../../electron/engine/objects/pack-merge.js';
import { PackWriter, storedZlib } from '../../electron/engine/objects/pack-write.js';
import { serializeTree } from '../../electron/engine/trees/tree-write.js';
import { picture, sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const gitDir = (): string => path.join(s.storeHome, 'git');
const packDir = (): string => path.join(gitDir(), 'objects', 'pack');
const packs = (): string[] => fs.readdirSync(packDir()).filter((n) => n.endsWith('.pack'));

function bareRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-pack-'));
  execFileSync('git', ['init', '-q', '--bare', dir]);
  return dir;
}

describe('a pack written from Node', () => {
  it('is what git writes: index-pack makes the same index, verify-pack and fsck pass, cat-file reads every object', async () => {
    const repo = bareRepo();
    try {
      const pack = new PackWriter();
      const blobs = [Buffer.alloc(0), Buffer.from('hello\n'), randomBytes(70_000), Buffer.from('x'.repeat(100_000))].map((b) => ({ oid: pack.put('blob', b), body: b }));
      const tree = pack.put(
        'tree',
        serializeTree(blobs.map((b, i) => ({ mode: i === 0 ? '100755' : '100644', name: Buffer.from(`f${i}`), oid: b.oid }))),
      );
      const commit = pack.put('commit', Buffer.from(`tree ${tree}\nauthor A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nm\n`));
      const [files] = pack.files();
      expect(pack.files()).toHaveLength(1);
      await pack.write(repo);
      const written = path.join(repo, 'objects', 'pack', `pack-${files!.name}`);
      // git's own index for the same pack, byte for byte.
      const gitsIdx = path.join(repo, 'gits.idx');
      execFileSync('git', ['index-pack', '-o', gitsIdx, `${written}.pack`], { cwd: repo });
      expect(fs.readFileSync(`${written}.idx`).equals(fs.readFileSync(gitsIdx))).toBe(true);
      execFileSync('git', ['verify-pack', `${written}.idx`]);
      execFileSync('git', ['--git-dir', repo, 'update-ref', 'refs/heads/main', commit]);
      execFileSync('git', ['--git-dir', repo, 'fsck', '--strict', '--no-dangling']);
      for (const { oid, body } of blobs) {
        expect(execFileSync('git', ['--git-dir', repo, 'cat-file', 'blob', oid]).equals(body)).toBe(true);
        // And Node reads it back too, in whole or only its size.
        expect((await packedObject(repo, oid))?.data?.equals(body)).toBe(true);
        expect(await packedObject(repo, oid, 0)).toMatchObject({ type: 'blob', size: body.length });
      }
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });

  it('stores trees and commits as zlib streams any inflater reads, at every block boundary', () => {
    for (const n of [0, 1, 5552, 5553, 65535, 65536, 140_000]) {
      const body = n === 140_000 ? Buffer.alloc(n, 0xff) : randomBytes(n);
      expect(inflateSync(storedZlib(body)).equals(body), String(n)).toBe(true);
    }
  });

  it('Node finds every object of a pack of thousands (many ids share each first byte)', async () => {
    const repo = bareRepo();
    try {
      const pack = new PackWriter();
      const bodies = new Map<string, Buffer>();
      for (let i = 0; i < 3000; i++) {
        const body = Buffer.from(`object ${i}\n`);
        bodies.set(pack.put('blob', body), body);
      }
      await pack.write(repo);
      for (const [oid, body] of bodies) expect((await packedObject(repo, oid))?.data?.equals(body), oid).toBe(true);
      expect(await packedObject(repo, 'f'.repeat(40))).toBeNull();
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe("snapshots' packs in the store", () => {
  it('a path-limited snapshot writes one pack; Node reads its objects as git does, and a pack added later is found', async () => {
    for (let i = 0; i < 6; i++) write(s.ws, `d${i}/f.txt`, `v0 ${i}\n`);
    await s.workspace.snapshot();
    const before = packs().length;
    write(s.ws, 'd1/f.txt', 'v1\n');
    write(s.ws, 'd2/f.txt', 'v1 two\n');
    // Reading first lists the packs there now; the snapshot's own pack comes after.
    await packedObject(gitDir(), '0'.repeat(40));
    const id = (await s.workspace.snapshot({ paths: ['d1/f.txt', 'd2/f.txt'] })).id as string;
    expect(packs().length).toBe(before + 1);
    const oids = storeGit(s.storeHome, ['rev-list', '--objects', '--no-object-names', id]).trim().split('\n');
    for (const oid of oids) {
      const type = storeGit(s.storeHome, ['cat-file', '-t', oid]).trim();
      const body = execFileSync('git', ['cat-file', type, oid], { env: { PATH: process.env['PATH'], GIT_DIR: gitDir() } });
      const read = await packedObject(gitDir(), oid);
      // Loose ones (git hashed the first snapshot's files) are not in a pack: null, and the caller reads them loose.
      if (read !== null) expect({ type: read.type, same: read.data?.equals(body) }).toEqual({ type, same: true });
    }
    expect(await packedObject(gitDir(), storeGit(s.storeHome, ['rev-parse', `${id}:d1/f.txt`]).trim())).toMatchObject({ type: 'blob', size: 3 });
  });

  it(`past ${MERGE_AT} packs the small ones are joined: fewer packs, every checkpoint intact, fsck clean`, async () => {
    for (let i = 0; i < 8; i++) write(s.ws, `d${i}/f.txt`, `v0 ${i}\n`);
    await s.workspace.snapshot();
    const ids: string[] = [];
    const pictures: Record<string, string>[] = [];
    for (let round = 1; round <= MERGE_AT + 4; round++) {
      write(s.ws, `d${round % 8}/f.txt`, `round ${round}\n`);
      write(s.ws, `d${(round + 3) % 8}/f.txt`, `round ${round} too\n`);
      ids.push((await s.workspace.snapshot({ paths: [`d${round % 8}/f.txt`, `d${(round + 3) % 8}/f.txt`] })).id as string);
      pictures.push(picture(s.ws));
      // The join runs in the background, after a quiet moment: this waits for it.
      await settlePackMerges();
      expect(packs().length).toBeLessThan(MERGE_AT);
    }
    storeGit(s.storeHome, ['fsck', '--strict', '--no-dangling']);
    for (const name of packs()) storeGit(s.storeHome, ['verify-pack', path.join(packDir(), name.replace(/\.pack$/, '.idx'))]);
    // Every checkpoint restores to exactly what it recorded, from the joined pack.
    for (const [i, id] of ids.entries()) {
      await s.workspace.restore(id);
      expect(picture(s.ws)).toEqual(pictures[i]);
    }
  });

  it("a pack git wrote with deltas is left alone by the join, and its objects are read through git", async () => {
    // Similar content in many versions, then gc: git stores most of them as deltas.
    const base = Array.from({ length: 400 }, (_, i) => `line ${i} of a long file\n`).join('');
    const ids: string[] = [];
    for (let v = 0; v < 6; v++) {
      write(s.ws, 'long.txt', `${base}version ${v}\n`);
      write(s.ws, 'other.txt', `other ${v}\n`);
      ids.push((await s.workspace.snapshot()).id as string);
    }
    await s.store.compact();
    const [gcPack] = packs();
    const verify = storeGit(s.storeHome, ['verify-pack', '-v', path.join(packDir(), gcPack!.replace(/\.pack$/, '.idx'))]);
    const delta = /^([0-9a-f]{40}) blob\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/m.exec(verify)?.[1];
    expect(delta).toBeDefined();
    expect(await packedObject(gitDir(), delta!)).toBeNull();
    // Enough snapshots to call for a join: git's pack stays as it was.
    for (let round = 0; round < MERGE_AT + 1; round++) {
      write(s.ws, 'other.txt', `more ${round}\n`);
      write(s.ws, 'third.txt', `third ${round}\n`);
      await s.workspace.snapshot({ paths: ['other.txt', 'third.txt'] });
    }
    await mergeSmallPacks(gitDir());
    expect(packs()).toContain(gcPack);
    const first = await s.workspace.diff(ids[0]!, ids[5]!);
    expect(first.files.map((f) => f.path).sort()).toEqual(['long.txt', 'other.txt']);
    await s.workspace.restore(ids[2]!);
    expect(fs.readFileSync(path.join(s.ws, 'long.txt'), 'utf8')).toBe(`${base}version 2\n`);
  });
});
