// A process that takes a path-limited snapshot and exits at once (a hook
// working alone) leaves its index sync undone. The next process must still
// record exactly what is on disk, build its tree without having git rewrite
// the whole index, and finish the sync (index-pending.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import type { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { REPO_ROOT } from '../paths.js';
import { sandbox, storeGit, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

const ENGINE = pathToFileURL(path.join(REPO_ROOT, 'dist/electron/engine/index.js')).href;

/** A separate process working as a lone hook does: syncs deferred, one snapshot limited to `paths`, then exit without waiting. */
function snapshotAndExit(paths: string[]): void {
  const script = `const { deferIndexSyncs, openStore } = await import(${JSON.stringify(ENGINE)});
deferIndexSyncs();
const store = await openStore({ home: ${JSON.stringify(s.storeHome)} });
const ws = await store.workspace(${JSON.stringify(s.ws)});
const r = await ws.snapshot({ trigger: 'hook', paths: ${JSON.stringify(paths)} });
process.stdout.write(r.id ?? 'none');
process.exit(0);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, HOME: s.home } });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/^[0-9a-f]{40}$/);
}

function noteFile(): string {
  const [id] = fs.readdirSync(path.join(s.storeHome, 'workspaces'));
  return path.join(s.storeHome, 'workspaces', id ?? '', 'index-pending.json');
}

function fileAt(commit: string, rel: string): string {
  return storeGit(s.storeHome, ['show', `${commit}:${rel}`]);
}

describe('an index sync left by a process that exited', () => {
  it('is carried by a note: the next snapshots record the disk exactly, and the one that syncs removes it', async () => {
    write(s.ws, 'a.txt', 'a1\n');
    write(s.ws, 'b.txt', 'b1\n');
    write(s.ws, 'c.txt', 'c1\n');
    await s.workspace.snapshot();
    await (s.workspace as WorkspaceImpl).settled();

    write(s.ws, 'a.txt', 'a2\n');
    snapshotAndExit(['a.txt']);
    expect(fs.existsSync(noteFile()), 'the exiting process left a note').toBe(true);

    // Another process that exits at once, building on the note: its change and the earlier one.
    write(s.ws, 'b.txt', 'b2\n');
    fs.rmSync(path.join(s.ws, 'c.txt'));
    write(s.ws, 'new.txt', 'new\n');
    snapshotAndExit(['b.txt', 'c.txt', 'new.txt']);

    // A full scan in a fresh engine (no queued sync in memory): everything as on disk.
    write(s.ws, 'a.txt', 'a3\n');
    const store = await openStore({ home: s.storeHome });
    const ws = (await store.workspace(s.ws)) as WorkspaceImpl;
    const full = await ws.snapshot();
    expect(full.id).not.toBeNull();
    const id = full.id as string;
    expect([fileAt(id, 'a.txt'), fileAt(id, 'b.txt'), fileAt(id, 'new.txt')]).toEqual(['a3\n', 'b2\n', 'new\n']);
    expect(storeGit(s.storeHome, ['ls-tree', '--name-only', id]).split('\n').filter(Boolean)).toEqual(['a.txt', 'b.txt', 'new.txt']);

    await ws.settled();
    expect(fs.existsSync(noteFile()), 'the sync that ran removed the note').toBe(false);
    // The index now holds the latest tree: nothing changed, nothing recorded.
    expect((await ws.snapshot()).id).toBeNull();
    write(s.ws, 'b.txt', 'b3\n');
    const next = await ws.snapshot();
    expect(fileAt(next.id as string, 'b.txt')).toBe('b3\n');
  });

  it('a note that does not parse, or names another checkpoint, is ignored and the scan is still exact', async () => {
    write(s.ws, 'a.txt', 'a1\n');
    await s.workspace.snapshot();
    await (s.workspace as WorkspaceImpl).settled();
    write(s.ws, 'a.txt', 'a2\n');
    snapshotAndExit(['a.txt']);
    const note = JSON.parse(fs.readFileSync(noteFile(), 'utf8')) as { commit: string };
    fs.writeFileSync(noteFile(), JSON.stringify({ ...note, commit: 'f'.repeat(40) }));

    write(s.ws, 'b.txt', 'b1\n');
    const store = await openStore({ home: s.storeHome });
    const ws = (await store.workspace(s.ws)) as WorkspaceImpl;
    const full = await ws.snapshot();
    expect([fileAt(full.id as string, 'a.txt'), fileAt(full.id as string, 'b.txt')]).toEqual(['a2\n', 'b1\n']);
    expect(fs.existsSync(noteFile()), 'a note that no longer holds is removed').toBe(false);

    write(s.ws, 'a.txt', 'a3\n');
    snapshotAndExit(['a.txt']);
    fs.writeFileSync(noteFile(), '{"v":1,"commit":');
    write(s.ws, 'b.txt', 'b2\n');
    const again = await ws.snapshot();
    expect([fileAt(again.id as string, 'a.txt'), fileAt(again.id as string, 'b.txt')]).toEqual(['a3\n', 'b2\n']);
  });
});
