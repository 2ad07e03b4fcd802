// Upkeep packs the checkpoint refs into packed-refs (refs/pack-refs.ts), as
// git gc does: 100,000 loose ref files made every listing pay per file. Every
// reader must then find them there: list, status, show, restore, a deletion
// through git (as retention removes refs) and the check — each answered in a
// fresh CLI process (nothing cached) the same before and after packing. The
// newest page and status are read in Node from packed-refs, with no git
// listing (a reader that looked only at loose ref files would fall back to
// git's for-each-ref, or miscount).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { upkeepIfDue } from '../../electron/engine/upkeep.js';
import { runCli } from '../agents/run-cli.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';
import { loggedGit } from './logged-git.js';

let s: Sandbox;
let log: string;
let env: NodeJS.ProcessEnv;
let gitLog: () => string[];

beforeEach(async () => {
  s = await sandbox();
  ({ env, log, commands: gitLog } = loggedGit(s));
});
afterEach(() => s.cleanup());

async function cli(args: string[]): Promise<string> {
  const r = await runCli([...args, '-w', s.ws], { env });
  if (r.code !== 0) throw new Error(`${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** `list --all --json`, printed an element at a time: the same bytes JSON.stringify(…, null, 2) gives. */
async function listAll(): Promise<Checkpoint[]> {
  const out = await cli(['list', '--all', '--json']);
  const parsed = JSON.parse(out) as Checkpoint[];
  expect(out).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  return parsed;
}
const listPage = async (n: number): Promise<Checkpoint[]> => JSON.parse(await cli(['list', '-n', String(n), '--json'])) as Checkpoint[];

/** status --json without the store's byte count (packing refs changes the store's size, not its answer). */
async function status(): Promise<unknown> {
  const out = JSON.parse(await cli(['status', '--json'])) as { store?: { bytes?: number } };
  if (out.store) delete out.store.bytes;
  return out;
}

async function show(id: string): Promise<unknown> {
  return JSON.parse(await cli(['show', id, '--json']));
}

function looseRefFiles(): string[] {
  const base = path.join(s.storeHome, 'git', 'refs', 'chronoscope');
  if (!fs.existsSync(base)) return [];
  return fs.readdirSync(base).flatMap((id) => {
    const cp = path.join(base, id, 'cp');
    return fs.existsSync(cp) ? fs.readdirSync(cp) : [];
  });
}

async function history(n: number): Promise<void> {
  for (let i = 1; i <= n; i++) {
    write(s.ws, 'a.txt', `version ${i}\n`);
    if (i % 5 === 0) write(s.ws, `dir/f-${i}.txt`, `${i}\n`);
    if ((await s.workspace.snapshot({ reason: `wrote ${i}` })).id === null) throw new Error('no checkpoint');
  }
}

describe('checkpoint refs packed by upkeep', () => {
  it('are packed when many are loose, and every reader answers the same after', async () => {
    await history(30);
    const all = await listAll();
    expect(all).toHaveLength(30);
    await s.workspace.pin(all[7]!.id, true);
    const before = { all: await listAll(), page: await listPage(5), status: await status(), shown: await show(all[10]!.id), newest: await show('1') };
    expect(looseRefFiles()).toHaveLength(30);

    // Due by refs alone (the objects of so small a store are not).
    const run = await upkeepIfDue(s.storeHome, { looseRefs: 10, niceness: 0 });
    expect(run.ran).toBe(true);
    expect(run.refs_packed).toBe(30);
    expect(looseRefFiles()).toEqual([]);
    const packed = fs.readFileSync(path.join(s.storeHome, 'git', 'packed-refs'), 'utf8');
    for (const c of all) expect(packed).toContain(`${c.id} refs/chronoscope/`);

    fs.rmSync(log, { force: true });
    // The newest page and status read packed-refs in Node: no git listing.
    expect(await listPage(5)).toEqual(before.page);
    expect(await status()).toEqual(before.status);
    expect(gitLog().filter((c) => c.includes('for-each-ref'))).toEqual([]);
    expect(await listAll()).toEqual(before.all);
    expect(await show(all[10]!.id)).toEqual(before.shown);
    expect(await show('1')).toEqual(before.newest);
    expect((await runCli(['check', '-w', s.ws], { env })).code).toBe(0);

    // A restore by the id of a packed checkpoint: the files come back, and its safety checkpoint is new and loose.
    await cli(['restore', all[20]!.id, '--yes']);
    expect(fs.readFileSync(path.join(s.ws, 'a.txt'), 'utf8')).toBe('version 10\n');
    expect(fs.existsSync(path.join(s.ws, 'dir', 'f-15.txt'))).toBe(false);
    const after = await listAll();
    expect(after.length).toBeGreaterThan(30);
    expect(after.slice(after.length - 30)).toEqual(before.all);
    expect(looseRefFiles().length).toBe(after.length - 30);
  });

  it('a packed ref deleted through git (as retention removes refs) is gone for every reader; a new snapshot is the latest', async () => {
    await history(12);
    const all = await listAll();
    await upkeepIfDue(s.storeHome, { looseRefs: 1, niceness: 0 });
    expect(looseRefFiles()).toEqual([]);
    const gone = [all[0]!, all[5]!];
    const refs = storeGit(s.storeHome, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/chronoscope/']).split('\n');
    const input = gone.map((c) => `delete ${refs.find((l) => l.startsWith(`${c.id} `))!.slice(41)} ${c.id}\n`).join('');
    execFileSync('git', ['--git-dir', path.join(s.storeHome, 'git'), 'update-ref', '--stdin'], { input });

    const expected = all.filter((c) => !gone.includes(c));
    expect((await listAll()).map((c) => c.id)).toEqual(expected.map((c) => c.id));
    const st = (await status()) as { checkpoints: number; latest: Checkpoint };
    expect(st.checkpoints).toBe(10);
    expect(st.latest.id).toBe(all[1]!.id);
    expect((await runCli(['show', gone[1]!.id, '--json', '-w', s.ws], { env })).code).not.toBe(0);
    expect((await runCli(['check', '-w', s.ws], { env })).code).toBe(0);

    // The next snapshot builds on the newest packed ref left, and is listed first.
    write(s.ws, 'a.txt', 'after the deletion\n');
    const next = await s.workspace.snapshot({ reason: 'after' });
    expect(next.id).not.toBeNull();
    const listed = await listPage(3);
    expect(listed.map((c) => c.id)).toEqual([next.id, all[1]!.id, all[2]!.id]);
    expect(((await status()) as { checkpoints: number }).checkpoints).toBe(11);
  });

  it('status answers the same for loose, packed and half-packed refs (a snapshot after packing)', async () => {
    await history(8);
    const loose = await status();
    await upkeepIfDue(s.storeHome, { looseRefs: 1, niceness: 0 });
    expect(await status()).toEqual(loose);
    write(s.ws, 'a.txt', 'one more\n');
    await s.workspace.snapshot({ reason: 'one more' });
    const half = (await status()) as { checkpoints: number; latest: Checkpoint };
    expect(half.checkpoints).toBe(9);
    expect(half.latest.reason).toBe('one more');
    expect(looseRefFiles()).toHaveLength(1);
  });
});
