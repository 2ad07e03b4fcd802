// The real native watcher on a real temporary workspace, taking real
// checkpoints through the engine. Timing settings are shortened to keep the
// suite quick; nothing here asserts how fast anything happens.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint, SnapshotOptions } from '../../shared/model.js';
import type { WorkspaceState } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import type { Workspace } from '../../electron/engine/api.js';
import { WorkspaceWatcher } from '../../electron/watcher/index.js';
import { autoReason } from '../../electron/engine/reason.js';
import { sleep, tempDirs, waitFor, type TempDirs } from '../app/helpers.js';

interface Harness {
  ws: Workspace;
  watcher: WorkspaceWatcher;
  calls: SnapshotOptions[];
  added: Checkpoint[];
  states: WorkspaceState[];
  errors: unknown[];
}

let dirs: TempDirs;
let harness: Harness | null = null;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-watcher-');
});
afterEach(async () => {
  await harness?.watcher.dispose();
  await harness?.ws.settled(); // its snapshots' background index sync
  harness = null;
  await dirs.cleanup();
});

async function start(options: { paused?: boolean; catchUp?: boolean; beforeStart?: () => Promise<void> } = {}): Promise<Harness> {
  await writeFile(path.join(dirs.workspace, 'README.md'), 'hello\n');
  const store = await openStore({ home: dirs.home });
  const ws = await store.workspace(dirs.workspace);
  await ws.snapshot({ trigger: 'manual', reason: 'base' });
  await options.beforeStart?.();
  const h: Harness = { ws, calls: [], added: [], states: [], errors: [], watcher: null as unknown as WorkspaceWatcher };
  h.watcher = new WorkspaceWatcher({
    root: ws.root,
    timing: () => ({ quietMs: 200, maxWaitMs: 2000 }),
    snapshot: (opts) => {
      h.calls.push(opts);
      return ws.snapshot(opts);
    },
    onCheckpoint: (cp) => h.added.push(cp),
    onState: (s) => h.states.push(s),
    onError: (e) => h.errors.push(e),
    livenessMs: 200,
    ...(options.paused !== undefined ? { paused: options.paused } : {}),
    ...(options.catchUp !== undefined ? { catchUp: options.catchUp } : {}),
  });
  await h.watcher.start();
  harness = h;
  return h;
}

