// Builds a Hermes Agent /rollback store the way Hermes' checkpoint manager
// does (tools/checkpoint_manager.py, v2 layout): one bare repository
// $HERMES_HOME/checkpoints/store, per workdir a ref refs/hermes/<sha256(abs
// path)[:16]> holding a chain of commits (message = reason, author date =
// time), its index under indexes/<hash>, projects/<hash>.json with the
// workdir, the shared default excludes in info/exclude. `prune` rewrites the
// chain as Hermes' Pruner does (same tree, dates and subject on new parents,
// then gc), so every commit id changes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface HermesFixture {
  home: string;
  store: string;
  ref: string;
  /** Takes a checkpoint of the workdir as it is now, dated `seconds` (unix time). */
  take(reason: string, seconds: number): string;
  /** Keeps the newest `keep` checkpoints, rewriting every commit (new ids), then gc --prune=now. */
  prune(keep: number): void;
  commits(): string[];
}

/** A subset of Hermes' DEFAULT_EXCLUDES, enough to show that what Hermes leaves out is never removed by a restore of its checkpoint. */
const EXCLUDES = ['node_modules/', 'dist/', 'build/', '__pycache__/', '*.log', '*.zip', '.env', '.env.*', '.DS_Store'];

export function createHermesStore(home: string, workdir: string): HermesFixture {
  const real = fs.realpathSync(workdir);
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 16);
  const store = path.join(home, 'checkpoints', 'store');
  const ref = `refs/hermes/${hash}`;
  const baseEnv = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Hermes',
    GIT_AUTHOR_EMAIL: 'hermes@localhost',
    GIT_COMMITTER_NAME: 'Hermes',
    GIT_COMMITTER_EMAIL: 'hermes@localhost',
  };
  const git = (args: string[], env: Record<string, string> = {}): string =>
    execFileSync('git', args, { cwd: real, env: { ...baseEnv, GIT_DIR: store, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

  fs.mkdirSync(store, { recursive: true });
  execFileSync('git', ['init', '--bare', '--quiet', store], { env: baseEnv });
  fs.mkdirSync(path.join(store, 'info'), { recursive: true });
  fs.writeFileSync(path.join(store, 'info', 'exclude'), `${EXCLUDES.join('\n')}\n`);
  fs.mkdirSync(path.join(store, 'projects'), { recursive: true });
  fs.mkdirSync(path.join(store, 'indexes'), { recursive: true });
  const now = Math.floor(Date.now() / 1000);
  fs.writeFileSync(path.join(store, 'projects', `${hash}.json`), JSON.stringify({ workdir: real, created_at: now, last_touch: now }));

  const tip = (): string | null => {
    try {
      return git(['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
    } catch {
      return null;
    }
  };
  const commits = (): string[] => (tip() ? git(['rev-list', ref]).split('\n') : []);

  return {
    home,
    store,
    ref,
    commits,
    take(reason, seconds) {
      const index = { GIT_WORK_TREE: real, GIT_INDEX_FILE: path.join(store, 'indexes', hash) };
      git(['add', '-A'], index);
      const tree = git(['write-tree'], index);
      const parent = tip();
      const date = { GIT_AUTHOR_DATE: `@${seconds} +0000`, GIT_COMMITTER_DATE: `@${seconds} +0000` };
      const commit = git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', reason, '--no-gpg-sign'], date);
      git(['update-ref', ref, commit, ...(parent ? [parent] : [])]);
      return commit;
    },
    prune(keep) {
      const all = git(['rev-list', '--reverse', ref]).split('\n');
      const kept = all.slice(-keep);
      let parent: string | null = null;
      for (const sha of kept) {
        const [tree = '', authorDate = '', committerDate = '', message = ''] = git(['log', '-1', '--format=%T%x00%aI%x00%cI%x00%s', sha]).split('\0');
        parent = git(['commit-tree', tree, '--no-gpg-sign', '-m', message, ...(parent ? ['-p', parent] : [])], { GIT_AUTHOR_DATE: authorDate, GIT_COMMITTER_DATE: committerDate });
      }
      git(['update-ref', ref, parent as string, all[all.length - 1] as string]);
      git(['reflog', 'expire', '--expire=now', '--all']);
      git(['gc', '--prune=now', '--quiet']);
    },
  };
}

/**
 * Every entry under `dir` with its kind, mode, size, mtime and content hash,
 * folders included (a lock file created and removed again still changes its
 * folder's mtime): equal before and after means nothing was written.
 */
export function storeFingerprint(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      const st = fs.lstatSync(full);
      h.update(`${path.relative(dir, full)}\0${st.mode}\0${st.size}\0${st.mtimeMs}\0`);
      if (st.isDirectory()) walk(full);
      else if (st.isFile()) h.update(fs.readFileSync(full));
    }
  };
  const root = fs.lstatSync(dir);
  h.update(`.\0${root.mode}\0${root.mtimeMs}\0`);
  walk(dir);
  return h.digest('hex');
}
