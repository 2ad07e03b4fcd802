// `check` agrees with `git fsck --full` on stores as git and upkeep leave them,
// not only as our own code writes them: packs delta-compressed by
// `git repack -adf --depth=50 --window=250`, `git gc --aggressive`, our upkeep,
// fast-import (the seed script), OFS and REF deltas, long chains, objects over
// 1 MB and over the check's read window, thin packs completed by index-pack,
// several packs at once. Every clean store: no damaged checkpoint, and the CLI
// exits 0. Then each kind of damage is planted (a byte in a delta record, in
// its base, in a pack index, a cut pack, a missing object) and the damaged
// checkpoints must be exactly those that need a bad object, worked out from
// git's own listing of the pack (`verify-pack -v`) and `rev-list --objects`.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import { checkStore } from '../../electron/engine/check.js';
import { storeLayout } from '../../electron/engine/layout/paths.js';
import { parseEntryHeader } from '../../electron/engine/objects/pack-entry.js';
import { upkeepIfDue } from '../../electron/engine/upkeep.js';
import { seedHistory } from '../../scripts/bench-ui/seed-history.js';
import { CLI_PATH } from '../paths.js';
import { write } from './helpers.js';

let base: string;
/** The corpus store, never changed: each case works on a copy. */
let corpusHome: string;
let corpusWs: string;
let wsId: string;

function git(home: string, args: string[], input?: string | Buffer): string {
  return execFileSync('git', args, {
    cwd: path.join(home, 'git'),
    env: { PATH: process.env['PATH'], GIT_DIR: path.join(home, 'git'), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...(input !== undefined ? { input } : {}),
  });
}

function fsckClean(home: string): boolean {
  return spawnSync('git', ['fsck', '--full', '--no-dangling'], { cwd: path.join(home, 'git'), env: { PATH: process.env['PATH'], GIT_DIR: path.join(home, 'git'), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'ignore' }).status === 0;
}

let copies = 0;
function copyOf(home: string): string {
  const to = path.join(base, `copy-${copies++}`);
  fs.cpSync(home, to, { recursive: true });
  return to;
}

function packs(home: string): string[] {
  const dir = path.join(home, 'git', 'objects', 'pack');
  return fs.readdirSync(dir).filter((n) => n.endsWith('.pack')).map((n) => path.join(dir, n));
}

function refsOf(home: string, id: string): string[] {
  return git(home, ['for-each-ref', '--format=%(objectname)', `refs/chronoscope/${id}/cp/`]).split('\n').filter(Boolean);
}

async function check(home: string, id = wsId) {
  return checkStore(storeLayout(home), [id]);
}

interface Row {
  oid: string;
  type: string;
  size: number;
  inPack: number;
  offset: number;
  depth: number;
  base: string | null;
}

/** git's own listing of a pack: each object's type, size, bytes in the pack, offset, and delta base. */
function listing(home: string, pack: string): Row[] {
  return git(home, ['verify-pack', '-v', pack])
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => /^[0-9a-f]{40}$/.test(f[0] ?? '') && ['blob', 'tree', 'commit', 'tag'].includes(f[1] ?? ''))
    .map((f) => ({ oid: f[0]!, type: f[1]!, size: Number(f[2]), inPack: Number(f[3]), offset: Number(f[4]), depth: f[5] ? Number(f[5]) : 0, base: f[6] ?? null }));
}

/** The objects that cannot be read when `bad` cannot: those, and every delta built on them (through any depth). */
function withDependents(rows: Row[], bad: Iterable<string>): Set<string> {
  const out = new Set(bad);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows) {
      if (r.base && out.has(r.base) && !out.has(r.oid)) {
        out.add(r.oid);
        grew = true;
      }
    }
  }
  return out;
}

