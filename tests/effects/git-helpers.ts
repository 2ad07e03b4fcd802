// Real git for the effects and hook tests, isolated from the machine's git setup.
import { execFileSync } from 'node:child_process';

export const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Like git(), with the reflog/commit time set in the past: for history that predates the workspace's registration. */
export function gitBackdated(cwd: string, secondsAgo: number, ...args: string[]): string {
  const date = `${Math.floor(Date.now() / 1000) - secondsAgo} +0000`;
  const env = { ...GIT_ENV, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date };
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Runs a recorded compensation command (plain words, no quoting needed) with real git. */
export function runCommandLine(cwd: string, line: string): string {
  const [cmd, ...args] = line.split(/\s+/).filter(Boolean);
  if (cmd !== 'git') throw new Error(`not a git command: ${line}`);
  return git(cwd, ...args);
}