describe('WorkspaceWatcher', () => {
  it('takes an auto checkpoint of the changed file once changes settle', async () => {
    const h = await start();
    expect(h.watcher.state).toBe('watching');
    await writeFile(path.join(dirs.workspace, 'notes.txt'), 'first\n');
    const cp = await waitFor('an auto checkpoint', () => h.added.find((c) => c.trigger === 'auto'));
    expect(cp.reason).toContain('notes.txt');
    const detail = await h.ws.show(cp.id);
    expect(detail.files.map((f) => f.path)).toContain('notes.txt');
    expect(h.calls[0]?.paths).toEqual(['notes.txt']);
    const diff = await h.ws.fileDiff(cp.id, 'workspace', 'notes.txt');
    expect(diff.new.text).toBe('first\n');
  });

  it("words the reason from the checkpoint's own count: a new folder of 3 files is 3 files, as the stats say", async () => {
    const h = await start();
    // Created elsewhere and moved in whole: the watcher sees one path, the folder.
    const outside = path.join(dirs.home, 'newdir');
    await mkdir(outside);
    for (const name of ['a.ts', 'b.ts', 'c.ts']) await writeFile(path.join(outside, name), `${name}\n`);
    await rename(outside, path.join(dirs.workspace, 'newdir'));
    const cp = await waitFor('the folder checkpoint', () => h.added.find((c) => c.trigger === 'auto'));
    const files = (await h.ws.show(cp.id)).files;
    expect(files).toHaveLength(3);
    expect(cp.stats.files).toBe(3);
    expect(cp.reason).toMatch(/^auto: 3 files changed \(/);
  });

  it('never reacts to writes inside node_modules (or other excluded folders)', async () => {
    const h = await start();
    await mkdir(path.join(dirs.workspace, 'node_modules', 'pkg', 'lib'), { recursive: true });
    await mkdir(path.join(dirs.workspace, 'sub', 'node_modules'), { recursive: true });
    for (let i = 0; i < 200; i++) await writeFile(path.join(dirs.workspace, 'node_modules', 'pkg', 'lib', `f${i}.js`), `${i}`);
    await writeFile(path.join(dirs.workspace, 'sub', 'node_modules', 'x.js'), 'x');
    // A sentinel written after the burst: the burst's events, had any passed, would come first.
    await writeFile(path.join(dirs.workspace, 'sentinel.txt'), 'here\n');
    await waitFor('the sentinel checkpoint', () => h.added.find((c) => c.reason.includes('sentinel.txt')));
    const touched = h.calls.flatMap((c) => c.paths ?? ['<full scan>']);
    expect(touched).toContain('sentinel.txt');
    expect(touched.filter((p) => p.includes('node_modules') || p === '<full scan>')).toEqual([]);
  });

  it('reports a deleted workspace as missing and resumes watching when it comes back', async () => {
    const h = await start();
    await rm(dirs.workspace, { recursive: true, force: true });
    await waitFor('state missing', () => h.states.includes('missing'));
    expect(h.watcher.state).toBe('missing');
    await mkdir(dirs.workspace);
    await writeFile(path.join(dirs.workspace, 'back.txt'), 'again\n');
    await waitFor('state watching again', () => h.watcher.state === 'watching');
    const cp = await waitFor('a checkpoint after the folder came back', async () => {
      for (const c of h.added) {
        const files = (await h.ws.show(c.id)).files.map((f) => f.path);
        if (files.includes('back.txt')) return c;
      }
      return undefined;
    });
    expect(cp.trigger).toBe('auto');
    // And it keeps watching the new folder.
    await writeFile(path.join(dirs.workspace, 'later.txt'), 'later\n');
    await waitFor('a checkpoint of a later change', () => h.added.find((c) => c.reason.includes('later.txt')));
  });

  it('takes no checkpoint while paused and catches up on resume', async () => {
    const h = await start({ paused: true });
    expect(h.watcher.state).toBe('paused');
    const before = (await h.ws.list()).length;
    await writeFile(path.join(dirs.workspace, 'while-paused.txt'), 'quiet\n');
    await sleep(1500); // several quiet periods: a running watcher would have checkpointed by now
    expect(h.calls).toEqual([]);
    expect((await h.ws.list()).length).toBe(before);
    h.watcher.setPaused(false);
    expect(h.watcher.state).toBe('watching');
    const cp = await waitFor('a checkpoint after resume', () => h.added[0]);
    const files = (await h.ws.show(cp.id)).files.map((f) => f.path);
    expect(files).toContain('while-paused.txt');
    expect(await readFile(path.join(dirs.workspace, 'while-paused.txt'), 'utf8')).toBe('quiet\n');
  });

  it('catches up at start with one full scan of changes made while nothing watched', async () => {
    const h = await start({ catchUp: true, beforeStart: () => writeFile(path.join(dirs.workspace, 'offline.txt'), 'made while closed\n') });
    const cp = await waitFor('the catch-up checkpoint', () => h.added[0]);
    expect(cp.reason).toBe('auto: 1 file changed (full scan)');
    expect(h.calls[0]?.paths).toBeUndefined();
    expect((await h.ws.show(cp.id)).files.map((f) => f.path)).toEqual(['offline.txt']);
  });

  it('reports snapshot errors and keeps watching', async () => {
    const h = await start();
    let failures = 2; // the changed-paths attempt and its full-scan fallback
    const original = h.watcher;
    await original.dispose();
    h.watcher = new WorkspaceWatcher({
      root: h.ws.root,
      timing: () => ({ quietMs: 200, maxWaitMs: 2000 }),
      snapshot: async (opts) => {
        if (failures > 0) {
          failures--;
          throw new Error('disk on fire');
        }
        return h.ws.snapshot(opts);
      },
      onCheckpoint: (cp) => h.added.push(cp),
      onError: (e) => h.errors.push(e),
      livenessMs: 200,
    });
    await h.watcher.start();
    await writeFile(path.join(dirs.workspace, 'one.txt'), '1\n');
    await waitFor('the error to be reported', () => h.errors.length > 0);
    expect(String(h.errors[0])).toContain('disk on fire');
    expect(h.watcher.state).toBe('watching');
    await writeFile(path.join(dirs.workspace, 'two.txt'), '2\n');
    await waitFor('a checkpoint after the failure', () => h.added.find((c) => c.reason.includes('two.txt')));
  });
});

describe("titles name only what the checkpoint holds (editors' atomic saves)", () => {
  /** The names in an auto title's parentheses: "auto: 1 file changed (a, b)" → [a, b]. */
  const namedIn = (reason: string): string[] => /\((.*)\)$/.exec(reason)?.[1]?.split(', ').filter((n) => n !== '…') ?? [];

  async function titleOf(h: Harness, file: string, edit: () => Promise<void>): Promise<string> {
    const before = h.added.length;
    await edit();
    const cp = await waitFor(`the checkpoint of ${file}`, async () => {
      for (const c of h.added.slice(before)) if ((await h.ws.show(c.id)).files.some((f) => f.path === file)) return c;
      return undefined;
    });
    for (const c of h.added.slice(before)) {
      // Every name in every title is a file that checkpoint holds as changed: no temporary, no folder.
      const shown = (await h.ws.show(c.id)).files.map((f) => f.path);
      for (const name of namedIn(c.reason)) expect(shown, c.reason).toContain(name);
    }
    return cp.reason;
  }

  it('sed -i, vim, an emacs-style backup and Claude Code\'s atomic write are titled by the file edited', async () => {
    // The files as they were before the editors: in the base checkpoint.
    await writeFile(path.join(dirs.workspace, 'f3.txt'), 'one\n');
    await writeFile(path.join(dirs.workspace, 'v.txt'), 'vim\n');
    await writeFile(path.join(dirs.workspace, 'e.txt'), 'emacs\n');
    await mkdir(path.join(dirs.workspace, '.claude'));
    await writeFile(path.join(dirs.workspace, '.claude', 'settings.json'), '{}\n');
    const h = await start();
    // sed -i writes sedXXXXXX beside the file and renames it over.
    expect(await titleOf(h, 'f3.txt', () => run('sed', ['-i', 's/one/two/', 'f3.txt']))).toBe('auto: 1 file changed (f3.txt)');
    // vim: its swap files (.v.txt.swp, .swx) come and go; the writability probe 4913 likewise.
    expect(
      await titleOf(h, 'v.txt', async () => {
        await writeFile(path.join(dirs.workspace, '4913'), '');
        await rm(path.join(dirs.workspace, '4913'));
        await run('vim', ['-es', '-u', 'DEFAULTS', '-i', 'NONE', '-c', 's/vim/VIM/', '-c', 'wq', 'v.txt']);
      }),
    ).toBe('auto: 1 file changed (v.txt)');
    // emacs: a lock link .#e.txt while editing, and a backup e.txt~ that stays (held, counted, never named).
    expect(
      await titleOf(h, 'e.txt', async () => {
        await writeFile(path.join(dirs.workspace, '.#e.txt'), 'user@host.1234');
        await rename(path.join(dirs.workspace, 'e.txt'), path.join(dirs.workspace, 'e.txt~'));
        await writeFile(path.join(dirs.workspace, 'e.txt'), 'EMACS\n');
        await rm(path.join(dirs.workspace, '.#e.txt'));
      }),
    ).toMatch(/^auto: [12] files? changed \(e\.txt\)$/);
    // Claude Code (write-file-atomic): .claude/.settings.json.<pid>.<hex>.tmp, renamed over settings.json.
    expect(
      await titleOf(h, '.claude/settings.json', async () => {
        const tmp = path.join(dirs.workspace, '.claude', '.settings.json.28205.403f914c.tmp');
        await writeFile(tmp, '{ "a": 1 }\n');
        await rename(tmp, path.join(dirs.workspace, '.claude', 'settings.json'));
      }),
    ).toBe('auto: 1 file changed (.claude/settings.json)');
  });
});

/** A real program in the workspace (sed, vim), to its end. */
async function run(command: string, args: string[]): Promise<void> {
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync(command, args, { cwd: dirs.workspace, encoding: 'utf8', timeout: 30_000, env: { ...process.env, HOME: dirs.home } });
  if (r.status !== 0) throw new Error(`${command} exited ${String(r.status)}: ${r.stderr}`);
}

describe('autoReason', () => {
  it('counts the files the checkpoint changed and names up to three paths the watcher saw', () => {
    const stats = (files: number) => ({ files, insertions: 0, deletions: 0 });
    expect(autoReason(['a.ts'], stats(1))).toBe('auto: 1 file changed (a.ts)');
    expect(autoReason(['a', 'b', 'c', 'd'], stats(4))).toBe('auto: 4 files changed (a, b, c, …)');
    expect(autoReason(['src/newdir'], stats(3))).toBe('auto: 3 files changed (src/newdir)');
    // The checkpoint's own changed files known: a folder and a temporary the watcher saw are not named.
    expect(autoReason(['.claude', '.claude/.s.json.1.ab.tmp', '.claude/s.json'], stats(1), ['.claude/s.json'])).toBe('auto: 1 file changed (.claude/s.json)');
    expect(autoReason(['src/newdir'], stats(2), ['src/newdir/a', 'src/newdir/b'])).toBe('auto: 2 files changed (src/newdir/a, src/newdir/b)');
    expect(autoReason(['f3.txt', 'sedaI2GPY'], stats(7))).toBe('auto: 7 files changed (f3.txt)');
    expect(autoReason(null, stats(501))).toBe('auto: 501 files changed (full scan)');
  });
});
