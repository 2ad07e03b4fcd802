// The one place that decides what environment and config every git process
// of the engine sees. The environment is built from scratch on purpose:
// - a passed-through process.env may carry GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_*,
//   an editor or pager from the user's shell or from an agent running us inside
//   its own git hook, any of which would point git at the wrong repository or run
//   foreign programs;
// - simple-git 4 rejects GIT_* keys it was not told about and refuses
//   GIT_CONFIG_GLOBAL without unsafe.allowUnsafeConfigPaths, so every key we set is
//   named once here and handed to it as allowEnvironment.
import os from 'node:os';

export interface GitContext {
  gitDir: string;
  /** Absent for store-wide commands (gc, fsck, for-each-ref over all refs). */
  workTree?: string;
  indexFile?: string;
  /** The workspace's generated exclude file. */
  excludeFile?: string;
  /** check-ignore refuses literal pathspecs (it takes plain paths anyway). */
  plainPaths?: boolean;
  /** cwd of the git process; defaults to the work tree, else the git dir. */
  cwd?: string;
}

export const GIT_IDENTITY = { name: 'Chronoscope', email: 'chronoscope@localhost' } as const;

let fsyncOn = true;

/**
 * Durability is always on in the product. Only `npm run bench` turns it off,
 * for a measured while, to print what it costs beside what it saves.
 */
export function setFsyncForMeasurement(on: boolean): void {
  fsyncOn = on;
}

export function fsyncEnabled(): boolean {
  return fsyncOn;
}

/** Every environment key buildGitEnv may set (simple-git's allowEnvironment). */
export const GIT_ENV_KEYS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_LITERAL_PATHSPECS',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'HOME',
  'GLIBC_TUNABLES',
] as const;

/**
 * glibc's malloc gives freed memory back to the system once 128 KB sit free
 * at the top of the heap. Git hashing files frees its zlib and file buffers
 * after each one, so every file paid for a trim, a TLB flush and the page
 * faults of zeroing them again: 20,000 files took `update-index` 14 s, of
 * which 30 % in the kernel's unmapping; with a 64 MB threshold, 7.5 s. Other
 * C libraries ignore the variable.
 */
const MALLOC_TUNING = 'glibc.malloc.trim_threshold=67108864';

export function buildGitEnv(ctx: GitContext): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    // git needs a HOME to exist but reads nothing from it: global and system
    // config are pointed at the null device below.
    HOME: process.env['HOME'] ?? os.homedir(),
    LANG: 'C',
    LC_ALL: 'C',
    TMPDIR: os.tmpdir(),
    GIT_DIR: ctx.gitDir,
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_SYSTEM: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: GIT_IDENTITY.name,
    GIT_AUTHOR_EMAIL: GIT_IDENTITY.email,
    GIT_COMMITTER_NAME: GIT_IDENTITY.name,
    GIT_COMMITTER_EMAIL: GIT_IDENTITY.email,
    GIT_TERMINAL_PROMPT: '0',
    // Readers (list, diff) must not take index.lock to refresh stat data.
    GIT_OPTIONAL_LOCKS: '0',
    GLIBC_TUNABLES: MALLOC_TUNING,
  };
  if (process.platform === 'win32') {
    for (const key of ['SystemRoot', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'TEMP', 'TMP']) {
      const value = process.env[key];
      if (value) env[key] = value;
    }
  }
  if (!ctx.plainPaths) env['GIT_LITERAL_PATHSPECS'] = '1';
  if (ctx.workTree !== undefined) env['GIT_WORK_TREE'] = ctx.workTree;
  if (ctx.indexFile !== undefined) env['GIT_INDEX_FILE'] = ctx.indexFile;
  return env;
}

/** Config keys set with -c (simple-git's allowConfig). */
export const GIT_CONFIG_KEYS = [
  'core.hooksPath',
  'commit.gpgSign',
  'tag.gpgSign',
  'core.fsmonitor',
  'gc.auto',
  'core.excludesFile',
  'core.attributesFile',
  'core.autocrlf',
  'core.safecrlf',
  'core.symlinks',
  'core.quotepath',
  'core.fileMode',
  'core.bigFileThreshold',
  'core.fsync',
  'core.sharedRepository',
  'core.fsyncMethod',
  'diff.renames',
  'diff.external',
  'i18n.logOutputEncoding',
] as const;

/** `key=value` pairs (simple-git's `config` option adds the -c itself). */
export function gitConfigPairs(ctx: GitContext): string[] {
  const pairs: [string, string][] = [
    ['core.hooksPath', os.devNull],
    ['commit.gpgSign', 'false'],
    ['tag.gpgSign', 'false'],
    ['core.fsmonitor', 'false'],
    ['gc.auto', '0'],
    ['core.excludesFile', ctx.excludeFile ?? os.devNull],
    // The user's global attributes file could turn on eol conversion; the
    // store's info/attributes neutralises the workspace's own .gitattributes.
    ['core.attributesFile', os.devNull],
    ['core.autocrlf', 'false'],
    ['core.safecrlf', 'false'],
    ['core.symlinks', 'true'],
    ['core.quotepath', 'false'],
    ['i18n.logOutputEncoding', 'UTF-8'],
    // "Reported as taken" means durable: git fsyncs the objects and packs it
    // writes (the folders and our commit and ref: loose-write.ts).
    ['core.fsync', fsyncOn ? 'committed' : 'none'],
    // The store is owner-only: git creates its files 0600 (objects 0400) and
    // folders 0700 whatever the umask of the process that runs it.
    ['core.sharedRepository', '0600'],
    ['core.fsyncMethod', 'fsync'],
  ];
  if (process.platform !== 'win32') pairs.push(['core.fileMode', 'true']);
  return pairs.map(([k, v]) => `${k}=${v}`);
}

export function gitConfigArgs(ctx: GitContext): string[] {
  return gitConfigPairs(ctx).flatMap((pair) => ['-c', pair]);
}

/**
 * Written to <store>/git/info/attributes, which outranks every .gitattributes
 * in a work tree: a snapshot must store bytes exactly as they are on disk (no
 * eol normalisation, no clean/smudge filters, no re-encoding), or a restore
 * would not be byte-identical.
 */
export const STORE_ATTRIBUTES = '* -text !eol -filter -ident !working-tree-encoding !diff\n';
