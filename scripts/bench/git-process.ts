// Runs git as a child process and collects its output: what the baseline
// does for every step, the way Hermes' checkpoint manager shells out.
import { spawn } from 'node:child_process';

export interface GitRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runGit(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, input?: string): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], { env, cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
    if (child.stdin) {
      // git may exit before reading everything (it failed): the close handler reports that.
      child.stdin.on('error', () => {});
      child.stdin.end(input);
    }
  });
}

/** Like runGit, but a non-zero exit (other than the allowed ones) is an error. */
export async function git(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string, options: { allow?: number[]; input?: string } = {}): Promise<GitRun> {
  const result = await runGit(args, env, cwd, options.input);
  if (result.code !== 0 && !(options.allow ?? []).includes(result.code)) {
    throw new Error(`git ${args[0] ?? ''} failed (${result.code}): ${result.stderr.split('\n')[0] ?? ''}`);
  }
  return result;
}
