// Upkeep (engine/upkeep.ts): git's pack-objects delta-compresses the store on
// its own when due, with real git and real processes. The store must stay
// whole at every instant: git fsck --full clean and every checkpoint restoring
// byte for byte, after a full run and after SIGKILLs at different moments.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleAllIndexes, settlePackMerges } from '../../electron/engine/index.js';
import { checkStore } from '../../electron/engine/check.js';
import { storeLayout } from '../../electron/engine/layout/paths.js';
import { fsckStore, objectsFootprint, upkeepDue, upkeepIfDue } from '../../electron/engine/upkeep.js';
import { makeSandbox } from '../cli/run-cli.js';
import { CLI_PATH } from '../paths.js';
import { picture, sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const gitDir = (): string => path.join(s.storeHome, 'git');
const packDir = (): string => path.join(gitDir(), 'objects', 'pack');

/** A deterministic line of text that zlib alone cannot shrink much (deltas can). */
function line(seed: number): string {
  let x = (seed * 2654435761) >>> 0;
  let out = '';
  for (let i = 0; i < 12; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += x.toString(36);
  }
  return `${out}\n`;
}

function fileText(file: number, lines: number, salt = 0): string {
  let text = '';
  for (let i = 0; i < lines; i++) text += line(file * 100_000 + i + salt);
  return text;
}

/** `count` checkpoints of `files` files, each after a few files got one more line; returns id → picture. */
async function history(files: number, count: number, linesPerFile = 40): Promise<Map<string, Record<string, string>>> {
  for (let f = 0; f < files; f++) write(s.ws, `src/d${f % 7}/f${f}.txt`, fileText(f, linesPerFile));
  const pictures = new Map<string, Record<string, string>>();
  for (let round = 0; round < count; round++) {
    for (let k = 0; k < 3; k++) {
      const f = (round * 3 + k) % files;
      fs.appendFileSync(path.join(s.ws, `src/d${f % 7}/f${f}.txt`), line(round * 7 + k + 9_000_000));
    }
    const { id } = await s.workspace.snapshot({ reason: `round ${round}`, trigger: 'manual' });
    if (id === null) throw new Error(`round ${round} took no checkpoint`);
    pictures.set(id, picture(s.ws));
  }
  return pictures;
}

/** Polls `cond` every 2 ms; false if it did not hold within `limitMs`. */
async function waitFor(cond: () => boolean, limitMs: number): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (Date.now() < until) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 2));
  }
  return false;
}

async function expectRestoresByteIdentical(pictures: Map<string, Record<string, string>>, only?: number): Promise<void> {
  const ids = [...pictures.keys()];
  const chosen = only === undefined ? ids : [ids[0]!, ids[Math.floor(ids.length / 2)]!, ids[ids.length - 1]!].slice(0, only);
  for (const id of chosen) {
    await s.workspace.restore(id);
    expect(picture(s.ws)).toEqual(pictures.get(id));
  }
}

