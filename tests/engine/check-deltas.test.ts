// The check reads packs git's gc wrote (prune --compact): objects stored as
// deltas on others, in the same pack (OFS_DELTA) — proven like any other, and
// a damaged base spoils the objects built on it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWorkspace } from '../../electron/engine/check.js';
import { ObjectProver } from '../../electron/engine/objects/check-objects.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox | undefined;
afterEach(() => s?.cleanup());

/** A checkpoint of an unrelated file, then versions of one long file that differ a little: git's repack stores most as deltas. */
async function versions(box: Sandbox, count: number): Promise<string[]> {
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i} of a file that changes a little each time`);
  // A first checkpoint without the file: never spoiled by its objects.
  write(box.ws, 'other.txt', 'unrelated\n');
  const ids: string[] = [(await box.workspace.snapshot()).id as string];
  for (let v = 0; v < count; v++) {
    lines[v * 7] = `changed in version ${v}`;
    write(box.ws, 'src/long.txt', `${lines.join('\n')}\n`);
    ids.push((await box.workspace.snapshot()).id as string);
  }
  return ids;
}

function repackWithDeltas(box: Sandbox): string {
  storeGit(box.storeHome, ['repack', '-a', '-d', '-f', '-q', '--depth=50', '--window=50']);
  const packDir = path.join(box.storeHome, 'git', 'objects', 'pack');
  const packs = fs.readdirSync(packDir).filter((n) => n.endsWith('.pack'));
  expect(packs).toHaveLength(1);
  return path.join(packDir, packs[0] as string);
}

describe('check on packs with deltas', () => {
  it('proves every object of a gc-written pack, deltas included, as git reads them', async () => {
    s = await sandbox();
    const ids = await versions(s, 8);
    const pack = repackWithDeltas(s);
    const listing = storeGit(s.storeHome, ['verify-pack', '-v', pack]);
    // Lines of deltified objects carry a depth and a base id.
    expect(listing.split('\n').some((l) => /^[0-9a-f]{40} blob\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(l))).toBe(true);
    const prover = new ObjectProver(path.join(s.storeHome, 'git'));
    try {
      for (const line of listing.split('\n')) {
        const m = /^([0-9a-f]{40}) (blob|tree|commit)/.exec(line);
        if (!m) continue;
        const proven = prover.prove(m[1] as string);
        expect(proven.ok, `${m[1]}: ${proven.ok ? '' : proven.why}`).toBe(true);
        if (proven.ok) expect(proven.data.equals(execFileSync('git', ['--git-dir', path.join(s.storeHome, 'git'), 'cat-file', m[2] as string, m[1] as string]))).toBe(true);
      }
    } finally {
      prover.close();
    }
    const result = await checkWorkspace(s.store, s.workspace);
    expect(result).toMatchObject({ clean: true, checkpoints: ids.length, packs: [] });
  });

  it('a damaged delta base spoils the checkpoints whose objects are built on it, and only those', async () => {
    s = await sandbox();
    const ids = await versions(s, 8);
    const pack = repackWithDeltas(s);
    const rows = storeGit(s.storeHome, ['verify-pack', '-v', pack])
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[1] === 'blob');
    // A base: a blob other blobs are deltas on.
    const bases = new Set(rows.filter((f) => f.length === 7).map((f) => f[6]));
    const base = rows.find((f) => bases.has(f[0]) && f.length === 5);
    expect(base).toBeDefined();
    const [oid, , , inPack, offset] = base as string[];
    fs.chmodSync(pack, 0o600);
    const fd = fs.openSync(pack, 'r+');
    const at = Number(offset) + Number(inPack) - 2;
    fs.writeSync(fd, Buffer.from([0x00, 0xff]), 0, 2, at);
    fs.closeSync(fd);
    // Which checkpoints hold a version whose object is the base or built on it (git cannot read those either).
    const spoiled = ids.slice(1).filter((id) => {
      try {
        execFileSync('git', ['--git-dir', path.join(s!.storeHome, 'git'), 'cat-file', 'blob', `${id}:src/long.txt`], { stdio: 'ignore' });
        return false;
      } catch {
        return true;
      }
    });
    expect(spoiled.length).toBeGreaterThan(0);
    expect(spoiled.length).toBeLessThan(ids.length);
    const result = await checkWorkspace(s.store, s.workspace);
    expect(result.clean).toBe(false);
    expect(result.damaged.map((d) => d.id).sort()).toEqual([...spoiled].sort());
    for (const d of result.damaged) expect(d.lost).toEqual(['src/long.txt']);
    expect(result.bad_objects.map((o) => o.id)).toContain(oid);
  });
});
