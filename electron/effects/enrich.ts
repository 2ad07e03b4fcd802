// Fills in what the pure classifier left as placeholders, from the files of
// the workspace where the command will run: the current branch, the remote a
// branch pushes to, the commit a remote branch is at now (the push's "old"),
// the package name and version. Reads files only; anything unknown stays a
// placeholder, which is still an honest compensation template.
import { readTextBoundedSync } from '../fs/bounded-read.js';
import { resolve } from 'node:path';
import type { ClassifiedEffect } from '../../shared/model.js';
import { redactEffectText } from '../../shared/redact.js';
import { CURRENT_BRANCH, DEFAULT_REMOTE, OLD_COMMIT, PACKAGE_SPEC, classifyDetailed, refNames, type DetailedEffect } from './classify.js';
import { branchRemote, currentBranch, findGitDirs, readRef, type GitDirs } from './git-files.js';

/** Classifies a command and completes each effect with what the workspace at `cwd` knows. */
export function classifyInWorkspace(command: string, cwd: string): ClassifiedEffect[] {
  return classifyDetailed(command).map((d) => {
    try {
      // What the workspace's files filled in (a remote, a registry) may carry a credential too.
      return redactEffectText(enrich(d, cwd));
    } catch {
      return d.effect;
    }
  });
}

function replaceAll(e: ClassifiedEffect, from: string, to: string): ClassifiedEffect {
  const swap = (s: string): string => s.split(from).join(to);
  return { ...e, target: swap(e.target), summary: swap(e.summary), compensation: e.compensation === null ? null : swap(e.compensation) };
}

function enrich(d: DetailedEffect, cwd: string): ClassifiedEffect {
  let e = d.effect;
  if (d.push !== undefined) {
    const dirs = findGitDirs(resolve(cwd, d.push.dir ?? '.'));
    if (dirs === null) return e;
    const branch = currentBranch(dirs);
    if (branch !== null) e = replaceAll(e, CURRENT_BRANCH, branch);
    let remote = d.push.remote;
    if (remote === DEFAULT_REMOTE) {
      remote = (branch === null ? null : branchRemote(dirs.commonDir, branch)) ?? 'origin';
      e = replaceAll(e, DEFAULT_REMOTE, remote);
    }
    const update = d.push.update;
    if (update === null) return e;
    const dst = update.dst === CURRENT_BRANCH ? branch : update.dst;
    if (dst === null) return e;
    const { branch: name, ref, isTag } = refNames(dst);
    if (isTag || /[:/]/.test(remote) || remote.startsWith('<')) return e; // a URL remote has no tracking refs to read
    const old = readRef(dirs, `refs/remotes/${remote}/${name}`);
    if (update.delete) return old === null ? e : replaceAll(e, OLD_COMMIT, old);
    if (old === null) {
      // Nothing tracked there yet: the push creates the branch, and deleting it undoes that.
      const git = e.compensation?.startsWith('git -C ') === true ? (e.compensation.split(' push ')[0] ?? 'git') : 'git';
      return { ...e, compensation: `${git} push ${remote} --delete ${name}`, summary: `${e.summary} (new branch)` };
    }
    const next = sourceCommit(dirs, update.src, branch);
    const lease = next === null ? `--force-with-lease=${ref}` : `--force-with-lease=${ref}:${next}`;
    return { ...replaceAll(e, OLD_COMMIT, old), compensation: (e.compensation ?? '').replace(`--force-with-lease=${ref}`, lease).split(OLD_COMMIT).join(old) };
  }
  if (d.publish !== undefined) {
    const pkg = readPackage(resolve(cwd, d.publish.dir ?? '.'));
    if (pkg !== null) e = replaceAll(e, PACKAGE_SPEC, `${pkg.name}@${pkg.version}`);
    return e;
  }
  if (e.kind === 'pull_request' && e.compensation?.includes(CURRENT_BRANCH) === true) {
    const dirs = findGitDirs(cwd);
    const branch = dirs === null ? null : currentBranch(dirs);
    if (branch !== null) e = replaceAll(e, CURRENT_BRANCH, branch);
  }
  return e;
}

/** The commit the push will send: a local branch, HEAD, or a full id. */
function sourceCommit(dirs: GitDirs, src: string | null, branch: string | null): string | null {
  if (src === null) return null;
  if (/^[0-9a-f]{40,64}$/.test(src)) return src;
  if (src === 'HEAD') return branch === null ? readRef(dirs, 'HEAD') : readRef(dirs, `refs/heads/${branch}`);
  if (src.startsWith('refs/')) return readRef(dirs, src);
  return readRef(dirs, `refs/heads/${src}`);
}

function readPackage(dir: string): { name: string; version: string } | null {
  try {
    const text = readTextBoundedSync(resolve(dir, 'package.json'), 1024 * 1024);
    if (text === null) return null;
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { name, version } = parsed as { name?: unknown; version?: unknown };
    return typeof name === 'string' && typeof version === 'string' ? { name, version } : null;
  } catch {
    return null;
  }
}
