// The baseline: what Hermes Agent's built-in checkpoints do, step for step.
// A shadow git dir per workspace driven through GIT_DIR/GIT_WORK_TREE (here
// also an explicit private GIT_INDEX_FILE and the same config isolation the
// engine uses, so neither side pays for or benefits from the user's git setup).
//   snapshot: git add -A; git diff --cached --quiet (nothing staged → no commit); git commit
//   restore:  git cat-file -t <c>; a pre-rollback snapshot; git checkout <c> -- <paths | .>
//   list:     git log -n N with --shortstat (Hermes runs one `git diff --shortstat`
//             per entry; one log process giving the same stats is kinder to the baseline)
//   diff:     git diff --numstat <c>~ <c>; git diff <c>~ <c>
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from './git-process.js';

// Hermes' default excludes, written to info/exclude as it does.
const HERMES_EXCLUDES = [
  'node_modules/', 'dist/', 'build/', '.env', '.env.*', '.env.local', '.env.*.local', '__pycache__/', '*.pyc', '*.pyo',
  '.DS_Store', '*.log', '.cache/', '.next/', '.nuxt/', 'coverage/', '.pytest_cache/', '.venv/', 'venv/', '.git/',
];

export class Baseline {
  private readonly env: NodeJS.ProcessEnv;
  private readonly gitDir: string;

  constructor(
    private readonly root: string,
    home: string,
  ) {
    this.gitDir = join(home, 'shadow.git');
    // A minimal environment on purpose: no inherited GIT_* variables, no user or system config.
    this.env = {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: home,
      LANG: 'C',
      LC_ALL: 'C',
      GIT_DIR: this.gitDir,
      GIT_WORK_TREE: root,
      GIT_INDEX_FILE: join(this.gitDir, 'index'),
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_SYSTEM: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Hermes Checkpoint',
      GIT_AUTHOR_EMAIL: 'hermes@local',
      GIT_COMMITTER_NAME: 'Hermes Checkpoint',
      GIT_COMMITTER_EMAIL: 'hermes@local',
      GIT_TERMINAL_PROMPT: '0',
    };
  }

  private git(args: readonly string[], options: { allow?: number[]; input?: string } = {}) {
    const isolated = ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgSign=false', '-c', 'core.fsmonitor=false', '-c', 'gc.auto=0'];
    return git([...isolated, ...args], this.env, this.root, options);
  }

  /** git init and Hermes' setup of a new shadow repo. */
  async init(): Promise<void> {
    mkdirSync(this.gitDir, { recursive: true });
    await this.git(['init', '--quiet']);
    mkdirSync(join(this.gitDir, 'info'), { recursive: true });
    writeFileSync(join(this.gitDir, 'info', 'exclude'), `${HERMES_EXCLUDES.join('\n')}\n`);
    writeFileSync(join(this.gitDir, 'HERMES_WORKDIR'), `${this.root}\n`);
  }

  /** One checkpoint: the commit id, or null when nothing changed. */
  async snapshot(reason: string): Promise<string | null> {
    await this.git(['add', '-A']);
    const staged = await this.git(['diff', '--cached', '--quiet'], { allow: [1] });
    if (staged.code === 0) return null;
    await this.git(['commit', '--quiet', '-m', reason, '--allow-empty-message']);
    return this.head();
  }

  async head(): Promise<string> {
    return (await this.git(['rev-parse', 'HEAD'])).stdout.trim();
  }

  async count(): Promise<number> {
    return Number((await this.git(['rev-list', '--count', 'HEAD'])).stdout.trim());
  }

  async list(limit: number): Promise<number> {
    const out = await this.git(['log', `--format=%x1e%H%x1f%h%x1f%aI%x1f%s`, '--shortstat', '-n', String(limit)]);
    return out.stdout.split('\x1e').length - 1;
  }

  async diff(commit: string): Promise<void> {
    await this.git(['diff', '--numstat', `${commit}~1`, commit]);
    await this.git(['diff', '--no-color', `${commit}~1`, commit]);
  }

  async restore(commit: string, paths?: readonly string[]): Promise<void> {
    await this.git(['cat-file', '-t', commit]);
    await this.snapshot(`pre-rollback snapshot (restoring to ${commit.slice(0, 8)})`);
    await this.git(['checkout', commit, '--', ...(paths && paths.length > 0 ? paths : ['.'])]);
    await this.git(['log', '--format=%s', '-1', commit]);
  }

  /**
   * Adds `count` one-file commits quickly with git fast-import (the listing
   * only needs them to exist). Leaves the index behind HEAD, so run it last.
   */
  async seedCommits(count: number, path: string): Promise<void> {
    const parent = await this.head();
    const branch = (await this.git(['symbolic-ref', 'HEAD'])).stdout.trim();
    const now = Math.floor(Date.now() / 1000);
    const parts: string[] = [];
    for (let i = 0; i < count; i++) {
      const message = `seed ${i}`;
      const data = `seeded content ${i}\n`;
      parts.push(
        `commit ${branch}\n`,
        `committer Hermes Checkpoint <hermes@local> ${now} +0000\n`,
        `data ${Buffer.byteLength(message)}\n${message}\n`,
        i === 0 ? `from ${parent}\n` : '',
        `M 100644 inline ${path}\n`,
        `data ${Buffer.byteLength(data)}\n${data}\n`,
      );
    }
    await this.git(['fast-import', '--quiet'], { input: parts.join('') });
  }
}