describe('upkeep', () => {
  it('shrinks a store of many small snapshots; fsck stays clean and every checkpoint restores byte-identical', async () => {
    const pictures = await history(60, 80);
    // The snapshots' background work (index syncs, pack joins) finishes first: the store must hold still to be measured.
    await settleAllIndexes();
    await settlePackMerges();
    // The engine read its packs before: its cached pack list must notice them go.
    const before = await objectsFootprint(gitDir());
    const result = await upkeepIfDue(s.storeHome, { force: true, niceness: 0 });
    expect(result.ran).toBe(true);
    expect(result.before).toEqual(before);
    expect(result.after.bytes).toBeLessThan(before.bytes * 0.5);
    expect(result.after.files).toBeLessThan(before.files);
    // One pack now (and its index), and no loose objects left beside it.
    expect(fs.readdirSync(packDir()).filter((n) => n.endsWith('.pack'))).toHaveLength(1);
    expect(await fsckStore(s.storeHome)).toBe('');
    await expectRestoresByteIdentical(pictures);
    // And the store takes snapshots as before.
    write(s.ws, 'after.txt', 'after upkeep\n');
    expect((await s.workspace.snapshot({ reason: 'after', trigger: 'manual' })).id).not.toBeNull();
    // Its pack join finishes first: one removing packs while fsck reads them is git's "packfile … cannot be accessed", not damage.
    await settleAllIndexes();
    await settlePackMerges();
    expect(await fsckStore(s.storeHome)).toBe('');
  });

  it('does nothing when not due: no pack written or removed, nothing loose touched', async () => {
    await history(10, 5, 10);
    const listing = (): string[] => fs.readdirSync(packDir()).sort();
    const packsBefore = listing();
    const check = await upkeepDue(s.storeHome);
    expect(check.due).toBe(false);
    const result = await upkeepIfDue(s.storeHome);
    expect(result).toMatchObject({ ran: false, reason: 'not due', packs_removed: 0 });
    expect(listing()).toEqual(packsBefore);
    expect(result.after).toEqual(result.before);
  });

  it('is due by its counts: many packs, or many objects since the last compression', async () => {
    await history(10, 6, 10);
    expect((await upkeepDue(s.storeHome)).due).toBe(false);
    expect((await upkeepDue(s.storeHome, { packLimit: 2 })).reason).toMatch(/packs/);
    // The first check took the store as it was as its baseline: what lands after it counts.
    await history(10, 3, 10);
    expect((await upkeepDue(s.storeHome, { newObjects: 5, growth: 0 })).reason).toMatch(/since the last compression/);
    const ran = await upkeepIfDue(s.storeHome, { newObjects: 5, growth: 0, niceness: 0 });
    expect(ran.ran).toBe(true);
    // The compression's pack is the new baseline: nothing new since.
    expect((await upkeepDue(s.storeHome, { newObjects: 5, growth: 0 })).due).toBe(false);
  });

  it("is due by bytes before git's counts: a middle-sized store written whole comes within 1.1x of git gc --prune=now", async () => {
    // A first look takes the first checkpoint as the baseline, as a CLI command or the app would.
    for (let f = 0; f < 200; f++) write(s.ws, `src/d${f % 20}/f${f}.txt`, fileText(f, 60));
    expect((await s.workspace.snapshot({ reason: 'first', trigger: 'manual' })).id).not.toBeNull();
    await settleAllIndexes();
    await settlePackMerges();
    expect((await upkeepDue(s.storeHome)).due).toBe(false);
    // Then 40 checkpoints of 20 edited files each: a few hundred objects, far from git's counts, but megabytes written whole.
    for (let round = 0; round < 40; round++) {
      for (let k = 0; k < 20; k++) {
        const f = (round * 20 + k) % 200;
        fs.appendFileSync(path.join(s.ws, `src/d${f % 20}/f${f}.txt`), line(round * 100 + k + 5_000_000));
      }
      expect((await s.workspace.snapshot({ reason: `round ${round}`, trigger: 'manual' })).id).not.toBeNull();
    }
    await settleAllIndexes();
    await settlePackMerges();
    const due = await upkeepDue(s.storeHome);
    expect(due.counts.packs).toBeLessThan(50);
    expect(due.counts.newObjects).toBeLessThan(10_000);
    expect(due.reason).toMatch(/written whole since the last compression/);
    expect((await upkeepIfDue(s.storeHome, { niceness: 0 })).ran).toBe(true);
    expect((await upkeepDue(s.storeHome)).due).toBe(false);
    // git's own compression of the same objects, on a copy.
    const copy = path.join(s.base, 'gc-copy.git');
    fs.cpSync(gitDir(), copy, { recursive: true });
    execFileSync('git', ['--git-dir', copy, 'gc', '--quiet', '--prune=now'], { env: { PATH: process.env['PATH'], GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' } });
    const ours = (await objectsFootprint(gitDir())).bytes;
    const git = (await objectsFootprint(copy)).bytes;
    expect(ours / git).toBeLessThanOrEqual(1.1);
    expect(await fsckStore(s.storeHome)).toBe('');
  });

  it('rolls up only what is new after a full compression: the full pack stays byte for byte, the new objects get deltas', async () => {
    const pictures = await history(300, 20);
    await settleAllIndexes();
    await settlePackMerges();
    const full = await upkeepIfDue(s.storeHome, { force: true, niceness: 0 });
    expect(full).toMatchObject({ ran: true, kind: 'full' });
    const packs = (): string[] => fs.readdirSync(packDir()).filter((n) => n.endsWith('.pack')).sort();
    const [fullPack] = packs();
    expect(packs()).toEqual([fullPack]);
    const fullBytes = fs.readFileSync(path.join(packDir(), fullPack!));
    const fullStat = fs.statSync(path.join(packDir(), fullPack!));
    // New snapshots: their packs are written whole.
    for (const [id, p] of await history(300, 12)) pictures.set(id, p);
    await settleAllIndexes();
    await settlePackMerges();
    const whole = packs().filter((n) => n !== fullPack);
    expect(whole.length).toBeGreaterThan(0);
    const wholeBytes = whole.reduce((n, name) => n + fs.statSync(path.join(packDir(), name)).size, 0);
    // Due by bytes at once; what came after is small beside the full pack: a roll, not a full run.
    const roll = await upkeepIfDue(s.storeHome, { newBytes: 1, bytesGrowth: 0, niceness: 0, roll: { smallStoreBytes: 0 } });
    expect(roll, roll.reason).toMatchObject({ ran: true, kind: 'roll' });
    // The full pack was not rewritten: same name, same bytes, same file (not replaced; git may touch its mtime to freshen it).
    expect(packs()).toContain(fullPack);
    expect(fs.readFileSync(path.join(packDir(), fullPack!)).equals(fullBytes)).toBe(true);
    expect(fs.statSync(path.join(packDir(), fullPack!)).ino).toBe(fullStat.ino);
    // The whole packs are gone, one new pack holds their objects, with deltas and smaller.
    const after = packs();
    expect(after).toHaveLength(2);
    for (const name of whole) expect(after).not.toContain(name);
    const rolled = after.find((n) => n !== fullPack)!;
    expect(fs.statSync(path.join(packDir(), rolled)).size).toBeLessThan(wholeBytes * 0.6);
    const verify = execFileSync('git', ['verify-pack', '-v', path.join(packDir(), rolled.replace(/\.pack$/, '.idx'))], { encoding: 'utf8' });
    expect(verify).toMatch(/chain length = 1: \d+ objects?/);
    // Its objects are only the new ones: none of the full pack's is copied.
    const ids = (name: string): Set<string> =>
      new Set(execFileSync('git', ['show-index'], { input: fs.readFileSync(path.join(packDir(), name.replace(/\.pack$/, '.idx'))), encoding: 'utf8' }).split('\n').filter(Boolean).map((l) => l.split(' ')[1]!));
    const inFull = ids(fullPack!);
    expect([...ids(rolled)].filter((id) => inFull.has(id))).toEqual([]);
    expect(await fsckStore(s.storeHome)).toBe('');
    const checked = await checkStore(storeLayout(s.storeHome), null);
    expect(checked.damaged).toEqual([]);
    expect(checked.bad_objects).toEqual([]);
    expect(checked.packs).toEqual([]);
    expect(checked.clean).toBe(true);
    // Nothing new since: not due.
    expect((await upkeepDue(s.storeHome, { newBytes: 1, bytesGrowth: 0 })).due).toBe(false);
    await expectRestoresByteIdentical(pictures, 3);
    // A forced run (Compact now) compresses everything anew into one pack.
    expect(await upkeepIfDue(s.storeHome, { force: true, niceness: 0 })).toMatchObject({ ran: true, kind: 'full' });
    expect(packs()).toHaveLength(1);
    expect(await fsckStore(s.storeHome)).toBe('');
  });

  it('when quiet, compresses whole what rolls and whole packs left beside the full pack (issue 39: rolls started by CLI processes, then the service)', async () => {
    const sizes = async (): Promise<{ ours: number; git: number }> => {
      const copy = path.join(s.base, `gc-copy-${Date.now()}.git`);
      fs.cpSync(gitDir(), copy, { recursive: true });
      execFileSync('git', ['--git-dir', copy, 'gc', '--quiet', '--prune=now'], { env: { PATH: process.env['PATH'], GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' } });
      const out = { ours: (await objectsFootprint(gitDir())).bytes, git: (await objectsFootprint(copy)).bytes };
      fs.rmSync(copy, { recursive: true, force: true });
      return out;
    };
    const packs = (): string[] => fs.readdirSync(packDir()).filter((n) => n.endsWith('.pack'));
    let salt = 0;
    /** Snapshots each of 12 files given a line no earlier snapshot had. */
    const edits = async (rounds: number): Promise<void> => {
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < 12; k++) {
          const f = (salt * 12 + k) % 300;
          fs.appendFileSync(path.join(s.ws, `src/d${f % 7}/f${f}.txt`), line(20_000_000 + salt * 100 + k));
        }
        salt += 1;
        expect((await s.workspace.snapshot({ reason: `edit ${salt}`, trigger: 'manual' })).id).not.toBeNull();
      }
      await settleAllIndexes();
      await settlePackMerges();
    };
    await history(300, 10, 400);
    await settleAllIndexes();
    await settlePackMerges();
    expect(await upkeepIfDue(s.storeHome, { force: true, niceness: 0 })).toMatchObject({ ran: true, kind: 'full' });
    // Rolls, as background upkeeps started by CLI snapshots leave them: each small beside the full pack.
    for (let i = 0; i < 4; i++) {
      await edits(4);
      const roll = await upkeepIfDue(s.storeHome, { newBytes: 1, bytesGrowth: 0, niceness: 0, roll: { smallStoreBytes: 0, factor: 0, fullGrowth: 10 } });
      expect(roll, roll.reason).toMatchObject({ ran: true, kind: 'roll' });
    }
    // …and a few snapshots after the last roll, below the routine byte rule.
    await edits(2);
    expect(packs().length).toBeGreaterThan(4);
    expect((await upkeepDue(s.storeHome)).due).toBe(false);
    const before = await sizes();
    expect(before.ours / before.git).toBeGreaterThan(1.2);
    // The service's quiet pass: due by the quiet rule, a full run, one pack, within 1.2x of git gc.
    const quiet = await upkeepIfDue(s.storeHome, { niceness: 0, quiet: true });
    expect(quiet, quiet.reason).toMatchObject({ ran: true, kind: 'full' });
    expect(quiet.reason).toMatch(/quiet/);
    expect(packs()).toHaveLength(1);
    const after = await sizes();
    expect(after.ours).toBeLessThan(before.ours);
    expect(after.ours / after.git).toBeLessThanOrEqual(1.2);
    // Then it rests: nothing beside the full pack.
    expect((await upkeepDue(s.storeHome, {}, true)).due).toBe(false);
    expect(await fsckStore(s.storeHome)).toBe('');
  });

  it('lets snapshots (and their pack joins) go on while it runs in another process, and loses none of them', async () => {
    const earlier = await history(400, 40, 60);
    const pictures = new Map([...earlier].slice(0, 2));
    const child = spawn(process.execPath, [CLI_PATH, 'upkeep', '--force', '--json'], { env: { ...process.env, CHRONOSCOPE_HOME: s.storeHome }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let duringUpkeep = 0;
    for (let round = 0; round < 30; round++) {
      const f = (round * 11) % 400;
      fs.appendFileSync(path.join(s.ws, `src/d${f % 7}/f${f}.txt`), line(round + 7_000_000));
      const { id } = await s.workspace.snapshot({ reason: `during ${round}`, trigger: 'manual' });
      if (id === null) throw new Error('no checkpoint');
      pictures.set(id, picture(s.ws));
      if (child.exitCode === null) duringUpkeep += 1;
    }
    expect(await exited, out).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ ran: true });
    // Snapshots were not held up by it: some finished while it ran.
    expect(duringUpkeep).toBeGreaterThan(0);
    // This process's own pack joins finish first: one removing its old packs while fsck reads
    // them is git's "packfile … cannot be accessed", not lost data (it failed so in a loaded run).
    await settleAllIndexes();
    await settlePackMerges();
    expect(await fsckStore(s.storeHome)).toBe('');
    // Those taken while it ran (their objects were in flight as git packed), and two from before.
    await expectRestoresByteIdentical(pictures);
  });

  it('loses nothing when the upkeep process is SIGKILLed at different moments', async () => {
    const pictures = await history(400, 120, 60);
    // This process's own pack joins and index syncs finish first: a join removing its old packs
    // while fsck reads them is git's 'index not opened', not a kill's damage.
    await settleAllIndexes();
    await settlePackMerges();
    const cliUpkeep = (): ReturnType<typeof spawn> =>
      // Its own process group: the kill takes git's children with it, mid-write.
      spawn(process.execPath, [CLI_PATH, 'upkeep', '--force'], {
        env: { ...process.env, CHRONOSCOPE_HOME: s.storeHome },
        stdio: 'ignore',
        detached: true,
      });
    const packNames = (): string[] => fs.readdirSync(packDir());
    // Moments: while node starts, while git writes its temporary pack, right after the new
    // pack is named (before the old ones go), and at spread delays.
    const initial = new Set(packNames());
    const moments: Array<{ what: string; when: () => Promise<unknown> }> = [
      { what: 'at 20 ms', when: () => new Promise((r) => setTimeout(r, 20)) },
      { what: 'while git writes its temporary pack', when: () => waitFor(() => packNames().some((n) => n.startsWith('tmp_pack_')), 20_000) },
      { what: 'once a new pack is named', when: () => waitFor(() => packNames().some((n) => n.endsWith('.idx') && !initial.has(n)), 20_000) },
      { what: 'at 400 ms', when: () => new Promise((r) => setTimeout(r, 400)) },
      { what: 'at 900 ms', when: () => new Promise((r) => setTimeout(r, 900)) },
      { what: `at ${300 + Math.floor(Math.random() * 1200)} ms`, when: () => new Promise((r) => setTimeout(r, 300 + Math.floor(Math.random() * 1200))) },
    ];
    let hits = 0;
    for (const moment of moments) {
      const child = cliUpkeep();
      const exited = new Promise((r) => child.on('exit', r));
      await moment.when();
      if (child.exitCode === null && child.signalCode === null) hits += 1;
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        /* it finished first */
      }
      await exited;
      await new Promise((r) => setTimeout(r, 50));
      expect(await fsckStore(s.storeHome), `fsck after a kill ${moment.what}`).toBe('');
      for (const name of packNames()) initial.add(name);
    }
    // Most kills landed while the upkeep ran (a fast one may finish before a late kill).
    expect(hits).toBeGreaterThanOrEqual(4);
    // Every checkpoint restores as it was; a snapshot works; a whole run still completes.
    await expectRestoresByteIdentical(pictures, 3);
    for (const [id, expected] of [...pictures].filter((_, i) => i % 10 === 0)) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-upkeep-m-'));
      try {
        await s.workspace.materialize(id, dir);
        expect(picture(dir)).toEqual(expected);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    write(s.ws, 'after-kills.txt', 'x\n');
    expect((await s.workspace.snapshot({ reason: 'after kills', trigger: 'manual' })).id).not.toBeNull();
    expect((await upkeepIfDue(s.storeHome, { force: true, niceness: 0 })).ran).toBe(true);
    expect(await fsckStore(s.storeHome)).toBe('');
    await expectRestoresByteIdentical(pictures, 3);
  });

  it('loses nothing when a roll is SIGKILLed at different moments, and never touches the full pack', async () => {
    const pictures = await history(400, 60, 60);
    await settleAllIndexes();
    await settlePackMerges();
    expect(await upkeepIfDue(s.storeHome, { force: true, niceness: 0 })).toMatchObject({ ran: true, kind: 'full' });
    const packNames = (): string[] => fs.readdirSync(packDir());
    const fullPack = packNames().find((n) => n.endsWith('.pack'))!;
    const fullBytes = fs.readFileSync(path.join(packDir(), fullPack));
    // A roll in a process of its own (the built engine: the CLI's `upkeep` of a store this small runs in full).
    const upkeepModule = path.join(path.dirname(CLI_PATH), '..', 'engine', 'upkeep.js');
    const script = `const { upkeepIfDue } = await import(process.argv[1]);
      const run = await upkeepIfDue(process.argv[2], { newBytes: 1, bytesGrowth: 0, niceness: 0, roll: { smallStoreBytes: 0, fullGrowth: 100 } });
      process.stdout.write(JSON.stringify(run));`;
    const rollProcess = (): ReturnType<typeof spawn> =>
      spawn(process.execPath, ['--input-type=module', '-e', script, upkeepModule, s.storeHome], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    let round = 0;
    /** Something new to roll: snapshots written whole, as between two pauses. */
    const takeMore = async (n: number): Promise<void> => {
      for (let k = 0; k < n; k++, round++) {
        const f = (round * 13) % 400;
        fs.appendFileSync(path.join(s.ws, `src/d${f % 7}/f${f}.txt`), line(round + 8_000_000));
        const { id } = await s.workspace.snapshot({ reason: `before kill ${round}`, trigger: 'manual' });
        if (id === null) throw new Error('no checkpoint');
        pictures.set(id, picture(s.ws));
      }
      await settleAllIndexes();
      await settlePackMerges();
    };
    const moments: Array<{ what: string; when: (before: Set<string>) => Promise<unknown> }> = [
      { what: 'at 30 ms', when: () => new Promise((r) => setTimeout(r, 30)) },
      { what: 'while git writes its temporary pack', when: () => waitFor(() => packNames().some((n) => n.startsWith('tmp_pack_')), 20_000) },
      { what: 'once the rolled pack is named', when: (before) => waitFor(() => packNames().some((n) => n.endsWith('.idx') && !before.has(n)), 20_000) },
      { what: 'at 250 ms', when: () => new Promise((r) => setTimeout(r, 250)) },
      { what: 'at 600 ms', when: () => new Promise((r) => setTimeout(r, 600)) },
    ];
    let hits = 0;
    for (const moment of moments) {
      await takeMore(15);
      const before = new Set(packNames());
      const child = rollProcess();
      const exited = new Promise((r) => child.on('exit', r));
      await moment.when(before);
      if (child.exitCode === null && child.signalCode === null) hits += 1;
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        /* it finished first */
      }
      await exited;
      expect(await fsckStore(s.storeHome), `fsck after a kill ${moment.what}`).toBe('');
      expect(fs.readFileSync(path.join(packDir(), fullPack)).equals(fullBytes), `the full pack after a kill ${moment.what}`).toBe(true);
    }
    expect(hits).toBeGreaterThanOrEqual(3);
    // A roll run to its end afterwards works (the last kill may have come after its roll), and everything restores as it was.
    await takeMore(5);
    expect(await upkeepIfDue(s.storeHome, { newBytes: 1, bytesGrowth: 0, niceness: 0, roll: { smallStoreBytes: 0, fullGrowth: 100 } })).toMatchObject({ ran: true, kind: 'roll' });
    expect(await fsckStore(s.storeHome)).toBe('');
    expect((await checkStore(storeLayout(s.storeHome), null)).clean).toBe(true);
    const ids = [...pictures.keys()];
    await expectRestoresByteIdentical(new Map(ids.filter((_, i) => i % 12 === 0 || i === ids.length - 1).map((id) => [id, pictures.get(id)!])));
  });

  it('starts on its own, detached, after a CLI snapshot once due (and not before)', async () => {
    const sb = makeSandbox();
    try {
      fs.writeFileSync(path.join(sb.workspace, 'a.txt'), 'a\n');
      expect(sb.cli(['snapshot']).code).toBe(0);
      // The first check took the store as it was as the baseline.
      const stateFile = path.join(sb.home, 'upkeep.json');
      const baseline = fs.readFileSync(stateFile, 'utf8');
      // About 10,000 loose objects land (git's gc.auto threshold is 6,700), written by git itself.
      const blobs = path.join(sb.home, '..', 'blobs');
      fs.mkdirSync(blobs);
      const names: string[] = [];
      for (let i = 0; i < 10_000; i++) {
        names.push(path.join(blobs, `b${i}`));
        fs.writeFileSync(names[names.length - 1]!, `blob ${i}\n`);
      }
      const gitEnv = { ...process.env, GIT_DIR: path.join(sb.home, 'git') };
      execFileSync('git', ['hash-object', '-w', '--stdin-paths'], { input: names.join('\n'), env: gitEnv, maxBuffer: 1 << 24 });
      const loose17 = (): number => fs.readdirSync(path.join(sb.home, 'git', 'objects', '17')).length;
      expect(loose17()).toBeGreaterThanOrEqual(27);
      // A command that writes nothing new starts nothing (list is not one of them).
      expect(sb.cli(['list']).code).toBe(0);
      await new Promise((r) => setTimeout(r, 500));
      expect(loose17()).toBeGreaterThanOrEqual(27);
      // Turned off in the settings: a due store is left alone.
      fs.writeFileSync(path.join(sb.home, 'config.json'), JSON.stringify({ upkeep: false }));
      fs.writeFileSync(path.join(sb.workspace, 'a.txt'), 'c\n');
      expect(sb.cli(['snapshot']).code).toBe(0);
      await new Promise((r) => setTimeout(r, 1500));
      expect(loose17()).toBeGreaterThanOrEqual(27);
      expect(fs.readFileSync(stateFile, 'utf8')).toBe(baseline);
      fs.rmSync(path.join(sb.home, 'config.json'));
      fs.writeFileSync(path.join(sb.workspace, 'a.txt'), 'b\n');
      const started = Date.now();
      expect(sb.cli(['snapshot']).code).toBe(0);
      // The snapshot returned at once; the upkeep it started packs the loose objects in the background.
      const lockDir = path.join(sb.home, 'upkeep.lock.lock');
      const until = Date.now() + 90_000;
      while (Date.now() < until && (fs.readFileSync(stateFile, 'utf8') === baseline || fs.existsSync(lockDir))) await new Promise((r) => setTimeout(r, 100));
      expect(fs.readFileSync(stateFile, 'utf8')).not.toBe(baseline);
      expect(fs.existsSync(path.join(sb.home, 'git', 'objects', '17')) ? loose17() : 0).toBe(0);
      expect(Date.now() - started).toBeLessThan(90_000);
      expect(await fsckStore(sb.home)).toBe('');
    } finally {
      sb.cleanup();
    }
  });
});
