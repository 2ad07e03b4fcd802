// Runs the built CLI as a real process, feeding stdin, with a minimal environment.
import { spawn } from 'node:child_process';
import type { Checkpoint, EffectRecord } from '../../shared/model.js';
import { CLI_PATH } from '../paths.js';
import { GIT_ENV } from '../effects/git-helpers.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `entry`: the script to run (default the package's bin). */
export function runCli(args: string[], options: { input?: string; env: NodeJS.ProcessEnv; cwd?: string; nodeArgs?: string[]; entry?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.entry ?? CLI_PATH, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/**
 * The environment for a CLI or hook process. Hooks get a long budget (and the Hermes plugin a long
 * hard timeout) so tests assert behaviour, not speed, on a loaded machine; the tests of the budget
 * and the timeout set their own. The daemon's tests turn auto-start back on.
 */
export function baseEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  // CHRONOSCOPE_DAEMON=0: a hook finding no app starts no background service (it would outlive the test).
  return { ...GIT_ENV, CHRONOSCOPE_DAEMON: '0', CHRONOSCOPE_HOME: home, CHRONOSCOPE_HOOK_BUDGET_MS: '120000', CHRONOSCOPE_HERMES_TIMEOUT_S: '120', ...extra };
}

/** A workspace's checkpoints (newest first) and effects, read through the real CLI. */
export async function listCheckpoints(home: string, ws: string): Promise<Checkpoint[]> {
  const r = await runCli(['list', '--json', '--all', '-w', ws], { env: baseEnv(home) });
  if (r.code !== 0) throw new Error(`list failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Checkpoint[];
}

export async function listEffects(home: string, ws: string): Promise<EffectRecord[]> {
  const r = await runCli(['effects', '--json', '-w', ws], { env: baseEnv(home) });
  if (r.code !== 0) throw new Error(`effects failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as EffectRecord[];
}
