// Real processes for the hardening suite: start one and wait for a line it
// prints, kill it with SIGKILL, run the CLI with a deadline.
import { spawn, type ChildProcess } from 'node:child_process';

export interface Started {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
}

/** Starts node with `args` and resolves once stdout contains `ready` (rejects if it exits first or after `deadlineMs`). */
export function startUntil(args: string[], ready: string, env: NodeJS.ProcessEnv = process.env, deadlineMs = 30_000): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no '${ready}' within ${deadlineMs} ms: ${out}`));
    }, deadlineMs);
    const started: Started = { child, output: () => out };
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (out.includes(ready)) {
        clearTimeout(timer);
        resolve(started);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before '${ready}': ${out}`));
    });
  });
}

/** SIGKILL and wait until the process is gone (reaped). */
export function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
