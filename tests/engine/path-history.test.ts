import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHermesStore } from '../agents/hermes-store.js';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

/** A sandbox whose store reads Hermes' /rollback store from a home of its own (the setting, as the app passes it). */
async function withHermes(): Promise<ReturnType<typeof createHermesStore>> {
  const hermesHome = fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-hermes-home-'));
  s.cleanup();
  const inner = await sandbox({ settings: { hermes_home: hermesHome } });
  s = { ...inner, cleanup: () => (inner.cleanup(), fs.rmSync(hermesHome, { recursive: true, force: true })) };
  return createHermesStore(hermesHome, s.ws);
}

async function snap(reason: string): Promise<string> {
  const r = await s.workspace.snapshot({ reason });
  if (r.id === null) throw new Error(`nothing to snapshot for ${reason}`);
  return r.id;
}

describe('pathHistory', () => {
  it('lists only the checkpoints that changed a file: added, modified, deleted, added again', async () => {
    write(s.ws, 'other.txt', '1');
    const c0 = await snap('before the file');
    write(s.ws, 'dir with space/a b.txt', 'one\n');
    const c1 = await snap('add');
    write(s.ws, 'other.txt', '2');
    await snap('other only');
    write(s.ws, 'dir with space/a b.txt', 'two\n');
    const c3 = await snap('modify');
    fs.rmSync(path.join(s.ws, 'dir with space/a b.txt'));
    const c4 = await snap('delete');
    write(s.ws, 'other.txt', '3');
    await snap('other again');
    write(s.ws, 'dir with space/a b.txt', 'back\n');
    const c6 = await snap('re-add');

    const h = await s.workspace.pathHistory('dir with space/a b.txt');
    expect(h.scanned).toBe(7);
    expect(h.entries).toEqual([
      { id: c6, change: 'added' },
      { id: c4, change: 'deleted' },
      { id: c3, change: 'modified' },
      { id: c1, change: 'added' },
    ]);
    expect(h.entries.map((e) => e.id)).not.toContain(c0);

    // A folder changes whenever something inside it does.
    const folder = await s.workspace.pathHistory('dir with space/');
    expect(folder.path).toBe('dir with space');
    expect(folder.entries.map((e) => e.id)).toEqual([c6, c4, c3, c1]);
  });

  it('answers an empty story for a path that never existed, and refuses unsafe paths with one line', async () => {
    write(s.ws, 'a.txt', 'a');
    await snap('one');
    expect((await s.workspace.pathHistory('nope.txt')).entries).toEqual([]);
    await expect(s.workspace.pathHistory('../etc/passwd')).rejects.toThrow(/outside the workspace/);
    await expect(s.workspace.pathHistory('a\nb')).rejects.toThrow(/line break/);
    await expect(s.workspace.pathHistory('-x')).rejects.toThrow(/leading -/);
  });
});

describe('pathHistory with a glob', () => {
  it('lists the checkpoints that changed any file matching it', async () => {
    write(s.ws, 'src/a.ts', '1');
    write(s.ws, 'src/deep/b.ts', '1');
    write(s.ws, 'docs/readme.md', '1');
    const c0 = await snap('start');
    write(s.ws, 'docs/readme.md', '2');
    await snap('docs only');
    write(s.ws, 'src/deep/b.ts', '2');
    const c2 = await snap('deep ts');
    write(s.ws, 'src/c.ts', 'new');
    const c3 = await snap('new ts');
    fs.rmSync(path.join(s.ws, 'src/a.ts'));
    const c4 = await snap('delete ts');

    const h = await s.workspace.pathHistory('src/**/*.ts');
    expect(h.entries).toEqual([
      { id: c4, change: 'deleted' },
      { id: c3, change: 'added' },
      { id: c2, change: 'modified' },
      { id: c0, change: 'added' },
    ]);
    expect((await s.workspace.pathHistory('**/*.md')).entries.map((e) => e.id)).toHaveLength(2);
  });
});

describe("pathHistory with Hermes Agent's /rollback lane", () => {
  it("includes Hermes Agent's checkpoints that changed the file, each against the one before it in Hermes' chain", async () => {
    const hermes = await withHermes();
    const T = 1_780_000_000;
    write(s.ws, 'src/a.ts', 'one\n');
    write(s.ws, 'other.txt', '1');
    hermes.take('before write_file', T); // adds src/a.ts
    const ours1 = await snap('ours: the same state'); // ours, too: added in our lane
    write(s.ws, 'other.txt', '2');
    hermes.take('before terminal: ls', T + 600); // src/a.ts untouched
    write(s.ws, 'src/a.ts', 'two\n');
    hermes.take('before patch', T + 1200); // modifies it
    fs.rmSync(path.join(s.ws, 'src/a.ts'));
    hermes.take('before terminal: rm', T + 1800); // deletes it

    const list = await s.workspace.list({ lanes: true });
    const byReason = (reason: string): string => list.find((c) => c.reason === reason)!.id;
    const ids = (h: { entries: { id: string; change: string }[] }): [string, string][] => h.entries.map((e) => [e.id, e.change]);
    // Hermes' times are in 2026-05, ours is now: merged newest first, as the timeline lists them.
    const expected: [string, string][] = [
      [ours1, 'added'],
      [byReason('before terminal: rm'), 'deleted'],
      [byReason('before patch'), 'modified'],
      [byReason('before write_file'), 'added'],
    ];
    const file = await s.workspace.pathHistory('src/a.ts');
    expect(ids(file)).toEqual(expected);
    expect(file.scanned).toBe(5);
    expect(ids(await s.workspace.pathHistory('src/'))).toEqual(expected);
    expect(ids(await s.workspace.pathHistory('src/*.ts'))).toEqual(expected);
    expect(ids(await s.workspace.pathHistory('other.txt'))).toEqual([
      [ours1, 'added'],
      [byReason('before terminal: ls'), 'modified'],
      [byReason('before write_file'), 'added'],
    ]);
  });
});

