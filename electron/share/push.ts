// `chronoscope share push` and the upload the pre-push hook asks for: this
// workspace's not-yet-shared checkpoints go to the remote as a fast-forward of
// this clone's own share-log ref, with the notes linking the pushed commits.
// Only our refs are named in the push, so git sends only what they reach that
// the remote lacks: never the remote's branches or tags, never another
// workspace's objects of the shared store.
import path from 'node:path';
import type { CallRecord, Checkpoint } from '../../shared/model.js';
import { gitStdin, ZERO_OID } from '../engine/git/git-runner.js';
import { withLock } from '../engine/support/lock.js';
import type { PromptEntry } from '../prompts/ledger.js';
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

type Ledger = { prompts: PromptEntry[]; calls: CallRecord[] };

/** What a push would send now. */
export async function pendingBatch(ctx: ShareContext): Promise<ShareBatch> {
  const shared = await sharedCheckpointIds(ctx.gitCtx, localShareRef(ctx.workspace.meta.id, 'log'));
  return batchOf(await ctx.workspace.list(), shared, await ctx.ledger.read());
}

export async function pushShare(ctx: ShareContext, request: PushRequest): Promise<PushResult> {
  // One upload of a workspace at a time: two pushes in a row must not build two logs on one base.
  return withLock(path.join(ctx.wsDir, 'share.lock'), () => pushLocked(ctx, request), { what: 'sharing' });
}

interface BuiltLog {
  batch: ShareBatch;
  previous: string | null;
  /** The log commit to push (previous when nothing is new; null when nothing was ever shared). */
  tip: string | null;
  /** Local id → the id it travels under. */
  sharedIds: Map<string, string>;
}

async function buildLog(ctx: ShareContext, all: readonly Checkpoint[], ledger: Ledger): Promise<BuiltLog> {
  const logRef = localShareRef(ctx.workspace.meta.id, 'log');
  const batch = batchOf(all, await sharedCheckpointIds(ctx.gitCtx, logRef), ledger);
  const previous = await resolveRef(ctx.gitCtx, logRef);
  if (batch.checkpoints.length === 0) return { batch, previous, tip: previous, sharedIds: new Map() };
  const sharedIds = await shareableCommits(ctx.gitCtx, batch.checkpoints.map((c) => c.id));
  const rewritten = Object.fromEntries([...sharedIds].filter(([local, shared]) => local !== shared));
  const tip = await writeLogCommit(ctx.gitCtx, {
    previous,
    parents: batch.checkpoints.map((c) => sharedIds.get(c.id) ?? c.id),
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
  return { batch, previous, tip, sharedIds };
}

async function pushLocked(ctx: ShareContext, request: PushRequest): Promise<PushResult> {
  const id = ctx.workspace.meta.id;
  const logRef = localShareRef(id, 'log');
  const notesRef = localShareRef(id, 'notes');
  const all = await ctx.workspace.list();
  const ledger = await ctx.ledger.read();
  let log = await buildLog(ctx, all, ledger);
  // Notes: the commits this push carries, linked to the work before them.
  const commits = request.pushedRefs ? await pushedCommits(ctx.repo, request.pushedRefs, request.remote) : [];
  const links = linksFor(commits, all, ledger, (local) => log.sharedIds.get(local) ?? local, ctx.identity);
  if (links.length > 0) await addNotes(ctx.gitCtx, NOTES_REF, links);
  let notesTip = links.length > 0 ? await addNotes(ctx.gitCtx, notesRef, links) : await resolveRef(ctx.gitCtx, notesRef);

  const ns = remoteNamespace(ctx.identity);
  const remote: ShareRemote = { name: request.remote ?? request.url, url: request.url, config: [...request.config] };
  const refspecs = (): string[] => [...(log.tip ? [`${log.tip}:${ns}/log`] : []), ...(notesTip ? [`${notesTip}:${ns}/notes`] : [])];
  let gitOutput = '';
  if (refspecs().length > 0) {
    try {
      gitOutput = await gitPush(ctx, remote, refspecs());
    } catch (err) {
      // The remote is ahead of what this store remembers pushing (a crash after a push, before the
      // local ref moved; a store rebuilt): take the remote's refs as the base and push again, once.
      if (!(await adoptRemoteRefs(ctx, remote, ns))) throw err;
      log = await buildLog(ctx, all, ledger);
      notesTip = links.length > 0 ? await addNotes(ctx.gitCtx, notesRef, links) : await resolveRef(ctx.gitCtx, notesRef);
      gitOutput = await gitPush(ctx, remote, refspecs());
    }
    if (log.tip !== null && log.tip !== log.previous) await moveRef(ctx, logRef, log.tip, log.previous);
  }
  const { batch } = log;
  return { remote: request.remote, url: maskUrl(request.url), namespace: ns, checkpoints: batch.checkpoints.length, prompts: batch.prompts.length, notes: links.length, gitOutput };
}

/** Fetches this namespace's refs from the remote into the local share refs; false when the remote has none or the fetch fails. */
async function adoptRemoteRefs(ctx: ShareContext, remote: ShareRemote, ns: string): Promise<boolean> {
  const id = ctx.workspace.meta.id;
  const listed = await remoteGit(ctx.gitCtx.gitDir, remote, ['ls-remote', remote.url, `${ns}/log`, `${ns}/notes`]).catch(() => null);
  if (listed === null || listed.stdout.trim() === '') return false;
  const specs = listed.stdout
    .trim()
    .split('\n')
    .map((line) => line.split('\t')[1] ?? '')
    .filter((ref) => ref === `${ns}/log` || ref === `${ns}/notes`)
    .map((ref) => `+${ref}:${localShareRef(id, ref.endsWith('/log') ? 'log' : 'notes')}`);
  const fetched = await remoteGit(ctx.gitCtx.gitDir, remote, ['fetch', '--no-tags', '--no-write-fetch-head', remote.url, ...specs]).then(
    () => true,
    () => false,
  );
  return fetched;
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
