// Reading a user's repository without running git: where its git directory
// is (a `.git` folder, or a `.git` file pointing elsewhere for worktrees and
// submodules), its remotes, its refs. Only ever reads.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readTextBoundedSync } from '../fs/bounded-read.js';

/** HEAD, config, a ref, a .git file: small; anything bigger (or a FIFO, /dev/zero) is not what we look for. */
const GIT_FILE_MAX = 1024 * 1024;

export interface GitDirs {
  /** The worktree's own git dir (HEAD lives here). */
  gitDir: string;
  /** The shared git dir (refs, logs of remote refs, config). */
  commonDir: string;
}

function readText(path: string): string | null {
  return readTextBoundedSync(path, GIT_FILE_MAX);
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The git directories of the repository containing `start` (searching upwards), or null. */
export function findGitDirs(start: string): GitDirs | null {
  let dir = resolve(start);
  for (;;) {
    const dotGit = join(dir, '.git');
    let gitDir: string | null = null;
    if (isDir(dotGit)) gitDir = dotGit;
    else {
      const text = readText(dotGit);
      const m = text === null ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (m?.[1] !== undefined) gitDir = isAbsolute(m[1]) ? m[1] : resolve(dir, m[1]);
    }
    if (gitDir !== null) {
      const common = readText(join(gitDir, 'commondir'))?.trim();
      const commonDir = common === undefined || common === '' ? gitDir : isAbsolute(common) ? common : resolve(gitDir, common);
      return { gitDir, commonDir };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** `[remote "name"] url = …` from the repository's config file (no includes). */
export function readRemotes(commonDir: string): Map<string, string> {
  const remotes = new Map<string, string>();
  const text = readText(join(commonDir, 'config'));
  if (text === null) return remotes;
  let current: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const section = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/.exec(line);
    if (section !== null) {
      current = section[1] ?? null;
      continue;
    }
    if (line.startsWith('[')) {
      current = null;
      continue;
    }
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (current !== null && kv !== null && !remotes.has(current)) {
      remotes.set(current, (kv[1] ?? '').replace(/^"(.*)"$/, '$1'));
    }
  }
  return remotes;
}

/** The commit a ref points at (loose ref or packed-refs), or null. */
export function readRef(dirs: GitDirs, ref: string): string | null {
  for (const base of [dirs.gitDir, dirs.commonDir]) {
    const loose = readText(join(base, ref))?.trim();
    if (loose !== undefined && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  }
  const packed = readText(join(dirs.commonDir, 'packed-refs'));
  if (packed === null) return null;
  for (const line of packed.split('\n')) {
    const m = /^([0-9a-f]{40,64}) (.+)$/.exec(line.trim());
    if (m !== null && m[2] === ref) return m[1] ?? null;
  }
  return null;
}

/** The branch HEAD is on, or null when detached. */
export function currentBranch(dirs: GitDirs): string | null {
  const head = readText(join(dirs.gitDir, 'HEAD'));
  const m = head === null ? null : /^ref:\s*refs\/heads\/(.+?)\s*$/.exec(head);
  return m?.[1] ?? null;
}

/** `branch.<name>.remote` from the config, for a push with no remote named. */
export function branchRemote(commonDir: string, branch: string): string | null {
  const text = readText(join(commonDir, 'config'));
  if (text === null) return null;
  let inBranch = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const section = /^\[\s*branch\s+"((?:[^"\\]|\\.)*)"\s*\]/.exec(line);
    if (section !== null) {
      inBranch = section[1] === branch;
      continue;
    }
    if (line.startsWith('[')) {
      inBranch = false;
      continue;
    }
    const kv = /^remote\s*=\s*(.*)$/i.exec(line);
    if (inBranch && kv !== null) return kv[1] ?? null;
  }
  return null;
}

/** The folder holding the `.git` of the repository containing `start`, or null. */
export function findRepoRoot(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (readText(join(dir, '.git')) !== null || isDir(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
