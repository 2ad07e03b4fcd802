// A restore never loses work it did not see: edits made while it writes,
// and files in the way, are left alone and reported.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCheckpoint } from '../../electron/engine/restore.js';
import type { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

describe('restore guards', () => {
  it('a file edited (or a removal target rewritten) after the safety checkpoint is left as is and reported', async () => {
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'b.txt', 'b1\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'b.txt', 'b2\n');
    write(s.ws, 'gone.txt', 'new since\n');
    await s.workspace.snapshot();

    const ctx = (s.workspace as WorkspaceImpl).ctx;
    const result = await restoreCheckpoint(ctx, first, {}, {
      afterSafety: async () => {
        // An agent writes while the restore is under way.
        write(s.ws, 'a.txt', 'agent wrote this\n');
        write(s.ws, 'gone.txt', 'agent rewrote this\n');
      },
    });
    expect(result.conflicts).toEqual(['a.txt', 'gone.txt']);
    expect(result.modified).toEqual(['b.txt']);
    expect(fs.readFileSync(path.join(s.ws, 'a.txt'), 'utf8')).toBe('agent wrote this\n');
    expect(fs.readFileSync(path.join(s.ws, 'gone.txt'), 'utf8')).toBe('agent rewrote this\n');
    expect(fs.readFileSync(path.join(s.ws, 'b.txt'), 'utf8')).toBe('b1\n');
  });
});

/** chattr +i / -i: even root cannot write an immutable file or into an immutable folder. */
function setImmutable(full: string, on: boolean): boolean {
  try {
    execFileSync('chattr', [on ? '+i' : '-i', full], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('restore: skipped writes and write failures', () => {
  it('reports a write skipped because an unrecorded file is in the way', async () => {
    s.cleanup();
    s = await sandbox({ settings: { max_file_mb: 1 } });
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'big.bin', 'small once\n');
    const first = (await s.workspace.snapshot()).id as string;
    fs.rmSync(path.join(s.ws, 'big.bin'));
    write(s.ws, 'a.txt', 'a2\n');
    await s.workspace.snapshot();
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    write(s.ws, 'big.bin', big); // over the limit: not recorded, so unknown to the restore
    const result = await s.workspace.restore(first);
    expect(result.skipped).toEqual(['big.bin']);
    expect(result.modified).toEqual(['a.txt']);
    expect(fs.readFileSync(path.join(s.ws, 'big.bin')).equals(big)).toBe(true);
  });

  it.skipIf(process.platform !== 'linux')('refuses before writing anything when a folder it must write in is not writable', async (ctx) => {
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'ro/b.txt', 'b1\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'a.txt', 'a2\n');
    write(s.ws, 'ro/b.txt', 'b2\n');
    await s.workspace.snapshot();
    const ro = path.join(s.ws, 'ro');
    if (!setImmutable(ro, true)) ctx.skip();
    try {
      await expect(s.workspace.restore(first)).rejects.toMatchObject({ code: 'refused', message: 'ro is not writable; nothing was changed' });
      expect(fs.readFileSync(path.join(s.ws, 'a.txt'), 'utf8')).toBe('a2\n');
      expect(fs.readFileSync(path.join(s.ws, 'ro/b.txt'), 'utf8')).toBe('b2\n');
    } finally {
      setImmutable(ro, false);
    }
  });

  it.skipIf(process.platform !== 'linux')('a write that still fails names where it stopped and the safety checkpoint to undo with', async (ctx) => {
    write(s.ws, 'locked.txt', 'l1\n');
    const first = (await s.workspace.snapshot()).id as string;
    write(s.ws, 'locked.txt', 'l2\n');
    await s.workspace.snapshot();
    const locked = path.join(s.ws, 'locked.txt');
    if (!setImmutable(locked, true)) ctx.skip();
    try {
      const err = (await s.workspace.restore(first).then(() => null, (e: unknown) => e)) as Error | null;
      expect(err).not.toBeNull();
      const safety = (await s.workspace.list())[0];
      expect(safety?.trigger).toBe('safety');
      expect(err?.message).toMatch(new RegExp(`^restore stopped at locked\\.txt: .+; undo with: chronoscope restore ${safety?.id.slice(0, 12)} --yes$`));
    } finally {
      setImmutable(locked, false);
    }
  });
});
