// `share pull`: teammates' checkpoints from the team's git remote into the
// store (share-contract.md). Only the share logs (and notes) of other clones
// are fetched, each to refs/chronoscope-shared/<ws-id>/<person>/<machine>/<clone>/;
// this clone's own namespace is left out. Metadata and trees first: with
// `--filter=blob:none` where the remote allows it, so file contents stay on
// the remote until a diff or a restore asks for them (lazy-blobs.ts). A
// remote that cannot filter gets a bounded fetch instead: a few share logs
// per git process, each with a time limit, progress lines, and no temporary
// pack left behind when one fails (a fetch that outgrew its timeout must not
// leave a growing pack folder, as jwbron/egg#2990 did).
import fs from 'node:fs/promises';
import path from 'node:path';
import { git, gitStdin } from '../engine/git/git-runner.js';
import { storeLayout, workspaceLayout } from '../engine/layout/paths.js';
import { localRefOf, ownNamespace, sameNamespace, sharedPrefixOf } from './namespace.js';
import { readPullState, writePullState } from './pull-state.js';
import { ensurePromisor } from './promisor.js';
import { chooseRemote, type ShareRemote } from './remote.js';
import { remoteGit, storeGitContext } from './remote-git.js';
import { listRemote, type RemoteShareRef } from './remote-refs.js';

export interface PullTarget {
  /** The store's git dir. */
  gitDir: string;
  /** The workspace's id and its folder in the store (<home>/workspaces/<id>). */
  wsId: string;
  workspaceDir: string;
  /** The workspace's real path (its git repository). */
  root: string;
}

export interface PullOptions {
  remote?: string;
  /** Progress lines for a person watching (the bounded fetch's batches and git's own progress). */
  onProgress?: (line: string) => void;
  /** Share logs per git process when the remote cannot filter. */
  batch?: number;
  /** Time limit of each git process. */
  timeoutMs?: number;
}

export interface PullResult {
  remote: string;
  url: string;
  /** Blob-less: file contents come on demand. */
  filtered: boolean;
  /** Teammates' clones (namespaces) on the remote. */
  clones: number;
  /** Refs fetched this time (new or moved). */
  updated: number;
  /** Teammates' refs dropped from the store because the remote no longer has them (deleted there: perhaps they held something that must not stay). */
  removed: number;
  /** Bytes of the packs this pull wrote into the store. */
  bytes: number;
}

/** Share logs per git process on a remote that cannot filter: each fetch stays small enough to finish and report. */
export const BOUNDED_BATCH = 4;
/** Refspecs per git process on a filtering remote (an argument list, well under any OS limit). */
const FILTERED_BATCH = 200;

export async function sharePull(target: PullTarget, options: PullOptions = {}): Promise<PullResult> {
  const remote = await chooseRemote(target.root, options.remote);
  const own = await ownNamespace(target.root);
  const listing = await listRemote(target.gitDir, remote, options.timeoutMs);
  const theirs = listing.refs.filter((r) => !sameNamespace(r, own));
  const held = await localTargets(target);
  const wanted = theirs.filter((r) => held.get(localRefOf(target.wsId, r, r.kind)) !== r.id);
  // A ref the remote no longer has was deleted there (a teammate who took back what they shared):
  // the store follows, as `git fetch --prune` does — only while this is the one remote the workspace
  // has pulled from: a ref brought from another is not this listing's to judge.
  const previous = await readPullState(target.workspaceDir);
  const urls = [...new Set([...(previous?.urls ?? []), remote.url])];
  const listed = new Set(theirs.map((r) => localRefOf(target.wsId, r, r.kind)));
  const vanished = urls.length === 1 ? [...held.keys()].filter((name) => !listed.has(name)) : [];
  if (vanished.length > 0) await deleteRefs(target.gitDir, vanished);
  await writePullState(target.workspaceDir, { v: 1, remote: remote.name, url: remote.url, filtered: listing.canFilter, pulled_at: new Date().toISOString(), urls });
  const clones = new Set(theirs.map((r) => `${r.person}/${r.machine}/${r.clone}`)).size;
  const result = { remote: remote.name, url: remote.url, filtered: listing.canFilter, clones, updated: wanted.length, removed: vanished.length, bytes: 0 };
  if (wanted.length === 0) return result;
  const before = await packBytes(target.gitDir);
  if (listing.canFilter) {
    for (let i = 0; i < wanted.length; i += FILTERED_BATCH) await fetchRefs(target, remote, wanted.slice(i, i + FILTERED_BATCH), true, options);
  } else {
    const batch = Math.max(1, options.batch ?? BOUNDED_BATCH);
    const logs = wanted.length;
    for (let i = 0; i < wanted.length; i += batch) {
      const part = wanted.slice(i, i + batch);
      options.onProgress?.(`fetching ${i + 1}–${i + part.length} of ${logs} shared refs from ${remote.name} (it cannot filter: file contents come now)`);
      await fetchRefs(target, remote, part, false, options);
    }
  }
  return { ...result, bytes: Math.max(0, (await packBytes(target.gitDir)) - before) };
}

