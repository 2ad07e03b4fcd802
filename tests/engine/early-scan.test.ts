// A hook working alone starts its scan's git listing before it loads the
// engine and takes the workspace lock (engine/early-scan.ts). The scan uses
// that listing only while nothing it depends on changed; otherwise it lists
// again, so a checkpoint never misses what another process did in between.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { offerEarlyScan, openStore } from '../../electron/engine/index.js';
import { startEarlyScan, takeEarlyScan } from '../../electron/engine/early-scan.js';
import type { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
  write(s.ws, 'a.txt', 'a1\n');
  write(s.ws, 'b.txt', 'b1\n');
  await s.workspace.snapshot();
  await (s.workspace as WorkspaceImpl).settled();
});
afterEach(() => {
  takeEarlyScan(); // none left for the next test
  s.cleanup();
});

function fileAt(commit: string, rel: string): string {
  return storeGit(s.storeHome, ['show', `${commit}:${rel}`]);
}

async function listedEarly(): Promise<NonNullable<Awaited<ReturnType<typeof startEarlyScan>>>> {
  const early = await startEarlyScan(s.storeHome, s.ws, []);
  expect(early).not.toBeNull();
  if (early === null) throw new Error('unreachable');
  await Promise.all([early.listing.modified, early.listing.others]);
  return early;
}

describe('a scan listing started before the lock', () => {
  it('is used while still valid: what changed after it started waits for the next checkpoint, as during any scan', async () => {
    write(s.ws, 'a.txt', 'a2\n');
    const early = await listedEarly();
    // Changed after git listed the workspace: this scan cannot see it (nor could one that had just listed).
    write(s.ws, 'b.txt', 'b2\n');
    offerEarlyScan(early);
    const first = await s.workspace.snapshot({ trigger: 'hook' });
    expect(first.id).toMatch(/^[0-9a-f]{40}$/);
    expect(fileAt(first.id as string, 'a.txt')).toBe('a2\n');
    expect(fileAt(first.id as string, 'b.txt'), 'the early listing was the one used').toBe('b1\n');
    expect(takeEarlyScan(), 'taken once').toBeNull();
    const next = await s.workspace.snapshot({ trigger: 'hook' });
    expect(fileAt(next.id as string, 'b.txt')).toBe('b2\n');
  });

  it('is set aside when another checkpoint was taken after it started: the scan lists again and misses nothing', async () => {
    write(s.ws, 'a.txt', 'a2\n');
    const early = await listedEarly();
    // Another process's checkpoint (a hook of a parallel tool call), then a change after it.
    const between = await s.workspace.snapshot({ trigger: 'hook', paths: ['a.txt'] });
    expect(between.id).toMatch(/^[0-9a-f]{40}$/);
    write(s.ws, 'b.txt', 'b2\n');
    offerEarlyScan(early);
    const result = await s.workspace.snapshot({ trigger: 'hook' });
    expect(result.id).toMatch(/^[0-9a-f]{40}$/);
    expect(fileAt(result.id as string, 'b.txt')).toBe('b2\n');
    expect(fileAt(result.id as string, 'a.txt')).toBe('a2\n');
  });

  it('is set aside when the exclude rules changed after it started (a file they no longer leave out is recorded)', async () => {
    // A process whose settings leave *.log out writes the exclude file, and the listing starts under it.
    const excluding = await (await openStore({ home: s.storeHome, settings: { extra_excludes: ['*.log'] } })).workspace(s.ws);
    write(s.ws, 'a.txt', 'a2\n');
    await excluding.snapshot();
    await (excluding as WorkspaceImpl).settled();
    write(s.ws, 'notes.log', 'x\n');
    const early = await listedEarly();
    // The settings no longer leave it out: this store rewrites the exclude file under the lock.
    offerEarlyScan(early);
    const result = await s.workspace.snapshot({ trigger: 'hook' });
    expect(result.id).toMatch(/^[0-9a-f]{40}$/);
    expect(fileAt(result.id as string, 'notes.log')).toBe('x\n');
  });

  it('is not started for a workspace the store has no index of, or for a file tool writing outside it', async () => {
    expect(await startEarlyScan(s.storeHome, s.base, [])).toBeNull();
    expect(await startEarlyScan(s.storeHome, s.ws, [`${s.base}/elsewhere.txt`])).toBeNull();
    const inside = await startEarlyScan(s.storeHome, s.ws, [`${s.ws}/a.txt`]);
    expect(inside?.root).toBe(s.ws);
    await Promise.all([inside?.listing.modified, inside?.listing.others]);
  });
});
