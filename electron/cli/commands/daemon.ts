// `chronoscope daemon`: the background service hooks start by themselves when
// no app serves the store (see electron/daemon/). Run by hand it serves in the
// foreground until idle or Ctrl-C; `--status` says whether one runs and what
// it watches; `--stop` stops it.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ChronoscopeError, UsageError } from '../../../shared/errors.js';
import { agentSocketPath, someoneListens } from '../../agents/core/delegate-socket.js';
import { askService, type ServiceStatus } from '../../agents/core/service-control.js';
import { runDaemon } from '../../daemon/daemon.js';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { collect, ExitWith, workspaceDir, type RegisterCommand } from '../context.js';
import { printJson, printLine, printLines, relativeTime } from '../output.js';

interface DaemonOptions {
  workspace?: string[];
  stop?: boolean;
  status?: boolean;
  json?: boolean;
  idleExitMs?: number;
  startedByHook?: boolean;
}

function positiveMs(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of milliseconds, at least 1.');
  return n;
}

const ago = (iso: string): string => relativeTime(Date.parse(iso));

/** What `hooks status` and `daemon --status` say about who serves the store's hooks. */
export function describeService(store: string, status: ServiceStatus | null): string[] {
  if (status === null) {
    return [`background service: none runs for the store ${store}; the next hook call works alone and starts one (unless "daemon": false)`];
  }
  const who = status.kind === 'daemon' ? `the background service (chronoscope daemon, pid ${status.pid})` : `the ${status.host === 'electron' ? 'desktop app' : "browser host ('chronoscope serve')"} (pid ${status.pid})`;
  const lines = [
    `background service: ${who} serves hook calls for the store ${store}, since ${status.since} (${ago(status.since)})`,
    `  watching: ${status.workspaces.length === 0 ? 'no workspace yet' : status.workspaces.join(', ')}`,
  ];
  if (status.kind === 'daemon') {
    const idleMin = status.idle_exit_ms === null ? null : Math.round(status.idle_exit_ms / 60_000);
    lines.push(`  leaves after ${idleMin === null ? '?' : idleMin} min with no hook call${status.last_call === null ? '' : ` (last call ${ago(status.last_call)})`}; stop it now: chronoscope daemon --stop`);
  }
  return lines;
}

export async function serviceStatus(store: string): Promise<ServiceStatus | null> {
  return askService(agentSocketPath(store), { control: 'status' }, 2000).catch(() => null);
}

async function stop(store: string, json: boolean): Promise<void> {
  const socket = agentSocketPath(store);
  const status = await serviceStatus(store);
  if (status === null) {
    if (json) printJson({ stopped: false, running: false });
    else printLine(`no background service runs for the store ${store}`);
    return;
  }
  if (status.kind !== 'daemon') {
    throw new ChronoscopeError('bad_input', `the ${status.host === 'electron' ? 'desktop app' : "browser host ('chronoscope serve')"} (pid ${status.pid}) serves this store, not a daemon; close it to stop it`);
  }
  await askService(socket, { control: 'stop' }, 5000);
  // It answers first, then lets requests in flight finish and releases the socket.
  const deadline = Date.now() + 10_000;
  while ((await someoneListens(socket)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (await someoneListens(socket)) throw new ChronoscopeError('internal', `the daemon (pid ${status.pid}) did not stop within 10 s`);
  if (json) printJson({ stopped: true, pid: status.pid, workspaces: status.workspaces });
  else printLine(`stopped the background service (pid ${status.pid})`);
}

async function daemon(options: DaemonOptions): Promise<void> {
  const store = defaultStoreHome();
  if (options.stop && options.status) throw new UsageError('choose one of --stop and --status');
  // The service itself prints a log, never JSON: --json alone is a mistake, not a request to serve.
  if (options.json && !options.stop && !options.status) throw new UsageError('--json goes with --status or --stop (usage: chronoscope daemon [--status | --stop] [--json])');
  if (options.stop) return stop(store, options.json === true);
  if (options.status) {
    const status = await serviceStatus(store);
    if (options.json) printJson({ store, running: status !== null, service: status });
    else printLines(describeService(store, status));
    return;
  }
  // A folder named by hand must exist; one named by a hook was just checked by it.
  const dirs = (options.workspace ?? []).map((dir) => workspaceDir({ workspace: dir }));
  const log = (line: string): void => printLine(`${new Date().toISOString()} chronoscope daemon: ${line}`);
  const end = await runDaemon({ home: store, workspaces: dirs, log, ...(options.idleExitMs === undefined ? {} : { idleExitMs: options.idleExitMs }) });
  // Started by hand while another process serves: say so in the exit code too (a hook's start is quiet).
  if (end === 'someone-serves' && options.startedByHook !== true) throw new ExitWith(0);
  // Its store is gone: leave now, abandoning the service's handles. Not
  // process.exit: proper-lockfile's exit handler would remove `agent.lock.lock`
  // by its path, which in a replaced store is another service's lock.
  if (end === 'store-gone') process.kill(process.pid, 'SIGKILL');
}

export const registerDaemon: RegisterCommand = (program: Command) => {
  program
    .command('daemon')
    .description('serve agent hooks in the background (hooks start it by themselves when no app runs); --status, --stop')
    .option('-w, --workspace <dir>', 'a workspace to watch from the start (repeatable); hooks add theirs', collect)
    .option('--status', 'whether a background service runs for the store, since when, and what it watches')
    .option('--stop', 'stop the background service (it finishes requests in flight)')
    .option('--json', 'print machine-readable JSON (with --status or --stop)')
    .addOption(new Option('--idle-exit-ms <ms>', 'leave after this long with no hook call (default: the settings, 30 min)').argParser(positiveMs).hideHelp())
    .addOption(new Option('--started-by-hook').hideHelp())
    .action((options: DaemonOptions) => daemon(options));
};