/** What this workspace's teammates' refs point at in the store now. */
async function localTargets(target: PullTarget): Promise<Map<string, string>> {
  const out = await git(storeGitContext(target.gitDir), ['for-each-ref', '--format=%(refname) %(objectname)', sharedPrefixOf(target.wsId)]);
  const map = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [name, id] = line.split(' ');
    if (name && id) map.set(name, id);
  }
  return map;
}

/** Deletes `refs` from the store in one transaction. */
async function deleteRefs(gitDir: string, refs: readonly string[]): Promise<void> {
  await gitStdin(storeGitContext(gitDir), ['update-ref', '--stdin'], { input: refs.map((r) => `delete ${r}\n`).join('') });
}

async function fetchRefs(target: PullTarget, remote: ShareRemote, refs: readonly RemoteShareRef[], filtered: boolean, options: PullOptions): Promise<void> {
  // Forced: a teammate's log only grows, but if they ever start it again their remote ref is the truth.
  const refspecs = refs.map((r) => `+${r.refname}:${localRefOf(target.wsId, r, r.kind)}`);
  const source = filtered ? await ensurePromisor(target.gitDir, target.wsId, remote.url) : remote.url;
  const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', ...(filtered ? ['--filter=blob:none'] : ['--progress']), source, ...refspecs];
  const started = Date.now();
  const relay = options.onProgress && !filtered ? progressRelay(options.onProgress) : undefined;
  try {
    await remoteGit(target.gitDir, remote, args, { ...(relay ? { onStderr: relay } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) });
  } catch (err) {
    await removeTemporaryPacks(target.gitDir, started);
    throw err;
  }
}

/** git's progress ("Receiving objects:  40% (…)"), one line per step that changed, not every carriage return. */
function progressRelay(print: (line: string) => void): (text: string) => void {
  let last = '';
  return (text) => {
    for (const part of text.split(/[\r\n]+/)) {
      const line = part.trim();
      const step = line.replace(/\d+%.*$/, '');
      if (!/^(Receiving|Resolving|Counting|Compressing|remote:)/.test(line)) continue;
      const tens = /(\d+)%/.exec(line)?.[1];
      const key = `${step}${tens === undefined ? '' : Math.floor(Number(tens) / 25)}`;
      if (key === last) continue;
      last = key;
      print(line);
    }
  };
}

const TEMPORARY = /^(tmp_pack_|tmp_idx_|tmp_rev_|\.tmp-)/;

/** Temporary files a killed or failed fetch left in the pack folder (only those written since it started). */
async function removeTemporaryPacks(gitDir: string, since: number): Promise<void> {
  const dir = path.join(gitDir, 'objects', 'pack');
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => TEMPORARY.test(n))
      .map(async (n) => {
        const st = await fs.stat(path.join(dir, n)).catch(() => null);
        if (st && st.mtimeMs >= since - 1000) await fs.rm(path.join(dir, n), { force: true });
      }),
  );
}

async function packBytes(gitDir: string): Promise<number> {
  const dir = path.join(gitDir, 'objects', 'pack');
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(names.filter((n) => n.endsWith('.pack')).map((n) => fs.stat(path.join(dir, n)).then((s) => s.size, () => 0)));
  return sizes.reduce((a, b) => a + b, 0);
}

/** The pull target of a workspace of the store at `home`. */
export function pullTarget(home: string, wsId: string, root: string): PullTarget {
  const store = storeLayout(home);
  return { gitDir: store.gitDir, wsId, workspaceDir: workspaceLayout(store, wsId).dir, root };
}
