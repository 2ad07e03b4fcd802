// A team for share tests, with real git: a bare remote (filtering allowed
// unless asked otherwise), clones of it, each with its own Chronoscope store,
// and `publish`, which writes what a push leaves on the remote by the
// contract's layout (share-contract.md) with plain git — so pull tests do not
// depend on the push side.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '../paths.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Clone {
  dir: string;
  home: string;
  gitDir: string;
  cli(args: readonly string[]): CliRun;
  json<T>(args: readonly string[]): T;
}

const GIT_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: os.devNull, GIT_TERMINAL_PROMPT: '0' };

export function run(cmd: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(cmd, args, { cwd, env: { ...process.env, ...GIT_ENV, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

export function gitIn(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  return run('git', args, cwd, env);
}

export interface Team {
  base: string;
  /** The bare remote's path. */
  remote: string;
  /** A new clone with its own store; `url` defaults to the remote's path. */
  clone(name: string, options?: { remoteName?: string; email?: string; url?: string }): Clone;
  /** Shares every checkpoint of `from` not yet shared, as a push would (one share-log commit). */
  publish(from: Clone, options?: { person?: string; machine?: string }): void;
  cleanup(): void;
}

export function makeTeam(options: { filter?: boolean } = {}): Team {
  const base = realpathSync(mkdtempSync(join(os.tmpdir(), 'chronoscope-share-')));
  const remote = join(base, 'remote.git');
  gitIn(base, ['init', '-q', '--bare', '-b', 'main', remote]);
  gitIn(remote, ['config', 'uploadpack.allowFilter', options.filter === false ? 'false' : 'true']);
  const seed = join(base, 'seed');
  mkdirSync(seed);
  gitIn(seed, ['init', '-q', '-b', 'main']);
  writeFileSync(join(seed, 'README.md'), 'team project\n');
  gitIn(seed, ['add', '.']);
  gitIn(seed, ['-c', 'user.name=Seed', '-c', 'user.email=seed@example.com', 'commit', '-q', '-m', 'start']);
  gitIn(seed, ['push', '-q', remote, 'main']);
  const shared = new Map<string, { log: string | null; ids: Set<string> }>();

  const clone = (name: string, o: { remoteName?: string; email?: string; url?: string } = {}): Clone => {
    const dir = join(base, name);
    gitIn(base, ['clone', '-q', '-o', o.remoteName ?? 'origin', o.url ?? remote, dir]);
    gitIn(dir, ['config', 'user.email', o.email ?? `${name}@example.com`]);
    gitIn(dir, ['config', 'user.name', name[0]!.toUpperCase() + name.slice(1)]);
    const home = join(base, `${name}-store`);
    const cli = (args: readonly string[]): CliRun => {
      const r = spawnSync(process.execPath, [CLI_PATH, ...args], { cwd: dir, env: { ...process.env, ...GIT_ENV, CHRONOSCOPE_HOME: home, NO_COLOR: '1' }, encoding: 'utf8', timeout: 120_000 });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    };
    return {
      dir,
      home,
      gitDir: join(home, 'git'),
      cli,
      json<T>(args: readonly string[]): T {
        const r = cli([...args, '--json']);
        if (r.code !== 0) throw new Error(`chronoscope ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
        return JSON.parse(r.stdout) as T;
      },
    };
  };

  const publish = (from: Clone, o: { person?: string; machine?: string } = {}): void => {
    const email = gitIn(from.dir, ['config', 'user.email']).trim();
    const person = (o.person ?? email).toLowerCase().replace(/[^a-z0-9._-]/g, '-');
    const machine = (o.machine ?? os.hostname()).toLowerCase().replace(/[^a-z0-9._-]/g, '-');
    const clone = `w${createHash('sha256').update(realpathSync(from.dir)).digest('hex').slice(0, 10)}`;
    const ns = `refs/chronoscope/${person}/${machine}/${clone}`;
    const state = shared.get(ns) ?? { log: null, ids: new Set<string>() };
    const list = from.json<{ id: string; time_ms: number; shared?: unknown }[]>(['list', '--all']);
    const fresh = list.filter((c) => !c.shared && !state.ids.has(c.id)).sort((a, b) => a.time_ms - b.time_ms);
    if (fresh.length === 0) return;
    const message = `chronoscope share log\n\n${JSON.stringify({ v: 1, person: gitIn(from.dir, ['config', 'user.name']).trim(), email, machine: o.machine ?? os.hostname(), workspace: 'project', prompts: [], calls: [] })}\n`;
    const parents = [...(state.log ? [state.log] : []), ...fresh.map((c) => c.id)].flatMap((p) => ['-p', p]);
    const log = gitIn(from.gitDir, ['commit-tree', '4b825dc642cb6eb9a060e54bf8d69288fbee4904', ...parents, '-m', message], {
      GIT_AUTHOR_NAME: 'x', GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: 'x', GIT_COMMITTER_EMAIL: email,
    }).trim();
    gitIn(from.gitDir, ['push', '-q', remote, `${log}:${ns}/log`]);
    shared.set(ns, { log, ids: new Set([...state.ids, ...fresh.map((c) => c.id)]) });
  };

  return { base, remote, clone, publish, cleanup: () => rmSync(base, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 }) };
}

/** The store does not hold this object (asked without letting git fetch it). */
export function storeLacks(gitDir: string, oid: string): boolean {
  return spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', oid], { env: { ...process.env, ...GIT_ENV, GIT_NO_LAZY_FETCH: '1' } }).status !== 0;
}

/** The blob id of `path` in a clone's file as git would hash it. */
export function blobId(file: string): string {
  return execFileSync('git', ['hash-object', file], { encoding: 'utf8' }).trim();
}
