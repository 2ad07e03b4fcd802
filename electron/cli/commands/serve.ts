// `chronoscope serve`: the browser host. The first line on stdout is the URL
// to open (token included) so scripts and tests can read it; logs follow.
// Ctrl-C (SIGINT) or SIGTERM closes the sockets, the server and the app, exit 0.
import { InvalidArgumentError, type Command } from 'commander';
import { createAppService } from '../../app/app-service.js';
import { createRouter } from '../../router/index.js';
import { checkBindHost, DEFAULT_PORT, LOOPBACK, startBrowserHost, type BrowserHost } from '../../server/browser-host.js';
import { packageVersion, rendererDir } from '../../server/paths.js';
import { collect, workspaceDir, type RegisterCommand } from '../context.js';
import { printLine } from '../output.js';
import { readAhead } from '../../server/read-ahead.js';

interface ServeOptions {
  workspace?: string[];
  port?: number;
  host: string;
  /** commander's --no-watch sets this false. */
  watch: boolean;
}

function portNumber(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n > 65_535) {
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 = any free port).');
  }
  return n;
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      // A second Ctrl-C while closing means "now": default handling ends the process.
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function serve(options: ServeOptions): Promise<void> {
  checkBindHost(options.host);
  // Check every folder before anything starts: a typo exits 1 with one line.
  const dirs = (options.workspace ?? []).map((dir) => workspaceDir({ workspace: dir }));
  const log = (line: string) => printLine(`chronoscope: ${line}`);

  const app = await createAppService({ host: 'browser', version: packageVersion(), watch: options.watch });
  // The page's first questions asked ahead while the browser loads it (read-ahead.ts).
  const router = readAhead(createRouter(app), app);
  let host: BrowserHost;
  const added: string[] = [];
  try {
    for (const dir of dirs) added.push((await app.addWorkspace(dir)).path);
    host = await startBrowserHost({
      app,
      router,
      rendererDir: rendererDir(),
      port: options.port ?? DEFAULT_PORT,
      fallbackToFreePort: options.port === undefined,
      log,
    });
  } catch (err) {
    await app.dispose();
    throw err;
  }

  printLine(host.url);
  const workspaces = await app.listWorkspaces();
  // The one the page opens: the folder given first (as the app spells it), else the list's first.
  void router.start(added[0] ?? workspaces[0]?.path);
  log(`serving on ${LOOPBACK}:${host.port} (store: ${app.info().store}); ${workspaces.length} workspace(s)${options.watch ? '' : '; automatic checkpoints off'}; Ctrl-C stops`);
  const signal = await untilSignal();
  log(`${signal}: stopping`);
  await host.close();
  router.dispose();
  await app.dispose();
}

export const registerServe: RegisterCommand = (program: Command) => {
  program
    .command('serve')
    .description('Serve the app to a browser on 127.0.0.1 (the first line printed is the URL to open, with its token)')
    .option('-w, --workspace <dir>', 'add a workspace folder to the list (repeatable)', collect)
    .option('-p, --port <n>', `port to listen on (default ${DEFAULT_PORT}, or a free one if taken; 0 = any free port)`, portNumber)
    .option('--host <address>', `address to bind; only ${LOOPBACK} is allowed`, LOOPBACK)
    // Browsing and restoring history without auto-checkpoints (e.g. where an agent's hook already takes them).
    .option('--no-watch', 'take no automatic checkpoints; checkpoints taken elsewhere still appear live')
    .action((options: ServeOptions) => serve(options));
};
