// Runs a verifier command line through the platform shell, with a time limit
// and a way to stop it; everything it prints goes to a log file and the last
// lines are kept in memory for the record. On POSIX the command gets its own
// process group, so stopping it stops what it started (a test runner's
// workers) too.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

export const TAIL_LINES = 40;
const TAIL_BYTES = 8192;
/** After SIGTERM, how long a command has to end before SIGKILL. */
const KILL_GRACE_MS = 2000;

export interface CommandOutcome {
  exit_code: number | null;
  duration_ms: number;
  timed_out: boolean;
  cancelled: boolean;
  output_tail: string;
}

export interface RunCommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  logFile: string;
  signal?: AbortSignal;
}

/** The last TAIL_LINES lines of what was seen, within TAIL_BYTES. */
class Tail {
  private text = '';
  push(chunk: string): void {
    this.text = (this.text + chunk).slice(-TAIL_BYTES);
  }
  value(): string {
    const lines = this.text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines.slice(-TAIL_LINES).join('\n');
  }
}

export function runCommand(command: string, options: RunCommandOptions): Promise<CommandOutcome> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const log = createWriteStream(options.logFile, { mode: 0o600 });
    const tail = new Tail();
    const child = spawn(command, {
      shell: true,
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      signalTree(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => signalTree(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const limit = setTimeout(() => {
      timedOut = true;
      tail.push(`\n[chronoscope: stopped after the time limit of ${Math.round(options.timeoutMs / 1000)} s]\n`);
      stop();
    }, options.timeoutMs);
    const onAbort = (): void => {
      cancelled = true;
      stop();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    const onData = (chunk: Buffer): void => {
      log.write(chunk);
      tail.push(chunk.toString('utf8'));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', (err) => {
      clearTimeout(limit);
      log.end();
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(limit);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      // The group may hold on after the shell ended (a background process): end it.
      if (process.platform !== 'win32') signalTree(child.pid, 'SIGKILL');
      log.end(() =>
        resolve({
          exit_code: timedOut || cancelled ? null : code,
          duration_ms: Math.round(performance.now() - started),
          timed_out: timedOut,
          cancelled,
          output_tail: tail.value(),
        }),
      );
    });
  });
}

function signalTree(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    else process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}
