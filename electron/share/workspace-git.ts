// Reading the person's own repository (the workspace's .git): its remotes, its
// upstream, its hooks folder, the commits a push carries. Read-only: the only
// thing sharing ever writes there is the pre-push hook (hook-file.ts).
//
// A git hook runs with GIT_DIR (and sometimes GIT_WORK_TREE, GIT_INDEX_FILE)
// set for the repository that runs it; those must not leak into the store's
// git or point these reads at the wrong folder, so they are dropped here.
import { execFile } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ChronoscopeError, UsageError } from '../../shared/errors.js';

const run = promisify(execFile);

/** The person's environment without the variables a hook's git sets for its own repository. */
export function personGitEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (/^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|PREFIX|QUARANTINE_PATH|COMMON_DIR|NAMESPACE)$/.test(key)) continue;
    out[key] = value;
  }
  // A background upload must never wait for a password prompt nobody sees.
  out['GIT_TERMINAL_PROMPT'] = '0';
  return out;
}

/** git in the workspace; null when it exits non-zero and `quiet` (a missing config key, not a repository). */
export async function wsGit(root: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run('git', ['-C', root, ...args], { env: personGitEnv(), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
  return stdout;
}

export async function wsGitQuiet(root: string, args: readonly string[]): Promise<string | null> {
  try {
    return await wsGit(root, args);
  } catch {
    return null;
  }
}

/** The repository's top folder, or a one-line usage error when `root` is not in a git work tree. */
export async function repoTop(root: string): Promise<string> {
  const top = await wsGitQuiet(root, ['rev-parse', '--show-toplevel']);
  if (top === null || top.trim() === '') throw new UsageError(`not a git repository: ${root} (sharing travels over the workspace's own git remote)`);
  return top.trim();
}

export async function remoteNames(root: string): Promise<string[]> {
  return ((await wsGitQuiet(root, ['remote'])) ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
}

/** The current branch's upstream remote, if it has one. */
async function upstreamRemote(root: string): Promise<string | null> {
  const branch = (await wsGitQuiet(root, ['symbolic-ref', '--quiet', '--short', 'HEAD']))?.trim();
  if (!branch) return null;
  return (await wsGitQuiet(root, ['config', '--get', `branch.${branch}.remote`]))?.trim() || null;
}

/**
 * The remote to share with: the one named (it must exist), else the current
 * branch's upstream remote, else the only remote; else the person must name one.
 */
export async function chooseRemote(root: string, named: string | undefined): Promise<string> {
  const remotes = await remoteNames(root);
  if (named !== undefined) {
    if (!remotes.includes(named)) throw new UsageError(`no such remote: ${JSON.stringify(named)} (remotes: ${remotes.join(', ') || 'none'})`);
    return named;
  }
  const upstream = await upstreamRemote(root);
  if (upstream !== null && remotes.includes(upstream)) return upstream;
  if (remotes.length === 1) return remotes[0]!;
  if (remotes.length === 0) throw new UsageError('this repository has no remote to share with (add one with git remote add)');
  throw new UsageError(`several remotes and no upstream: name one with --remote (${remotes.join(', ')})`);
}

/** Where a push to `remote` goes: its pushurl, else its url. */
export async function remotePushUrl(root: string, remote: string): Promise<string> {
  const url = (await wsGitQuiet(root, ['remote', 'get-url', '--push', remote]))?.trim();
  if (!url) throw new ChronoscopeError('not_found', `remote ${JSON.stringify(remote)} has no URL`);
  return url;
}

/** The hooks folder git runs (core.hooksPath respected), absolute. */
export async function hooksDir(root: string): Promise<string> {
  const dir = (await wsGit(root, ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'])).trim();
  return dir;
}

export async function configValue(root: string, key: string): Promise<string | null> {
  return (await wsGitQuiet(root, ['config', '--get', key]))?.trim() || null;
}

/**
 * The repository's own settings a push to its remote may need (credentials,
 * URL rewrites, proxies, ssh), as `-c key=value` for git running in the store:
 * the store's git reads only its own config, and a repository-level helper
 * would otherwise be missed.
 */
export async function carriedConfig(root: string): Promise<string[]> {
  const text = (await wsGitQuiet(root, ['config', '--local', '--get-regexp', '^(credential\\.|url\\.|http\\.|core\\.sshcommand$)'])) ?? '';
  const args: string[] = [];
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    args.push('-c', `${line.slice(0, space)}=${line.slice(space + 1)}`);
  }
  return args;
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
    const haveOld = ZERO.test(ref.remoteSha) || (await wsGitQuiet(root, ['cat-file', '-e', `${ref.remoteSha}^{commit}`])) !== null;
    const exclude = haveOld ? not : remote ? [`--remotes=${remote}`] : [];
    const text = await wsGitQuiet(root, ['log', '--format=%H %ct %P', ref.localSha, '--not', ...exclude, '--']);
    for (const line of (text ?? '').split('\n')) {
      const [sha, ct, parent] = line.trim().split(' ');
      if (!sha || !ct || seen.has(sha)) continue;
      seen.set(sha, { sha, timeMs: Number(ct) * 1000, parentTimeMs: parent ? await commitTimeMs(root, parent) : 0 });
    }
  }
  return [...seen.values()].sort((a, b) => a.timeMs - b.timeMs);
}

async function commitTimeMs(root: string, sha: string): Promise<number> {
  const text = await wsGitQuiet(root, ['log', '-1', '--format=%ct', sha, '--']);
  return text ? Number(text.trim()) * 1000 : 0;
}

/** A commit-ish of the workspace repository, as a full sha; null when it names none. */
export async function resolveCommit(root: string, commitish: string): Promise<string | null> {
  if (commitish.startsWith('-') || commitish.includes('\0')) return null;
  const sha = (await wsGitQuiet(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${commitish}^{commit}`]))?.trim();
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
