// The hook's side of the background service: when no app or daemon serves the
// store, the hook does its own work as before and then starts
// `chronoscope daemon` detached (its own session, output to the store's
// daemon.log, no console window), so the agent's next calls are handed to it.
// Loaded by every hook process, so it uses nothing but a few fs calls until
// it spawns (node:child_process is required only then).
import { closeSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A start under way is not repeated: a daemon takes well under this to listen (or to see someone does). */
const STARTING_MS = 15_000;

export const DAEMON_LOG = 'daemon.log';
export const DAEMON_STARTING = 'daemon.starting';

/** Off by CHRONOSCOPE_DAEMON=0 (tests, benchmarks of the lone path) or `"daemon": false` in the store's settings. */
export function autoStartWanted(home: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const flag = env['CHRONOSCOPE_DAEMON'];
  if (flag === '0' || flag === 'off' || flag === 'false') return false;
  try {
    const raw = JSON.parse(readFileSync(join(home, 'config.json'), 'utf8')) as unknown;
    if (typeof raw === 'object' && raw !== null && (raw as Record<string, unknown>)['daemon'] === false) return false;
  } catch {
    // no settings file (defaults), or one the engine will word an error about
  }
  return true;
}

/**
 * Starts the daemon for `dir`'s store without waiting for it; false when it was not started (one is
 * starting already, the store has no folder yet, or this process was not started from the CLI).
 */
export function startDaemonDetached(home: string, dir: string): boolean {
  const marker = join(home, DAEMON_STARTING);
  try {
    if (Date.now() - statSync(marker).mtimeMs < STARTING_MS) return false;
  } catch {
    // no start under way
  }
  const cli = process.argv[1];
  if (cli === undefined || cli === '') return false;
  let log: number;
  try {
    log = openSync(join(home, DAEMON_LOG), 'a', 0o600);
  } catch {
    return false; // no store folder: the hook could not work either
  }
  try {
    writeFileSync(marker, `${process.pid}\n`, { mode: 0o600 });
    const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, [cli, 'daemon', '--workspace', dir, '--started-by-hook'], {
      detached: true, // its own session: the agent's terminal closing or its process group's signals do not reach it
      stdio: ['ignore', log, log],
      windowsHide: true,
      cwd: home, // never the workspace: the daemon must not keep it busy (Windows could not delete it)
      env: { ...process.env, CHRONOSCOPE_HOME: home },
    });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  } finally {
    closeSync(log);
  }
}
