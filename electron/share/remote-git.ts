// git talking to the team's remote from the store's git dir: the engine's
// isolated environment and settings (git-env.ts), plus the person's carried
// credential settings (remote.ts) and, for the capability probe, a packet
// trace. Bounded in time: a hung connection is ended, never waited on for ever.
import { spawn } from 'node:child_process';
import { ChronoscopeError } from '../../shared/errors.js';
import { buildGitEnv, gitConfigArgs, type GitContext } from '../engine/git/git-env.js';
import type { ShareRemote } from './remote.js';

export interface RemoteRun {
  stdout: string;
  stderr: string;
}

export interface RemoteRunOptions {
  input?: string;
  /** Extra environment (GIT_TRACE_PACKET for the probe). */
  env?: Record<string, string>;
  /** Sees stderr as it arrives (git's progress lines). */
  onStderr?: (text: string) => void;
  /** Ends git after this long (default 10 minutes). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

export function storeGitContext(gitDir: string): GitContext {
  return { gitDir, cwd: gitDir };
}

/** `git <args>` in the store against `remote`; rejects with git's first error line. */
export function remoteGit(gitDir: string, remote: ShareRemote, args: readonly string[], options: RemoteRunOptions = {}): Promise<RemoteRun> {
  return storeGitRun(gitDir, [...remote.config.flatMap((pair) => ['-c', pair]), ...args], options, ` from ${remote.name}`);
}

/** git in the store with an environment of its own (a packet trace, lazy fetching off). */
export function storeGitRun(gitDir: string, args: readonly string[], options: RemoteRunOptions = {}, where = ''): Promise<RemoteRun> {
  const ctx = storeGitContext(gitDir);
  const child = spawn('git', [...gitConfigArgs(ctx), ...args], {
    cwd: gitDir,
    env: { ...buildGitEnv(ctx), ...options.env },
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => {
      err.push(chunk);
      options.onStderr?.(chunk.toString('utf8'));
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new ChronoscopeError('internal', `cannot run git: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0) return resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr });
      const why = timedOut ? 'timed out' : (stderr.split('\n').map((l) => l.trim()).find((l) => /^(fatal|error):/.test(l)) ?? stderr.split('\n').find((l) => l.trim()) ?? `exit code ${code ?? -1}`);
      reject(new ChronoscopeError('internal', `git ${verbOf(args)}${where} failed: ${why.trim()}`));
    });
    if (options.input !== undefined) {
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(options.input);
    }
  });
}

/** The git command of an argument list that may start with `-c key=value` pairs. */
function verbOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-c') i++;
    else if (!args[i]!.startsWith('-')) return args[i]!;
  }
  return '';
}
