// A team for the push side's tests: a bare remote that allows filtering, with
// a branch and a tag of its own, and clones of it, each a workspace with a
// store of its own (or a shared one), driven through the real CLI and real git.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '../paths.js';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, input?: string): Run {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000, ...(input === undefined ? {} : { input }) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function gitOk(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  const r = git(cwd, args, env);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

export interface Clone {
  dir: string;
  home: string;
  cli(args: readonly string[], env?: NodeJS.ProcessEnv): Run;
  cliAsync(args: readonly string[]): Promise<Run>;
}

export interface Team {
  base: string;
  remote: string;
  clone(name: string, options?: { home?: string; remoteName?: string; email?: string; url?: string }): Clone;
}

const IDENTITY = { GIT_AUTHOR_NAME: 'Seed', GIT_AUTHOR_EMAIL: 'seed@example.com', GIT_COMMITTER_NAME: 'Seed', GIT_COMMITTER_EMAIL: 'seed@example.com' };

/** A bare remote (uploadpack.allowFilter on) holding `main` and a tag `v1`. */
export function makeTeam(): Team {
  const base = mkdtempSync(join(tmpdir(), 'chronoscope-sharepush-'));
  const remote = join(base, 'remote.git');
  gitOk(base, ['init', '-q', '--bare', '-b', 'main', remote]);
  gitOk(remote, ['config', 'uploadpack.allowFilter', 'true']);
  const seed = join(base, 'seed');
  gitOk(base, ['clone', '-q', remote, seed]);
  gitOk(seed, ['commit', '-q', '--allow-empty', '-m', 'seed'], IDENTITY);
  gitOk(seed, ['tag', 'v1']);
  gitOk(seed, ['push', '-q', 'origin', 'HEAD:main', 'v1']);
  return {
    base,
    remote,
    clone(name, options = {}) {
      const dir = join(base, name);
      const home = options.home ?? join(base, `${name}-store`);
      gitOk(base, ['clone', '-q', '-o', options.remoteName ?? 'origin', options.url ?? remote, dir]);
      gitOk(dir, ['config', 'user.email', options.email ?? `${name}@example.com`]);
      gitOk(dir, ['config', 'user.name', name]);
      const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...process.env, CHRONOSCOPE_HOME: home, CHRONOSCOPE_DAEMON: '0', NO_COLOR: '1', ...extra });
      return {
        dir,
        home,
        cli(args, extra) {
          const r = spawnSync(process.execPath, [CLI_PATH, ...args], { cwd: dir, env: env(extra), encoding: 'utf8', timeout: 120_000 });
          return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
        },
        cliAsync(args) {
          return new Promise((resolve) => {
            const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: dir, env: env() });
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
            child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
            child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
          });
        },
      };
    },
  };
}

/** Waits for `check` to hold, polling; fails with `what` after a generous limit (the machine may be loaded). */
export async function pollFor<T>(what: string, check: () => T | null | undefined | false, limitMs = 90_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `<sha> <refname>` of the remote's refs under `prefix`, or all. */
export function remoteRefs(remote: string, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of gitOk(remote, ['for-each-ref', '--format=%(refname) %(objectname)', ...(prefix ? [prefix] : [])]).split('\n')) {
    const [name, sha] = line.split(' ');
    if (name && sha) out.set(name, sha);
  }
  return out;
}

/** Every object the remote holds, contents concatenated (to look for what must never arrive). */
export function remoteObjectText(remote: string): string {
  const r = spawnSync('git', ['cat-file', '--batch-all-objects', '--batch'], { cwd: remote, maxBuffer: 512 * 1024 * 1024 });
  // Trees and packs are binary; the texts we look for are stored as written (loose or packed, cat-file inflates both).
  return r.stdout.toString('latin1');
}

/** Name, mode, and content (or link target) of every entry in a folder: what a byte-for-byte restore must match. */
export function folderFingerprint(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const path = join(dir, name);
      const st = lstatSync(path);
      const body = st.isSymbolicLink() ? `-> ${readlinkSync(path)}` : st.isFile() ? readFileSync(path).toString('base64') : 'dir';
      return `${name} ${st.mode.toString(8)} ${body}`;
    });
}
