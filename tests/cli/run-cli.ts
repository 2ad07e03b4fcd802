// Runs the built CLI as a real process, with a temporary CHRONOSCOPE_HOME and
// workspace per test.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '../paths.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  home: string;
  workspace: string;
  cli(args: readonly string[], options?: { cwd?: string }): CliRun;
  /** Parses stdout of a successful --json run. */
  json<T>(args: readonly string[]): T;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const base = mkdtempSync(join(tmpdir(), 'chronoscope-cli-'));
  const home = join(base, 'home');
  const workspace = mkdtempSync(join(base, 'ws-'));
  const cli = (args: readonly string[], options: { cwd?: string } = {}): CliRun => {
    const result = spawnSync(process.execPath, [CLI_PATH, ...args], {
      cwd: options.cwd ?? workspace,
      env: { ...process.env, CHRONOSCOPE_HOME: home, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  };
  return {
    home,
    workspace,
    cli,
    json<T>(args: readonly string[]): T {
      const run = cli([...args, '--json']);
      if (run.code !== 0) throw new Error(`chronoscope ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      return JSON.parse(run.stdout) as T;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** A fingerprint of every entry under root (contents, modes, link targets), .git excluded. */
export function treeFingerprint(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string, rel: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (rel === '' && name === '.git') continue;
      const path = join(dir, name);
      const relPath = rel === '' ? name : `${rel}/${name}`;
      const stat = lstatSync(path);
      hash.update(`${relPath}\0${stat.mode.toString(8)}\0`);
      if (stat.isSymbolicLink()) hash.update(readlinkSync(path));
      else if (stat.isDirectory()) walk(path, relPath);
      else hash.update(readFileSync(path));
      hash.update('\0');
    }
  };
  walk(root, '');
  return hash.digest('hex');
}
