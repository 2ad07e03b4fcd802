// `chronoscope share push` and the upload the pre-push hook asks for: this
// workspace's not-yet-shared checkpoints go to the remote as a fast-forward of
// this clone's own share-log ref, with the notes linking the pushed commits.
// Only our refs are named in the push, so git sends only what they reach that
// the remote lacks: never the remote's branches or tags, never another
// workspace's objects of the shared store.
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ChronoscopeError } from '../../shared/errors.js';
import { withLock } from '../engine/support/lock.js';
import type { ShareContext } from './context.js';
import { localShareRef, NOTES_REF, remoteNamespace } from './identity.js';
import { addNotes, linksFor } from './notes.js';
import { batchOf, resolveRef, shareableCommits, sharedCheckpointIds, writeLogCommit, type ShareBatch } from './share-log.js';
import { absoluteRemoteUrl, carriedConfig, personGitEnv, pushedCommits, remotePushUrl, type PushedRef } from './workspace-git.js';

const run = promisify(execFile);

export interface PushRequest {
  /** The remote's name in the workspace (its settings are carried over), or null when the push named a URL. */
  remote: string | null;
  url: string;
  /** pre-push's refs, for the notes; none for a push by hand. */
  pushedRefs?: readonly PushedRef[];
}

export interface PushResult {
  remote: string | null;
  /** The URL, credentials masked. */
  url: string;
  namespace: string;
  checkpoints: number;
  prompts: number;
  notes: number;
  /** What git said (its progress lines, "Writing objects: … N bytes"). */
  gitOutput: string;
}

/** What a push would send now. */
export async function pendingBatch(ctx: ShareContext): Promise<ShareBatch> {
  const shared = await sharedCheckpointIds(ctx.gitCtx, localShareRef(ctx.workspace.meta.id, 'log'));
  return batchOf(await ctx.workspace.list(), shared, await ctx.ledger.read());
}

export async function pushShare(ctx: ShareContext, request: PushRequest): Promise<PushResult> {
  // One upload of a workspace at a time: two pushes in a row must not build two logs on one base.
  return withLock(path.join(ctx.wsDir, 'share.lock'), () => pushLocked(ctx, request), { what: 'sharing' });
}

async function pushLocked(ctx: ShareContext, request: PushRequest): Promise<PushResult> {
  const id = ctx.workspace.meta.id;
  const logRef = localShareRef(id, 'log');
  const notesRef = localShareRef(id, 'notes');
  const all = await ctx.workspace.list();
  const ledger = await ctx.ledger.read();
  const batch = batchOf(all, await sharedCheckpointIds(ctx.gitCtx, logRef), ledger);
  const previous = await resolveRef(ctx.gitCtx, logRef);
  let newLog = previous;
  let rewrittenAll = new Map<string, string>();
  if (batch.checkpoints.length > 0) {
    rewrittenAll = await shareableCommits(ctx.gitCtx, batch.checkpoints.map((c) => c.id));
    const rewritten = Object.fromEntries([...rewrittenAll].filter(([local, shared]) => local !== shared));
    newLog = await writeLogCommit(ctx.gitCtx, {
      previous,
      parents: batch.checkpoints.map((c) => rewrittenAll.get(c.id) ?? c.id),
      author: { name: ctx.identity.name, email: ctx.identity.email },
      body: {
        v: 1,
        person: ctx.identity.name,
        email: ctx.identity.email,
        machine: ctx.identity.hostname,
        workspace: path.basename(ctx.workspace.root),
        prompts: batch.prompts,
        calls: batch.calls,
        ...(Object.keys(rewritten).length > 0 ? { rewritten } : {}),
      },
    });
  }
  // Notes: the commits this push carries, linked to the work before them.
  const commits = request.pushedRefs ? await pushedCommits(ctx.repo, request.pushedRefs, request.remote) : [];
  const links = linksFor(commits, all, ledger, (local) => rewrittenAll.get(local) ?? local, ctx.identity);
  const notesTip = links.length > 0 ? await addNotes(ctx.gitCtx, notesRef, links) : await resolveRef(ctx.gitCtx, notesRef);
  if (links.length > 0) await addNotes(ctx.gitCtx, NOTES_REF, links);

  const ns = remoteNamespace(ctx.identity);
  const refspecs = [...(newLog ? [`${newLog}:${ns}/log`] : []), ...(notesTip ? [`${notesTip}:${ns}/notes`] : [])];
  let gitOutput = '';
  if (refspecs.length > 0) {
    gitOutput = await gitPush(ctx, request, refspecs);
    if (newLog !== null && newLog !== previous) await moveRef(ctx, logRef, newLog, previous);
  }
  return { remote: request.remote, url: maskUrl(request.url), namespace: ns, checkpoints: batch.checkpoints.length, prompts: batch.prompts.length, notes: links.length, gitOutput };
}

async function moveRef(ctx: ShareContext, ref: string, to: string, from: string | null): Promise<void> {
  await run('git', ['--git-dir', ctx.gitCtx.gitDir, 'update-ref', ref, to, from ?? '0'.repeat(40)], { env: personGitEnv() });
}

/**
 * git push from the store's git dir to the workspace remote's URL, naming our
 * refs only. It reads the person's global git config (their credential helper,
 * ssh, proxy) plus the repository's own (carriedConfig), but no hook of the
 * store runs and nothing follows the refs (no tags, no submodules).
 */
async function gitPush(ctx: ShareContext, request: PushRequest, refspecs: readonly string[]): Promise<string> {
  const carried = request.remote ? await carriedConfig(ctx.repo) : [];
  const args = [
    '--git-dir', ctx.gitCtx.gitDir,
    ...carried,
    '-c', `core.hooksPath=${os.devNull}`,
    '-c', 'push.followTags=false',
    '-c', 'push.gpgSign=false',
    '-c', 'push.recurseSubmodules=no',
    'push', '--porcelain', '--progress', '--no-verify', '--', request.url, ...refspecs,
  ];
  try {
    const { stdout, stderr } = await run('git', args, { env: personGitEnv(), maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' });
    return `${stderr}${stdout}`;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string };
    const said = `${e.stdout ?? ''}\n${e.stderr ?? ''}`;
    const line = said.split('\n').map((l) => l.trim()).find((l) => /^!|rejected|error|fatal/.test(l)) ?? 'git push failed';
    throw new ChronoscopeError('internal', `sharing to ${maskUrl(request.url)} failed: ${line}`);
  }
}

/** A URL as shown: user-info (a token in https://user:token@host) masked. */
export function maskUrl(url: string): string {
  return url.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s]*@/, '$1***@');
}

/** The request for `share push [--remote NAME]`: the remote named, else the one sharing was enabled with. */
export async function manualRequest(ctx: ShareContext, remote: string): Promise<PushRequest> {
  return { remote, url: absoluteRemoteUrl(ctx.repo, await remotePushUrl(ctx.repo, remote)) };
}
