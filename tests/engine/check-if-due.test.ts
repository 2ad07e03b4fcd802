// checkIfDue, the app's idle check: at most once per interval per workspace,
// cancellable (nothing recorded then), waiting while a writer holds the
// workspace's lock, and its findings marked in list.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkIfDue } from '../../electron/engine/check.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox | undefined;
afterEach(() => s?.cleanup());

const DAY = 24 * 60 * 60 * 1000;

async function two(box: Sandbox): Promise<string[]> {
  write(box.ws, 'a.txt', 'one\n');
  const first = (await box.workspace.snapshot()).id as string;
  write(box.ws, 'sub/b.txt', 'two\n');
  const second = (await box.workspace.snapshot()).id as string;
  return [first, second];
}

/** Every object loose, so one can be taken away. */
function unpackAll(storeHome: string): void {
  const packDir = path.join(storeHome, 'git', 'objects', 'pack');
  for (const name of fs.readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
    const moved = path.join(storeHome, name);
    fs.renameSync(path.join(packDir, name), moved);
    fs.rmSync(path.join(packDir, name.replace(/\.pack$/, '.idx')));
    execFileSync('git', ['--git-dir', path.join(storeHome, 'git'), 'unpack-objects', '-q'], { input: fs.readFileSync(moved) });
    fs.rmSync(moved);
  }
}

const recordFile = (box: Sandbox): string => path.join(box.storeHome, 'workspaces', box.workspace.meta.id, 'check.json');

describe('checkIfDue', () => {
  it('runs once, then not again within the interval; again after it', async () => {
    s = await sandbox();
    await two(s);
    const now = Date.now();
    const first = await checkIfDue(s.store, s.workspace, { now });
    expect(first.ran).toBe(true);
    if (first.ran) expect(first.result).toMatchObject({ clean: true, checkpoints: 2 });
    expect(fs.existsSync(recordFile(s))).toBe(true);
    const soon = await checkIfDue(s.store, s.workspace, { now: now + DAY / 2 });
    expect(soon).toMatchObject({ ran: false, why: 'not due' });
    const later = await checkIfDue(s.store, s.workspace, { now: now + DAY + 60_000 });
    expect(later.ran).toBe(true);
    expect(await checkIfDue(s.store, s.workspace, { now: now + 2 * DAY, minIntervalMs: 3 * DAY })).toMatchObject({ ran: false, why: 'not due' });
  });

  it('a cancelled check records nothing and is due again', async () => {
    s = await sandbox();
    await two(s);
    const controller = new AbortController();
    controller.abort();
    expect(await checkIfDue(s.store, s.workspace, { signal: controller.signal })).toMatchObject({ ran: false, why: 'cancelled' });
    expect(fs.existsSync(recordFile(s))).toBe(false);
    expect((await checkIfDue(s.store, s.workspace)).ran).toBe(true);
  });

  it('waits while a writer holds the workspace lock, then runs', async () => {
    s = await sandbox();
    await two(s);
    // proper-lockfile's lock: a folder beside the target, as a snapshot in progress leaves it.
    const lock = path.join(s.storeHome, 'workspaces', s.workspace.meta.id, 'writer.lock.lock');
    fs.mkdirSync(lock);
    let done = false;
    const run = checkIfDue(s.store, s.workspace).then((r) => {
      done = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(done).toBe(false);
    expect(fs.existsSync(recordFile(s))).toBe(false);
    fs.rmdirSync(lock);
    expect((await run).ran).toBe(true);
  });

  it('finds a missing blob, names the checkpoint and path, and list marks it', async () => {
    s = await sandbox();
    const [first, second] = await two(s);
    unpackAll(s.storeHome);
    const blob = storeGit(s.storeHome, ['rev-parse', `${second}:sub/b.txt`]).trim();
    const loose = path.join(s.storeHome, 'git', 'objects', blob.slice(0, 2), blob.slice(2));
    expect(fs.existsSync(loose)).toBe(true);
    fs.rmSync(loose);
    const outcome = await checkIfDue(s.store, s.workspace);
    expect(outcome.ran).toBe(true);
    if (!outcome.ran) return;
    expect(outcome.result.clean).toBe(false);
    expect(outcome.result.damaged.map((d) => [d.id, d.lost])).toEqual([[second, ['sub/b.txt']]]);
    const listed = await s.workspace.list();
    expect(listed.map((c) => [c.id, c.damaged === true])).toEqual([
      [second, true],
      [first, false],
    ]);
  });
});

describe("an older checker's record", () => {
  // Before checker 2, delta-compressed packs were misread and sound checkpoints
  // recorded as damaged: such a record must mark nothing and be checked again.
  it('marks nothing, and the next idle check runs at once and writes a true record', async () => {
    s = await sandbox();
    const [first, second] = await two(s);
    const now = Date.now();
    fs.writeFileSync(recordFile(s), JSON.stringify({ v: 1, started_ms: now - 1000, finished_ms: now - 900, checkpoints: 2, damaged: { [first!]: { lost: ['a.txt'], lost_count: 1 }, [second!]: { lost: ['./'], lost_count: 1 } } }));
    expect((await s.workspace.list()).filter((c) => c.damaged)).toEqual([]);
    const outcome = await checkIfDue(s.store, s.workspace, { now });
    expect(outcome.ran).toBe(true);
    const written = JSON.parse(fs.readFileSync(recordFile(s), 'utf8')) as { v: number; damaged: object };
    expect(written).toMatchObject({ v: 2, damaged: {} });
    expect((await checkIfDue(s.store, s.workspace, { now: now + 1000 })).ran).toBe(false);
  });
});
