// Runs git for the engine. One environment for every call (git-env.ts), two doors:
// - run()/git()/gitStdin(): child_process.spawn directly. This is the hot path
//   (snapshots, listing, diffs, restores run several git processes each), and
//   simple-git's raw() added ~0.5-1 ms of task-queue and plugin work per call on
//   top of the ~3-8 ms process spawn, with nothing we use in return;
// - gitSimple(): simple-git's raw(), kept for rare store-wide commands (init, gc)
//   where its environment guard costs nothing that matters. Loaded on first
//   use: a hook process that only snapshots never pays for it.
// Every door turns a git failure into a one-line ChronoscopeError('internal').
// CHRONOSCOPE_TRACE_GIT=1 prints each git call's duration to stderr (profiling).
import { spawn, type ChildProcess, type StdioNull } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { SimpleGit } from 'simple-git';
import { ChronoscopeError } from '../../../shared/errors.js';
import { buildGitEnv, gitConfigArgs, gitConfigPairs, GIT_CONFIG_KEYS, GIT_ENV_KEYS, type GitContext } from './git-env.js';

const TRACE = process.env['CHRONOSCOPE_TRACE_GIT'] === '1';

const clients = new Map<string, SimpleGit>();

function contextKey(ctx: GitContext): string {
  return JSON.stringify([ctx.gitDir, ctx.workTree, ctx.indexFile, ctx.excludeFile, ctx.cwd, ctx.plainPaths === true]);
}

function cwdOf(ctx: GitContext): string {
  return ctx.cwd ?? ctx.workTree ?? ctx.gitDir;
}

async function client(ctx: GitContext): Promise<SimpleGit> {
  const key = contextKey(ctx);
  let git = clients.get(key);
  if (!git) {
    const { simpleGit } = await import('simple-git');
    git = simpleGit({
      baseDir: cwdOf(ctx),
      config: gitConfigPairs(ctx),
      allowEnvironment: [...GIT_ENV_KEYS],
      allowConfig: [...GIT_CONFIG_KEYS],
      unsafe: { allowUnsafeConfigPaths: true },
      maxConcurrentProcesses: 4,
      trimmed: false,
    }).env(buildGitEnv(ctx));
    // A handful of contexts per workspace; keep the cache from growing without bound.
    if (clients.size > 256) clients.clear();
    clients.set(key, git);
  }
  return git;
}

export class GitFailure extends ChronoscopeError {
  constructor(
    readonly args: readonly string[],
    readonly stderr: string,
  ) {
    super('internal', `git ${args[0] ?? ''} failed: ${firstLine(stderr) || 'unknown error'}`);
  }
}

function firstLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).find((l) => l.length > 0) ?? '';
}

/** Rare store-wide commands through simple-git (see the header). */
export async function gitSimple(ctx: GitContext, args: string[]): Promise<string> {
  try {
    return await (await client(ctx)).raw(args);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new GitFailure(args, message);
  }
}

/** Ordinary git command; returns stdout as text. */
export async function git(ctx: GitContext, args: string[]): Promise<string> {
  return (await gitStdin(ctx, args)).stdout.toString('utf8');
}

export interface StdinRunOptions {
  input?: Buffer | string;
  /** Exit codes that are not failures (default [0]). */
  okCodes?: number[];
  /** Sees stdout as it arrives (progress, a streaming parse), besides collecting it. */
  onStdout?: (chunk: Buffer) => void;
  /** false: stdout is only handed to onStdout, not kept (a listing of 100,000 records is ~50 MB). */
  keepStdout?: boolean;
  /** Ends git (SIGTERM: it removes its own lock files) when aborted; the run then fails. */
  signal?: AbortSignal;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

/**
 * The one place a git child process is spawned: isolated environment, the
 * fixed -c settings, the work tree (or git dir) as cwd. Streaming readers
 * (cat-file --batch, the long-lived checker) use it directly.
 */
export function spawnGit(
  ctx: GitContext,
  args: readonly string[],
  stdio: [StdioNull | 'pipe', 'pipe', StdioNull | 'pipe'] = ['pipe', 'pipe', 'pipe'],
): ChildProcess {
  return spawn('git', [...gitConfigArgs(ctx), ...args], { cwd: cwdOf(ctx), env: buildGitEnv(ctx), stdio, windowsHide: true });
}

/** git with stdin and/or binary stdout. */
export function gitStdin(ctx: GitContext, args: string[], options: StdinRunOptions = {}): Promise<RunResult> {
  const run = startGit(ctx, args, options, options.input !== undefined);
  if (options.input !== undefined) run.stdin?.end(options.input);
  return run.done;
}

/** A running git reading its stdin as it is written (`write`), until `end`. */
export interface StreamingRun {
  write(data: string): void;
  end(): Promise<RunResult>;
}

/**
 * git reading a list while the caller is still making it: git starts on the
 * first entries (update-index hashes each path as it arrives) instead of
 * waiting for the whole list.
 */
export function gitStdinStream(ctx: GitContext, args: string[], options: Omit<StdinRunOptions, 'input'> = {}): StreamingRun {
  const run = startGit(ctx, args, options, true);
  run.done.catch(() => undefined); // reported by end()
  return {
    write: (data) => void run.stdin?.write(data),
    end: () => {
      run.stdin?.end();
      return run.done;
    },
  };
}

function startGit(ctx: GitContext, args: string[], options: Omit<StdinRunOptions, 'input'>, withStdin: boolean): { stdin: Writable | null; done: Promise<RunResult> } {
  const okCodes = options.okCodes ?? [0];
  const started = TRACE ? performance.now() : 0;
  const child = spawnGit(ctx, args, [withStdin ? 'pipe' : 'ignore', 'pipe', 'pipe']);
  const done = new Promise<RunResult>((resolve, reject) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const keep = options.keepStdout !== false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (keep) out.push(chunk);
      options.onStdout?.(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (e) => reject(new ChronoscopeError('internal', `cannot run git: ${e.message}`)));
    child.on('close', (code) => {
      if (TRACE) process.stderr.write(`[git ${(performance.now() - started).toFixed(1)} ms] ${args.slice(0, 3).join(' ')}\n`);
      const stderr = Buffer.concat(err).toString('utf8');
      const result = { stdout: Buffer.concat(out), stderr, code: code ?? -1 };
      if (okCodes.includes(result.code)) resolve(result);
      else reject(new GitFailure(args, stderr || `exit code ${result.code}`));
    });
  });
  child.stdin?.on('error', () => {
    /* EPIPE when git exits early; the close handler reports the failure */
  });
  const { signal } = options;
  if (signal) {
    const stop = (): void => void child.kill('SIGTERM');
    if (signal.aborted) stop();
    else {
      signal.addEventListener('abort', stop, { once: true });
      void done.catch(() => undefined).finally(() => signal.removeEventListener('abort', stop));
    }
  }
  return { stdin: child.stdin, done };
}

/** Splits NUL-terminated output (the -z formats) into its fields. */
export function splitNul(text: string): string[] {
  const parts = text.split('\0');
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const ZERO_OID = '0000000000000000000000000000000000000000';

/** A full object id of the store (SHA-1: the store is created by us). */
export function isObjectId(value: string): boolean {
  return /^[0-9a-f]{40}$/.test(value);
}
