// The background service leaves with its store: deleted (`rm -rf`, as the
// README says to delete one's data), moved away or replaced by another folder,
// the store is never written to again or re-created, and the service's
// process ends within a few seconds; the next hook call starts a fresh one.
// Real processes: the hook starts the daemon, the test takes the store away.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceStatus } from '../../electron/agents/core/service-control.js';
import { processAlive, tempDirs, sleep, waitFor, type TempDirs } from '../app/helpers.js';
import { baseEnv, runCli } from '../agents/run-cli.js';

let dirs: TempDirs;
const pids = new Set<number>();

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-store-gone-');
  await mkdir(join(dirs.workspace, 'src'), { recursive: true });
  await writeFile(join(dirs.workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
  // The watcher checkpoints 100 ms after a change: a write right after the store goes would re-create it if anything could.
  await writeFile(join(dirs.home, 'config.json'), JSON.stringify({ watcher: { quiet_ms: 100, max_wait_ms: 1000 } }));
});

afterEach(async () => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  pids.clear();
  await dirs.cleanup();
});

const alive = processAlive;

const envFor = (home: string): NodeJS.ProcessEnv => baseEnv(home, { CHRONOSCOPE_DAEMON: '1' });

const preEdit = (id: string) =>
  runCli(['hook', 'claude-code'], {
    input: JSON.stringify({ session_id: 's', cwd: dirs.workspace, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(dirs.workspace, 'src', 'app.ts') }, tool_use_id: id }),
    env: envFor(dirs.home),
    cwd: dirs.workspace,
  });

async function status(): Promise<ServiceStatus | null> {
  const r = await runCli(['daemon', '--status', '--json'], { env: baseEnv(dirs.home) });
  return r.code === 0 ? (JSON.parse(r.stdout) as { service: ServiceStatus | null }).service : null;
}

/** A hook call that starts the daemon, and the daemon serving the workspace: its pid. */
async function daemonServing(): Promise<number> {
  expect((await preEdit(`toolu_${Date.now()}`)).code).toBe(0);
  const s = await waitFor('the daemon serving', async () => {
    const got = await status();
    return got !== null && got.kind === 'daemon' && got.workspaces.includes(dirs.workspace) ? got : undefined;
  });
  pids.add(s.pid);
  return s.pid;
}

/** Every path under dir with its size and mtime: what "nothing written" compares. */
function picture(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      out.push(`${full.slice(dir.length)} ${st.isDirectory() ? 'dir' : `${st.size} ${st.mtimeMs}`}`);
      if (st.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return out;
}

/**
 * Waits until nothing in the store has changed for a second (the hook's checkpoint and the
 * service's start-up scan done): what the service does *after* the folder is replaced is the
 * question, not work already under way when it was (that may finish into the new folder:
 * docs/daemon.md, "Leaving with its store"). It failed a fresh-clone CI run so once, its start-up
 * scan's last writes landing in the copy 150 ms after it was made.
 */
async function quiet(dir: string): Promise<void> {
  let last = JSON.stringify(picture(dir));
  let since = Date.now();
  await waitFor('the store to be quiet', async () => {
    await sleep(250);
    const now = JSON.stringify(picture(dir));
    if (now !== last) {
      last = now;
      since = Date.now();
    }
    return Date.now() - since >= 1000;
  }, 30_000);
}

const gone = (pid: number) => waitFor(`the daemon (pid ${pid}) leaving`, () => !alive(pid), 15_000);

describe('the background service and its store', () => {
  it('deleted: the service leaves, and the store is not re-created by the change the watcher saw meanwhile', async () => {
    const pid = await daemonServing();
    // Its start-up done first, as below: a delete while the start-up scan still writes fails
    // (ENOTEMPTY, seen once in a fresh-clone CI run), as a person's `rm -rf` would then.
    await quiet(dirs.home);
    rmSync(dirs.home, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    writeFileSync(join(dirs.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await gone(pid);
    await sleep(1500); // anything late would have written by now
    expect(existsSync(dirs.home)).toBe(false);
  });

  it('moved away: the service leaves and writes nothing into the moved folder', async () => {
    const pid = await daemonServing();
    // Its start-up done first (as for "replaced" below): the status names the workspace a moment
    // before the service logs "watching …", and that line once landed in the moved log.
    await quiet(dirs.home);
    const moved = `${dirs.home}-moved`;
    renameSync(dirs.home, moved);
    const before = picture(moved);
    writeFileSync(join(dirs.workspace, 'src', 'app.ts'), 'export const answer = 43;\n');
    await gone(pid);
    await sleep(1500);
    expect(existsSync(dirs.home)).toBe(false);
    expect(picture(moved)).toEqual(before);
    rmSync(moved, { recursive: true, force: true });
  });

  it('replaced by another folder: the service leaves, leaves the new folder alone, and the next hook call starts a fresh service', async () => {
    const pid = await daemonServing();
    await quiet(dirs.home);
    const old = `${dirs.home}-old`;
    renameSync(dirs.home, old);
    // A restored backup at the same path: a copy of the store (with the old service's lock in it; a socket cannot be copied).
    cpSync(old, dirs.home, { recursive: true, filter: (src) => !src.endsWith('.sock') });
    const before = picture(dirs.home);
    await gone(pid);
    await sleep(1500);
    expect(picture(dirs.home)).toEqual(before);
    rmSync(old, { recursive: true, force: true });
    // The next call finds nobody serving the copy and starts a service for it.
    const next = await daemonServing();
    expect(next).not.toBe(pid);
    mkdirSync(dirs.home, { recursive: true });
  });
});
