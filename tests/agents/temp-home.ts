// A throw-away world for a real agent CLI: a temp folder holding the person's
// HOME, the Chronoscope store, a workspace, and a PATH without node (agents
// start hooks with a PATH of their own: the installed command must not need one).
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GIT_ENV } from '../effects/git-helpers.js';

export interface TempWorld {
  dir: string;
  /** $HOME for the agent and for `chronoscope hooks install`. */
  home: string;
  /** $CHRONOSCOPE_HOME. */
  store: string;
  /** The workspace the agent works in. */
  ws: string;
  /** A folder of every program of /usr/bin and /bin except node, to use as PATH. */
  noNodeBin: string;
  remove(): Promise<void>;
}

export async function tempWorld(prefix: string): Promise<TempWorld> {
  const dir = await mkdtemp(join(tmpdir(), `chronoscope-${prefix}-`));
  const world = { dir, home: join(dir, 'home'), store: join(dir, 'store'), ws: join(dir, 'project'), noNodeBin: join(dir, 'bin') };
  await mkdir(world.home, { recursive: true });
  await mkdir(world.ws, { recursive: true });
  await mkdir(world.noNodeBin, { recursive: true });
  for (const from of ['/usr/bin', '/bin']) {
    for (const name of await readdir(from).catch(() => [] as string[])) {
      if (name === 'node' || name === 'nodejs') continue;
      await symlink(join(from, name), join(world.noNodeBin, name)).catch(() => undefined);
    }
  }
  // Retries: a background upkeep a hook started may still be writing into the store.
  return { ...world, remove: () => rm(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 }) };
}

/**
 * The environment an agent CLI runs in: the world's HOME and store, no node on PATH (agents start hooks
 * with a PATH of their own: the installed command must not need one), a hook budget for a loaded
 * machine, and no background service; `extra`: the agent's own variables.
 */
export function agentEnv(world: TempWorld, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...GIT_ENV, HOME: world.home, PATH: world.noNodeBin, CHRONOSCOPE_HOME: world.store, CHRONOSCOPE_HOOK_BUDGET_MS: '25000', CHRONOSCOPE_DAEMON: '0', ...extra };
}

/** Writes the person's own `text` at `folder/name` in the world's HOME (the folder made first); gives the file's path. */
export async function personFile(world: TempWorld, folder: string, name: string, text: string): Promise<string> {
  await mkdir(join(world.home, folder), { recursive: true });
  const file = join(world.home, folder, name);
  await writeFile(file, text);
  return file;
}

/** Runs an agent CLI to its exit (killed after `limitMs`), its stdout and stderr together. */
export function runAgentProcess(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; limitMs: number }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.limitMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** git in `cwd` with the tests' identity. */
export function gitIn(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/** Makes the world's workspace a git repository with one commit and a bare `origin` beside it; gives the remote's path. */
export function repoWithRemote(world: TempWorld): string {
  gitIn(world.ws, ['init', '-q', '-b', 'main']);
  gitIn(world.ws, ['add', '-A']);
  gitIn(world.ws, ['commit', '-qm', 'first']);
  const remote = join(world.dir, 'remote.git');
  gitIn(world.dir, ['init', '-q', '--bare', remote]);
  gitIn(world.ws, ['remote', 'add', 'origin', remote]);
  return remote;
}
