// A `git` first on the PATH that notes each command, then runs the real one:
// tests that say which git commands a CLI process ran (a listing it must not need).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { baseEnv } from '../agents/run-cli.js';
import type { Sandbox } from './helpers.js';

export interface LoggedGit {
  /** The CLI's environment, with the logging git first on its PATH. */
  env: NodeJS.ProcessEnv;
  /** The log file (remove it to start counting afresh). */
  log: string;
  /** The git commands run so far, one line each. */
  commands(): string[];
}

export function loggedGit(s: Sandbox): LoggedGit {
  const bin = path.join(s.base, 'bin');
  fs.mkdirSync(bin);
  const log = path.join(s.base, 'git.log');
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  fs.writeFileSync(path.join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  const env = baseEnv(s.storeHome, { HOME: s.home, PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}` });
  return { env, log, commands: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter((l) => l !== '') : []) };
}
