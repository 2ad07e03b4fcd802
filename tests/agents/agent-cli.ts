// Finding a real agent CLI installed by `npm run install:agents`
// (scripts/install-agents.mjs): each in its own prefix under .cache/agents, or
// $CHRONOSCOPE_AGENT_CACHE. A test of an agent that is missing skips, and says
// why, instead of failing.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths.js';

export interface FoundCli {
  /** The executable to run (the package's bin), or null when missing. */
  bin: string | null;
  /** Why it is missing ('' when found). */
  why: string;
}

export function agentCache(): string {
  return process.env['CHRONOSCOPE_AGENT_CACHE'] || join(REPO_ROOT, '.cache', 'agents');
}

/**
 * `name`: the install-agents key (codex, gemini, copilot, opencode); `bin`: its command in
 * node_modules/.bin, or the path (inside the prefix's node_modules) of a native binary the package
 * ships, where `*` stands for any one folder: run directly, it needs no node on PATH.
 */
export function findAgentCli(name: string, bin: string, versionArgs: string[] = ['--version']): FoundCli {
  const prefix = join(agentCache(), name);
  const path = bin.includes('/') ? (expand(join(prefix, 'node_modules'), bin.split('/')) ?? join(prefix, 'node_modules', bin)) : join(prefix, 'node_modules', '.bin', bin);
  if (!existsSync(path)) return { bin: null, why: `${path} is missing (npm run install:agents -- ${name})` };
  try {
    execFileSync(path, versionArgs, { stdio: 'ignore', timeout: 60_000 });
    return { bin: path, why: '' };
  } catch (err) {
    return { bin: null, why: `${path} does not run here: ${(err as Error).message.split('\n')[0]}` };
  }
}

/** Says once, on stdout, why a real-CLI test skips. */
export function sayIfSkipped(label: string, found: FoundCli): void {
  if (found.bin === null) process.stdout.write(`skipping the real ${label} test: ${found.why}\n`);
}

/** The first existing path matching `parts` under `root` (`*`: any entry of that folder). */
function expand(root: string, parts: string[]): string | null {
  const [head, ...rest] = parts;
  if (head === undefined) return existsSync(root) ? root : null;
  const names = head === '*' ? (() => { try { return readdirSync(root); } catch { return []; } })() : [head];
  for (const n of names) {
    const found = expand(join(root, n), rest);
    if (found !== null) return found;
  }
  return null;
}
