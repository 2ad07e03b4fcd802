// The newest few checkpoints are read in Node (list.ts): git's listing would
// read every ref file of the workspace and, to sort them, every commit (on
// 10,000 checkpoints ~250 ms for the latest one alone, paid by every hook
// call that changed nothing). A fresh process (nothing cached) lists them
// with no `for-each-ref` and shows exactly what git's listing shows; a newest
// commit Node cannot read still goes to git, and is listed as damaged.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { pathToFileURL } from 'node:url';
import { runCli } from '../agents/run-cli.js';
import { loggedGit } from './logged-git.js';
import { REPO_ROOT } from '../paths.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
let env: NodeJS.ProcessEnv;
let log: string;
let gitCommands: () => string[];

beforeEach(async () => {
  s = await sandbox();
  ({ env, log, commands: gitCommands } = loggedGit(s));
});
afterEach(() => s.cleanup());

async function list(args: string[]): Promise<Checkpoint[]> {
  const r = await runCli(['list', '--json', '-w', s.ws, ...args], { env });
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Checkpoint[];
}

/** A checkpoint's ref name, as git has it. */
function refOf(id: string): string {
  const line = storeGit(s.storeHome, ['for-each-ref', '--format=%(objectname) %(refname)', 'refs/chronoscope/']).split('\n').find((l) => l.startsWith(`${id} `));
  if (!line) throw new Error(`no ref for ${id}`);
  return line.slice(41);
}

describe('listing the newest checkpoints', () => {
  it('reads them in Node, with no for-each-ref, exactly as git lists them', async () => {
    // More than Node reads (200): the whole listing below is git's, the reference.
    for (let i = 1; i <= 205; i++) {
      write(s.ws, 'a.txt', `${i}\n`);
      if (i % 10 === 0) write(s.ws, `f-${i}.txt`, `${i}\n`);
      if ((await s.workspace.snapshot({ reason: `wrote ${i}` })).id === null) throw new Error('no checkpoint');
    }
    await s.workspace.pin((await s.workspace.list({ limit: 2 }))[1]!.id, true);
    const all = await list(['--all']);
    expect(all).toHaveLength(205);
    expect(gitCommands().some((c) => c.includes('for-each-ref')), 'the whole listing is git’s').toBe(true);
    fs.rmSync(log);

    const newest = await list(['--limit', '3']);
    expect(gitCommands().filter((c) => c.includes('for-each-ref'))).toEqual([]);
    expect(newest).toEqual(all.slice(0, 3));
    expect(newest.map((c) => [c.reason, c.pinned])).toEqual([
      ['wrote 205', false],
      ['wrote 204', true],
      ['wrote 203', false],
    ]);
  });

  it('lists the whole after a first page by the prefix, not by naming each ref it has not read (git matches every ref against every name)', async () => {
    // More than Node reads after the first page (200).
    for (let i = 1; i <= 210; i++) {
      write(s.ws, 'a.txt', `${i}\n`);
      if ((await s.workspace.snapshot({ reason: `wrote ${i}` })).id === null) throw new Error('no checkpoint');
    }
    const expected = await list(['--all']);
    fs.rmSync(log);
    // As the app does for its first page: the newest 200 (here 3), then the whole list, in one process.
    const engine = pathToFileURL(path.join(REPO_ROOT, 'dist', 'electron', 'engine', 'index.js')).href;
    const script = `const { openStore } = await import(${JSON.stringify(engine)}); const ws = await (await openStore({ home: ${JSON.stringify(s.storeHome)} })).workspace(${JSON.stringify(s.ws)}); const page = await ws.list({ limit: 3 }); const all = await ws.list(); process.stdout.write(JSON.stringify([page.length, all.map((c) => c.id)]));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
    const [pageLength, ids] = JSON.parse(out) as [number, string[]];
    expect(pageLength).toBe(3);
    expect(ids).toEqual(expected.map((c) => c.id));
    const listings = gitCommands().filter((c) => c.includes('for-each-ref'));
    expect(listings.length).toBeGreaterThan(0);
    for (const c of listings) expect(c.split(' ').filter((a) => a.startsWith('refs/chronoscope/')).length, c.slice(0, 200)).toBeLessThanOrEqual(1);
  });

  it("shows the newest checkpoint's change without listing them all: its previous is the ref just before it", async () => {
    for (let i = 1; i <= 80; i++) {
      write(s.ws, 'a.txt', `${i}\n`);
      if (i === 80) write(s.ws, 'b.txt', 'new\n');
      if ((await s.workspace.snapshot({ reason: `wrote ${i}` })).id === null) throw new Error('no checkpoint');
    }
    fs.rmSync(log, { force: true });
    const r = await runCli(['show', '1', '--json', '-w', s.ws], { env });
    expect(r.code, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as { files: { path: string }[] };
    expect(shown.files.map((f) => f.path).sort()).toEqual(['a.txt', 'b.txt']);
    // (Its words read a page of the newest, `--count=200`: never the whole listing.)
    const whole = gitCommands().filter((c) => c.includes('for-each-ref') && !c.includes('--count='));
    expect(whole.map((c) => c.replace(/-c \S+ /g, '').slice(0, 300)), 'no listing of all 80').toEqual([]);
  });

  it('leaves a newest commit it cannot read to git, which lists it as damaged', async () => {
    write(s.ws, 'a.txt', 'one\n');
    const first = await s.workspace.snapshot({ reason: 'one' });
    if (first.id === null) throw new Error('no checkpoint');
    // A newer ref naming a commit that is not in the store (what a lost object leaves).
    const dir = path.dirname(path.join(s.storeHome, 'git', refOf(first.id)));
    const missing = '1234567890abcdef1234567890abcdef12345678';
    fs.writeFileSync(path.join(dir, '9999999999999-0000'), `${missing}\n`);
    const listed = await list(['--limit', '2']);
    expect(listed.map((c) => [c.id, c.damaged === true])).toEqual([
      [missing, true],
      [first.id, false],
    ]);
    expect(gitCommands().some((c) => c.includes('for-each-ref'))).toBe(true);
  });
});
