// `chronoscope share push` and the upload the pre-push hook asks for: this
// workspace's not-yet-shared checkpoints go to the remote as a fast-forward of
// this clone's own share-log ref, with the notes linking the pushed commits.
// Only our refs are named in the push, so git sends only what they reach that
// the remote lacks: never the remote's branches or tags, never another
// workspace's objects of the shared store.
import path from 'node:path';
import { gitStdin, ZERO_OID } from '../engine/git/git-runner.js';
import { withLock } from '../engine/support/lock.js';
import type { ShareContext } from './context.js';
import { localShareRef, NOTES_REF, remoteNamespace } from './identity.js';
import { addNotes, linksFor } from './notes.js';
import { batchOf, resolveRef, shareableCommits, sharedCheckpointIds, writeLogCommit, type ShareBatch } from './share-log.js';
import { chooseRemote, type ShareRemote } from './remote.js';
import { remoteGit } from './remote-git.js';
import { absoluteRemoteUrl, pushedCommits, remotePushUrl, type PushedRef } from './workspace-git.js';

export interface PushRequest {
  /** The remote's name in the workspace (its settings are carried over), or null when the push named a URL. */
  remote: string | null;
  url: string;
  /** `-c key=value` pairs of the person's config (remote.ts). */
  config: readonly string[];
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
    gitOutput = await gitPush(ctx, { name: request.remote ?? request.url, url: request.url, config: [...request.config] }, refspecs);
    if (newLog !== null && newLog !== previous) await moveRef(ctx, logRef, newLog, previous);
  }
  return { remote: request.remote, url: maskUrl(request.url), namespace: ns, checkpoints: batch.checkpoints.length, prompts: batch.prompts.length, notes: links.length, gitOutput };
}

async function moveRef(ctx: ShareContext, ref: string, to: string, from: string | null): Promise<void> {
  await gitStdin(ctx.gitCtx, ['update-ref', ref, to, from ?? ZERO_OID]);
}

/**
 * git push from the store's git dir (remote-git.ts: the engine's isolated
 * environment plus the person's carried credential settings), naming our refs
 * only; nothing follows them (no tags). The agent's SSH socket and command
 * pass, for ssh remotes.
 */
async function gitPush(ctx: ShareContext, remote: ShareRemote, refspecs: readonly string[]): Promise<string> {
  const env: Record<string, string> = {};
  for (const key of ['SSH_AUTH_SOCK', 'GIT_SSH_COMMAND', 'GIT_SSH']) {
    const value = process.env[key];
    if (value) env[key] = value;
  }
  const args = ['-c', 'push.followTags=false', '-c', 'push.gpgSign=false', 'push', '--porcelain', '--progress', '--no-verify', remote.url, ...refspecs];
  const { stdout, stderr } = await remoteGit(ctx.gitCtx.gitDir, { ...remote, name: maskUrl(remote.name) }, args, { env });
  return `${stderr}${stdout}`;
}

/** A URL as shown: user-info (a token in https://user:token@host) masked. */
export function maskUrl(url: string): string {
  return url.replace(/^([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s]*@/, '$1***@');
}

/** The request for `share push [--remote NAME]`: the remote named, else the one sharing was enabled with. */
export async function manualRequest(ctx: ShareContext, name: string): Promise<PushRequest> {
  const remote = await chooseRemote(ctx.repo, name);
  return { remote: remote.name, url: absoluteRemoteUrl(ctx.repo, await remotePushUrl(ctx.repo, remote.name)), config: remote.config };
}
