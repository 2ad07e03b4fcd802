// Reads the person's own repository (the workspace's .git) the way their git
// would: their config (global included, for user.email, url.*.insteadOf and
// credential helpers), never the engine's isolated environment. Read-only
// commands only: the one thing sharing writes there is the pre-push hook
// (hook-file.ts). Also what the push side reads of it: the hooks folder, the
// remote's push URL, the commits a push carries (pre-push's refs).
import { execFile } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { ChronoscopeError, UsageError } from '../../shared/errors.js';

/** Environment keys that would point git at another repository than the workspace's. */
const REPO_KEYS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX'];

function personEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  for (const key of REPO_KEYS) delete env[key];
  return env;
}

/** stdout of `git -C root <args>`, or null when git says no (a key not set, not a repository). */
export function workspaceGit(root: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['-C', root, ...args], { env: personEnv(), maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (err, stdout) => {
      resolve(err ? null : stdout);
    });
  });
}

/** One config value of the workspace's repository (trimmed), or undefined. */
export async function workspaceConfig(root: string, key: string): Promise<string | undefined> {
  const out = await workspaceGit(root, ['config', '--get', key]);
  const value = out?.trim();
  return value ? value : undefined;
}

/** The repository's top folder, or a one-line usage error when `root` is not in a git work tree. */
export async function repoTop(root: string): Promise<string> {
  const top = await workspaceGit(root, ['rev-parse', '--show-toplevel']);
  if (top === null || top.trim() === '') throw new UsageError(`not a git repository: ${root} (sharing travels over the workspace's own git remote)`);
  return top.trim();
}

/** Where a push to `remote` goes: its pushurl, else its url. */
export async function remotePushUrl(root: string, remote: string): Promise<string> {
  const url = (await workspaceGit(root, ['remote', 'get-url', '--push', remote]))?.trim();
  if (!url) throw new ChronoscopeError('not_found', `remote ${JSON.stringify(remote)} has no URL`);
  return url;
}

/** The hooks folder git runs (core.hooksPath respected), absolute. */
export async function hooksDir(root: string): Promise<string> {
  const dir = (await workspaceGit(root, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks']))?.trim() ?? '';
  return dir;
}

export interface PushedRef {
  localRef: string;
  localSha: string;
  remoteRef: string;
  remoteSha: string;
}

const ZERO = /^0{40}$/;

/** pre-push's stdin: `<local ref> <local sha> <remote ref> <remote sha>` per line. */
export function parsePrePushLines(text: string): PushedRef[] {
  const out: PushedRef[] = [];
  for (const line of text.split('\n')) {
    const [localRef, localSha, remoteRef, remoteSha] = line.trim().split(/\s+/);
    if (!localRef || !localSha || !remoteRef || !remoteSha) continue;
    if (!/^[0-9a-f]{40}$/.test(localSha) || !/^[0-9a-f]{40}$/.test(remoteSha)) continue;
    out.push({ localRef, localSha, remoteRef, remoteSha });
  }
  return out;
}

export interface PushedCommit {
  sha: string;
  /** Committer time, ms. */
  timeMs: number;
  /** The first parent's committer time (ms), 0 for a root commit. */
  parentTimeMs: number;
}

/**
 * The commits a push carries: for each updated ref, what its new tip has that
 * the remote's old tip (or, for a new ref, any of the remote's known branches)
 * had not. Deletions carry nothing.
 */
export async function pushedCommits(root: string, refs: readonly PushedRef[], remote: string | null): Promise<PushedCommit[]> {
  const seen = new Map<string, PushedCommit>();
  for (const ref of refs) {
    if (ZERO.test(ref.localSha)) continue;
    const not = ZERO.test(ref.remoteSha) ? (remote ? [`--remotes=${remote}`] : []) : [ref.remoteSha];
    // A remote sha the workspace does not have (someone else pushed) cannot be excluded: fall back to the remote's branches.
    const haveOld = ZERO.test(ref.remoteSha) || (await workspaceGit(root, ['cat-file', '-e', `${ref.remoteSha}^{commit}`])) !== null;
    const exclude = haveOld ? not : remote ? [`--remotes=${remote}`] : [];
    const text = await workspaceGit(root, ['log', '--format=%H %ct %P', ref.localSha, '--not', ...exclude, '--']);
    const lines = (text ?? '').split('\n').map((line) => line.trim().split(' ')).filter((w) => w.length >= 2);
    const times = new Map(lines.map(([sha, ct]) => [sha!, Number(ct) * 1000]));
    for (const [sha, ct, parent] of lines) {
      if (!sha || !ct || seen.has(sha)) continue;
      // The parent's time: from this listing when the push carries it too, else one look-up.
      const parentTimeMs = parent ? (times.get(parent) ?? (await commitTimeMs(root, parent))) : 0;
      seen.set(sha, { sha, timeMs: Number(ct) * 1000, parentTimeMs });
    }
  }
  return [...seen.values()].sort((a, b) => a.timeMs - b.timeMs);
}

async function commitTimeMs(root: string, sha: string): Promise<number> {
  const text = await workspaceGit(root, ['log', '-1', '--format=%ct', sha, '--']);
  return text ? Number(text.trim()) * 1000 : 0;
}

/** A commit-ish of the workspace repository, as a full sha; null when it names none. */
export async function resolveCommit(root: string, commitish: string): Promise<string | null> {
  if (commitish.startsWith('-') || commitish.includes('\0')) return null;
  const sha = (await workspaceGit(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${commitish}^{commit}`]))?.trim();
  return sha && /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}

/**
 * A remote URL usable from the store's git dir: a local path is relative to
 * the repository's top folder (where git runs a push), so it is made absolute;
 * URLs (scheme://, scp-style host:path) pass unchanged.
 */
export function absoluteRemoteUrl(repo: string, url: string): string {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(url)) return url;
  const colon = url.indexOf(':');
  const slash = url.indexOf('/');
  if (colon > 0 && (slash < 0 || colon < slash)) return url; // host:path
  return isAbsolute(url) ? url : resolve(repo, url);
}