const reachable = new Map<string, Set<string>>();
/** The checkpoints (commit ids) that hold any of `bad`, by git's rev-list on the clean corpus. */
function needing(commits: string[], bad: Set<string>): string[] {
  return commits
    .filter((c) => {
      let objects = reachable.get(c);
      if (!objects) reachable.set(c, (objects = new Set(git(corpusHome, ['rev-list', '--objects', c]).split('\n').map((l) => l.slice(0, 40)))));
      return [...bad].some((o) => objects.has(o));
    })
    .sort();
}

function flip(file: string, at: number): void {
  fs.chmodSync(file, 0o600);
  const fd = fs.openSync(file, 'r+');
  const b = Buffer.alloc(1);
  fs.readSync(fd, b, 0, 1, at);
  b[0] = b[0]! ^ 0x5a;
  fs.writeSync(fd, b, 0, 1, at);
  fs.closeSync(fd);
}

/** A store squeezed to one delta-compressed pack; its pack and git's listing of it. */
function repacked(args: string[] = ['repack', '-a', '-d', '-f', '-q', '--depth=50', '--window=250']): { home: string; pack: string; rows: Row[] } {
  const home = copyOf(corpusHome);
  git(home, args);
  const [pack] = packs(home);
  expect(packs(home)).toHaveLength(1);
  return { home, pack: pack!, rows: listing(home, pack!) };
}

/** Clean stores: the check proves every checkpoint intact, git fsck agrees, and the CLI exits 0. */
async function expectClean(home: string, cli = false): Promise<void> {
  expect(fsckClean(home)).toBe(true);
  const result = await check(home);
  expect(result.damaged.map((d) => `${d.id}: ${d.lost.join(', ')}`)).toEqual([]);
  expect(result.packs).toEqual([]);
  expect(result.clean).toBe(true);
  expect(result.checkpoints).toBe(refsOf(corpusHome, wsId).length);
  if (cli) {
    const run = spawnSync(process.execPath, [CLI_PATH, 'check', '--workspace', corpusWs], { env: { ...process.env, CHRONOSCOPE_HOME: home }, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toMatch(/no damage/);
    expect(run.status).toBe(0);
  }
}

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-corpus-')));
  corpusHome = path.join(base, 'store');
  corpusWs = path.join(base, 'ws');
  fs.mkdirSync(corpusWs);
  const store = await openStore({ home: corpusHome });
  const ws = await store.workspace(corpusWs);
  wsId = ws.meta.id;
  // A workspace like the ones the reports came from: folders of small files, edited a few at a time.
  for (let d = 0; d < 12; d++) for (let f = 0; f < 12; f++) write(corpusWs, `d${d}/f${f}.ts`, Array.from({ length: 20 + f * 5 }, (_, i) => `export const v${d}_${f}_${i} = ${i};\n`).join(''));
  // Over 1 MB and compressible: its versions become big deltas.
  const big = Array.from({ length: 30_000 }, (_, i) => `row ${i}: ${'x'.repeat(i % 40)}\n`);
  write(corpusWs, 'data/big.txt', big.join(''));
  // Over the check's read window (2 MB) even deflated: random bytes.
  const noise = randomBytes(3 * 1024 * 1024);
  write(corpusWs, 'data/noise.bin', noise);
  const chain: string[] = Array.from({ length: 200 }, (_, i) => `line ${i} of a file edited in every checkpoint\n`);
  write(corpusWs, 'chain.txt', chain.join(''));
  await ws.snapshot({ reason: 'start' });
  for (let i = 0; i < 70; i++) {
    for (let k = 0; k < 8; k++) {
      const d = (i + k) % 12;
      if (i > 40 && d === 3) continue; // removed below at 40
      const f = (i * 5 + k) % 12;
      fs.appendFileSync(path.join(corpusWs, `d${d}/f${f}.ts`), `export const edit${i}_${k} = ${i * k};\n`);
    }
    chain[(i * 3) % chain.length] = `line changed in checkpoint ${i}\n`;
    write(corpusWs, 'chain.txt', chain.join(''));
    if (i % 10 === 3) {
      big[(i * 997) % big.length] = `row edited in checkpoint ${i}\n`;
      write(corpusWs, 'data/big.txt', big.join(''));
    }
    if (i % 30 === 5) write(corpusWs, 'data/noise.bin', Buffer.concat([noise, Buffer.from(`tail ${i}`)]));
    if (i === 40) fs.rmSync(path.join(corpusWs, 'd3'), { recursive: true });
    const taken = await ws.snapshot({ reason: `edit ${i}` });
    expect(taken.id).not.toBeNull();
  }
}, 300_000);

