// A checkpoint a person asks for in the window (or the browser host) while the
// app watches the workspace never scans what the watcher knows did not
// change: it is limited to the paths the watcher saw, so no git process walks
// the work tree (`ls-files`), and it records exactly the edit.
import * as childProcess from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InvokeResult } from '../../shared/ipc.js';
import type { SnapshotResult } from '../../shared/model.js';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { createRouter } from '../../electron/router/index.js';
import { tempDirs, waitFor, type TempDirs } from './helpers.js';

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:child_process')>();
  return { ...real, spawn: vi.fn(real.spawn) };
});

let dirs: TempDirs;
let app: AppService | null = null;
beforeEach(async () => {
  dirs = await tempDirs();
  for (let i = 0; i < 30; i++) await writeFile(path.join(dirs.workspace, `f${i}.txt`), `file ${i}\n`);
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await dirs.cleanup();
});

/** The git subcommands spawned while `fn` runs. */
async function gitCalls(fn: () => Promise<unknown>): Promise<string[]> {
  const spawn = vi.mocked(childProcess.spawn);
  const before = spawn.mock.calls.length;
  await fn();
  return spawn.mock.calls
    .slice(before)
    .filter(([cmd]) => cmd === 'git')
    .map(([, args]) => (args as string[]).find((a, i, all) => i > 0 && all[i - 1] !== '-c' && a !== '-c') ?? '');
}

describe('a manual checkpoint while the app watches', () => {
  it('is limited to what the watcher saw change: no scan of the work tree', async () => {
    app = await createAppService({ home: dirs.home, host: 'browser', version: '0.0.0-test', watch: true });
    // The watcher's catch-up scan at start (it cannot vouch for what changed before it watched) runs first…
    await app.updateSettings({ watcher: { quiet_ms: 100 } });
    const router = createRouter(app);
    await app.addWorkspace(dirs.workspace);
    const ws = await app.workspace(dirs.workspace);
    await waitFor('the baseline', async () => (await ws.list()).length === 1);
    await new Promise((r) => setTimeout(r, 1500));
    // …then a long quiet period: the watcher's own auto checkpoint does not come before ours.
    await app.updateSettings({ watcher: { quiet_ms: 60_000 } });
    await writeFile(path.join(dirs.workspace, 'f7.txt'), 'file 7, edited\n');
    let result: InvokeResult<SnapshotResult> | undefined;
    const calls = await gitCalls(async () => {
      // Once the watcher has seen the edit (events arrive within ~50 ms).
      await new Promise((r) => setTimeout(r, 300));
      result = (await router.invoke('checkpoints:snapshot', { workspace: dirs.workspace, reason: 'by hand' })) as InvokeResult<SnapshotResult>;
    });
    expect(result?.ok).toBe(true);
    const taken = result?.ok ? result.value : null;
    expect(taken?.id).toBeTruthy();
    expect(calls.filter((c) => c === 'ls-files')).toEqual([]);
    const shown = await ws.show(taken?.id ?? '');
    expect(shown.files.map((f) => f.path)).toEqual(['f7.txt']);
  });
});
