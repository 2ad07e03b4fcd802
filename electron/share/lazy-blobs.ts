// File contents of teammates' checkpoints, fetched when something needs them.
// A blob-less pull (pull.ts) leaves every blob on the remote; before a diff,
// a `show` or a restore reads a shared checkpoint, the blobs it needs that
// the store lacks are listed (`rev-list --missing=print`, which never fetches)
// and fetched by id in one filtered fetch (protocol v2 serves wants by object
// id: GitHub, GitLab, git daemon and plain upload-pack do). Anything read
// later that is still missing (a path's history) git fetches itself: the
// filtered fetch recorded the remote as a promisor in the store's config.
import { ChronoscopeError } from '../../shared/errors.js';
import { git, gitStdin, splitNul } from '../engine/git/git-runner.js';
import type { WsContext } from '../engine/layout/context.js';
import { readPullState } from './pull-state.js';
import { ensurePromisor } from './promisor.js';
import { chooseRemote, type ShareRemote } from './remote.js';
import { remoteGit, storeGitContext } from './remote-git.js';

/** Ids of objects reachable from `tips` but not from `not` that the store does not hold. */
export async function missingObjects(gitDir: string, tips: readonly string[], not: readonly string[] = []): Promise<string[]> {
  if (tips.length === 0) return [];
  const input = [...tips, ...not.map((id) => `^${id}`)].join('\n') + '\n';
  const run = await gitStdin(storeGitContext(gitDir), ['rev-list', '--objects', '--missing=print', '--stdin'], { input });
  return run.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line.startsWith('?'))
    .map((line) => line.slice(1, 41));
}

/** The remote of the last pull, as the workspace names it now (its URL and credentials may have changed since). */
async function pullRemote(ctx: WsContext): Promise<ShareRemote> {
  const state = await readPullState(ctx.layout.dir);
  if (!state) throw new ChronoscopeError('not_found', "a teammate's file contents are not in the store and no pull says where they are: run chronoscope share pull");
  return chooseRemote(ctx.root, state.remote).catch((): ShareRemote => ({ name: state.remote, url: state.url, config: [] }));
}

const FETCH_BATCH = 5000;

/** Fetches these objects by id from the workspace's pull remote; how many were asked for. */
export async function fetchObjects(ctx: WsContext, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const remote = await pullRemote(ctx);
  const source = await ensurePromisor(ctx.store.gitDir, ctx.id, remote.url);
  for (let i = 0; i < ids.length; i += FETCH_BATCH) {
    const part = ids.slice(i, i + FETCH_BATCH);
    try {
      await remoteGit(ctx.store.gitDir, remote, ['fetch', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules', '--filter=blob:none', '--stdin', source], { input: `${part.join('\n')}\n` });
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ChronoscopeError('internal', `cannot fetch a teammate's file contents from ${remote.name}: ${why}`);
    }
  }
  return ids.length;
}

/**
 * Makes the blobs of `tree` present (those reachable from `tree` but not from
 * `not`): all of it for a restore or a comparison, only what changed for a
 * checkpoint's own changes.
 */
export async function ensureBlobs(ctx: WsContext, tree: string, not: readonly string[] = []): Promise<number> {
  return fetchObjects(ctx, await missingObjects(ctx.store.gitDir, [tree], not));
}

/** Makes the blobs of `tree` under `paths` present (a path-limited restore): `ls-tree` reads only trees, which are here. */
export async function ensureBlobsAt(ctx: WsContext, tree: string, paths: readonly string[]): Promise<number> {
  const out = await git(storeGitContext(ctx.store.gitDir), ['ls-tree', '-r', '-z', tree, '--', ...paths]);
  // "<mode> <type> <id>\t<path>": gitlinks (a nested repository's commit) have no content here.
  const blobs = splitNul(out)
    .map((entry) => entry.slice(0, entry.indexOf('\t')).split(' '))
    .filter(([, type]) => type === 'blob')
    .map(([, , id]) => id!);
  // The tree's missing blobs (a walk of trees only, which are here), of those under the paths.
  const wanted = new Set(blobs);
  return fetchObjects(ctx, (await missingObjects(ctx.store.gitDir, [tree])).filter((id) => wanted.has(id)));
}