afterAll(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

describe('check on stores git compressed', () => {
  it('as our own code wrote it (many packs, no deltas)', async () => {
    expect(packs(corpusHome).length).toBeGreaterThan(1);
    await expectClean(corpusHome);
  });

  it('after git repack -adf --depth=50 --window=250: OFS deltas, chains to 50, big deltas; the CLI says no damage', async () => {
    const { home, rows } = repacked();
    expect(Math.max(...rows.map((r) => r.depth))).toBeGreaterThanOrEqual(40);
    // A blob over 1 MB rebuilt from a delta, and a record over the check's 2 MB read window.
    const sizes = new Map(git(home, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objectsize)']).split('\n').filter(Boolean).map((l) => [l.slice(0, 40), Number(l.slice(41))]));
    expect(rows.some((r) => r.depth > 0 && (sizes.get(r.oid) ?? 0) > 1024 * 1024)).toBe(true);
    expect(rows.some((r) => r.inPack > 2 * 1024 * 1024)).toBe(true);
    await expectClean(home, true);
  });

  it('after git gc --aggressive (depth 50, window 250)', async () => {
    const home = copyOf(corpusHome);
    git(home, ['gc', '--aggressive', '--prune=now', '-q']);
    expect(listing(home, packs(home)[0]!).some((r) => r.depth > 0)).toBe(true);
    await expectClean(home);
  });

  it("at git's depth limit: one chain as long as the history", async () => {
    const { home, rows } = repacked(['repack', '-a', '-d', '-f', '-q', '--depth=4095', '--window=250']);
    expect(Math.max(...rows.map((r) => r.depth))).toBeGreaterThanOrEqual(60);
    await expectClean(home);
  });

  it('with REF deltas (bases named by id, not offset)', async () => {
    const { home, pack, rows } = repacked(['-c', 'repack.useDeltaBaseOffset=false', 'repack', '-a', '-d', '-f', '-q', '--depth=50', '--window=50']);
    const bytes = fs.readFileSync(pack);
    const codes = new Set(rows.map((r) => parseEntryHeader(bytes.subarray(r.offset, r.offset + 32))!.code));
    expect(codes.has(7)).toBe(true);
    expect(codes.has(6)).toBe(false);
    await expectClean(home);
  });

  it('after our own upkeep', async () => {
    const home = copyOf(corpusHome);
    const run = await upkeepIfDue(home, { force: true, niceness: 0 });
    expect(run.ran).toBe(true);
    expect(packs(home).some((p) => listing(home, p).some((r) => r.depth > 0))).toBe(true);
    await expectClean(home, true);
  });

  it('with several packs: a thick one of the older checkpoints and a thin one (completed by index-pack) of the newer', async () => {
    const home = copyOf(corpusHome);
    const sorted = git(home, ['for-each-ref', '--sort=refname', '--format=%(objectname)', `refs/chronoscope/${wsId}/cp/`]).split('\n').filter(Boolean);
    const older = sorted.slice(0, 40);
    const newer = sorted.slice(40);
    const objects = path.join(home, 'git', 'objects');
    const fresh = path.join(base, `objects-${copies++}`);
    // The older checkpoints' objects in one pack (deltas), written beside the store and moved in.
    fs.mkdirSync(path.join(fresh, 'pack'), { recursive: true });
    git(home, ['pack-objects', '-q', '--revs', '--depth=50', '--window=50', path.join(fresh, 'pack', 'pack')], older.join('\n') + '\n');
    // The newer ones as a thin pack (deltas on objects it does not hold), completed with those bases by index-pack.
    const thin = execFileSync('git', ['pack-objects', '-q', '--revs', '--thin', '--stdout'], {
      cwd: path.join(home, 'git'),
      env: { PATH: process.env['PATH'], GIT_DIR: path.join(home, 'git'), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' },
      input: newer.join('\n') + '\n' + older.map((c) => `^${c}`).join('\n') + '\n',
      maxBuffer: 256 * 1024 * 1024,
    });
    fs.rmSync(objects, { recursive: true });
    fs.renameSync(fresh, objects);
    fs.mkdirSync(path.join(objects, 'info'), { recursive: true });
    execFileSync('git', ['index-pack', '--stdin', '--fix-thin'], {
      cwd: path.join(home, 'git'),
      env: { PATH: process.env['PATH'], GIT_DIR: path.join(home, 'git'), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' },
      input: thin,
    });
    expect(packs(home)).toHaveLength(2);
    // index-pack appends the thin pack's missing bases and leaves its deltas on them by id.
    const refDeltas = packs(home).map((p) => {
      const bytes = fs.readFileSync(p);
      return listing(home, p).filter((r) => parseEntryHeader(bytes.subarray(r.offset, r.offset + 32))!.code === 7).length;
    });
    expect(refDeltas.some((n) => n > 0)).toBe(true);
    await expectClean(home);
  });

  it('made by the seed script (fast-import) and after upkeep on it', async () => {
    const home = path.join(base, 'seeded');
    const dir = path.join(base, 'seeded-ws');
    await seedHistory({ home, dir, count: 600, files: 30 });
    const store = await openStore({ home });
    const id = (await store.workspace(dir)).meta.id;
    expect(packs(home).some((p) => listing(home, p).some((r) => r.depth > 0))).toBe(true);
    const first = await check(home, id);
    expect(first.damaged).toEqual([]);
    expect(first.clean).toBe(true);
    expect(first.checkpoints).toBe(600);
    expect((await upkeepIfDue(home, { force: true, niceness: 0 })).ran).toBe(true);
    expect(fsckClean(home)).toBe(true);
    expect((await check(home, id)).clean).toBe(true);
  });
});

describe('check on damaged delta-compressed stores: exactly the checkpoints that need a bad object', () => {
  async function expectDamaged(home: string, expected: string[], badObject: string | null): Promise<void> {
    expect(fsckClean(home)).toBe(false);
    const result = await check(home);
    expect(result.clean).toBe(false);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(refsOf(corpusHome, wsId).length);
    expect(result.damaged.map((d) => d.id).sort()).toEqual(expected);
    if (badObject) expect(result.bad_objects.map((o) => o.id)).toContain(badObject);
    const run = spawnSync(process.execPath, [CLI_PATH, 'check', '--workspace', corpusWs], { env: { ...process.env, CHRONOSCOPE_HOME: home }, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toMatch(new RegExp(`${expected.length} of \\d+ checkpoints? damaged`));
  }

  /**
   * A blob that some checkpoints need and most don't: a delta nothing is
   * built on, a base other deltas are built on, or a plain (whole) record.
   */
  function pick(rows: Row[], commits: string[], kind: 'delta' | 'base' | 'plain'): Row {
    const bases = new Set(rows.map((r) => r.base).filter(Boolean));
    for (const r of rows) {
      if (r.type !== 'blob' || r.inPack < 24) continue;
      if (kind === 'delta' ? r.depth === 0 || bases.has(r.oid) : kind === 'base' ? !bases.has(r.oid) : r.depth !== 0) continue;
      // A missing object's dependents are stored anew on other bases: only it is lost.
      const n = needing(commits, kind === 'plain' ? new Set([r.oid]) : withDependents(rows, [r.oid])).length;
      if (n > 0 && n < commits.length / 2) return r;
    }
    throw new Error('no such object in the corpus');
  }

  it('a flipped byte in a delta record', async () => {
    const { home, pack, rows } = repacked();
    const commits = refsOf(home, wsId);
    const victim = pick(rows, commits, 'delta');
    const expected = needing(commits, withDependents(rows, [victim.oid]));
    flip(pack, victim.offset + Math.floor(victim.inPack / 2));
    await expectDamaged(home, expected, victim.oid);
  });

  it('a flipped byte in the base other deltas are built on', async () => {
    const { home, pack, rows } = repacked();
    const commits = refsOf(home, wsId);
    const victim = pick(rows, commits, 'base');
    const bad = withDependents(rows, [victim.oid]);
    expect(bad.size).toBeGreaterThan(1);
    const expected = needing(commits, bad);
    flip(pack, victim.offset + Math.floor(victim.inPack / 2));
    await expectDamaged(home, expected, victim.oid);
  });

  it("a flipped byte in a pack index's offset table spoils that object alone; one in its CRC table spoils none", async () => {
    const { home, pack, rows } = repacked();
    const commits = refsOf(home, wsId);
    const idx = pack.replace(/\.pack$/, '.idx');
    const ids = git(home, ['show-index'], fs.readFileSync(idx)).split('\n').filter(Boolean).map((l) => l.split(' ')[1]!);
    const n = ids.length;
    // An object reached through the index (deltas find their bases by offset, so only it is lost).
    const victim = pick(rows, commits, 'delta');
    const position = ids.indexOf(victim.oid);
    expect(position).toBeGreaterThanOrEqual(0);
    const crcHome = copyOf(home);
    // v2 index: 8 header, 1024 fan-out, 20n ids, 4n CRCs, 4n offsets.
    flip(idx, 8 + 1024 + 24 * n + 4 * position + 3);
    await expectDamaged(home, needing(commits, new Set([victim.oid])), victim.oid);

    const crcIdx = path.join(crcHome, 'git', 'objects', 'pack', path.basename(idx));
    flip(crcIdx, 8 + 1024 + 20 * n + 4 * position + 1);
    expect(fsckClean(crcHome)).toBe(false);
    const result = await check(crcHome);
    expect(result.damaged).toEqual([]);
    expect(result.packs.map((p) => p.problem)).toEqual(['its index fails its own checksum']);
    expect(result.clean).toBe(false);
  });

  it('a pack cut short: the records past the cut and what is built on them', async () => {
    const { home, pack, rows } = repacked();
    const commits = refsOf(home, wsId);
    const inOrder = [...rows].sort((a, b) => a.offset - b.offset);
    // Cut inside a record three quarters in (keeping the trailer's 20 bytes inside that record).
    const cutAt = inOrder.slice(Math.floor(inOrder.length * 0.75)).find((r) => r.inPack >= 60)!;
    const lost = inOrder.filter((r) => r.offset >= cutAt.offset).map((r) => r.oid);
    const expected = needing(commits, withDependents(rows, lost));
    fs.truncateSync(pack, cutAt.offset + Math.floor(cutAt.inPack / 2));
    const result = await check(home);
    expect(result.packs.length).toBe(1);
    expect(result.damaged.map((d) => d.id).sort()).toEqual(expected);
    expect(fsckClean(home)).toBe(false);
  });

  it('a missing object', async () => {
    const { home, rows } = repacked();
    const commits = refsOf(home, wsId);
    const victim = pick(rows, commits, 'plain');
    const keep = rows.filter((r) => r.oid !== victim.oid).map((r) => r.oid);
    const pack = path.join(home, 'git', 'objects', 'pack');
    const old = packs(home);
    git(home, ['pack-objects', '-q', '--depth=50', '--window=50', path.join(pack, 'pack')], keep.join('\n') + '\n');
    for (const p of old) for (const ext of ['.pack', '.idx', '.rev']) fs.rmSync(p.replace(/\.pack$/, ext), { force: true });
    await expectDamaged(home, needing(commits, new Set([victim.oid])), victim.oid);
  });
});
