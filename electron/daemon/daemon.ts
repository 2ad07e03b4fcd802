// `chronoscope daemon`: the app service with no window and no HTTP server,
// for agents working in a terminal. It watches the workspaces hooks ask about
// and serves their checkpoints over the store's agent socket, so a hook costs
// about one Node start at any workspace size. One per store (see
// app/agent-socket-owner.ts); it leaves when idle, when stopped, or when an
// app takes the socket over, always releasing its lock and socket.
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createAppService } from '../app/app-service.js';
import { workspaceDirFor } from '../agents/core/workspace-for.js';
import { packageVersion } from '../server/paths.js';
import { DAEMON_LOG, DAEMON_STARTING } from '../agents/core/autostart.js';
import { IdleExit } from './idle-exit.js';
import { leaveAsIfKilled, watchStoreIdentity } from './store-gone.js';
import { agentSocketPath } from '../agents/core/delegate-socket.js';

export interface DaemonOptions {
  home: string;
  /** Folders to watch from the start (the hook that started it names its own). */
  workspaces: string[];
  /** Overrides the settings' daemon_idle_minutes (tests). */
  idleExitMs?: number;
  log: (line: string) => void;
}

export type DaemonEnd = 'someone-serves' | 'idle' | 'stopped' | 'handed-over' | NodeJS.Signals;

/** The log is appended to by every start; past this it starts over (the previous one kept as daemon.log.1). */
const LOG_LIMIT = 1 << 20;

async function rotateLog(home: string): Promise<void> {
  const file = join(home, DAEMON_LOG);
  const st = await stat(file).catch(() => null);
  if (st !== null && st.size > LOG_LIMIT) await rename(file, `${file}.1`).catch(() => undefined);
}

/** Serves until idle, stopped or signalled; resolves with why it ended. */
export async function runDaemon(options: DaemonOptions): Promise<DaemonEnd> {
  const { home, log } = options;
  await rotateLog(home);
  let end: (why: DaemonEnd) => void = () => undefined;
  const ended = new Promise<DaemonEnd>((resolveEnd) => {
    end = resolveEnd;
  });
  let idle: IdleExit | null = null;
  let idleMs = options.idleExitMs ?? 30 * 60_000;
  const app = await createAppService({
    home,
    host: 'daemon',
    kind: 'daemon',
    version: packageVersion(),
    idleExitMs: () => idleMs,
    onAgentActivity: (busy) => idle?.activity(busy),
    onLeave: (why) => end(why === 'handover' ? 'handed-over' : 'stopped'),
  });
  idleMs = options.idleExitMs ?? app.settings().daemon_idle_minutes * 60_000;
  const marker = join(home, DAEMON_STARTING);
  if (!app.servesAgentSocket) {
    await app.dispose();
    await rm(marker, { force: true }).catch(() => undefined);
    log('another Chronoscope process serves this store already; leaving');
    return 'someone-serves';
  }
  idle = new IdleExit(idleMs, () => end('idle'));
  // Its store deleted, moved or replaced: it leaves within a second, writing and releasing nothing.
  const storeWatch = watchStoreIdentity(home, agentSocketPath(home), leaveAsIfKilled);
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  const onSignal = (signal: NodeJS.Signals): void => end(signal);
  for (const s of signals) process.on(s, onSignal);
  await rm(marker, { force: true }).catch(() => undefined);
  log(`serving agent hooks for the store ${home} (pid ${process.pid}); leaves after ${idleMs >= 60_000 ? `${Math.round(idleMs / 60_000)} min` : `${idleMs} ms`} with no hook call; 'chronoscope daemon --stop' stops it`);
  for (const dir of options.workspaces) {
    try {
      const root = await workspaceDirFor(app.store, dir);
      await app.watchForAgents(root);
      log(`watching ${root}`);
    } catch (err) {
      log(`cannot watch ${dir}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  const why = await ended;
  idle.dispose();
  storeWatch.dispose();
  for (const s of signals) process.off(s, onSignal);
  log(`leaving (${why})`);
  await app.dispose();
  log('stopped; socket and lock released');
  return why;
}
