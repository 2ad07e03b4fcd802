// The team's remote as a promisor remote of the store: a blob-less fetch
// must name a remote the repository calls a promisor (git refuses, or fails
// its connectivity check, otherwise), and git then fetches any missing blob
// it is asked to read from it by itself. One per workspace, named after it;
// its URL is refreshed on every pull (the person may have changed it). The
// store is owner-only, like the workspace's own .git where the URL came from.
import { git } from '../engine/git/git-runner.js';
import { storeGitContext } from './remote-git.js';

export function promisorName(wsId: string): string {
  return `chronoscope-share-${wsId.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/** Records (or updates) the workspace's promisor remote in the store's config; its name. */
export async function ensurePromisor(gitDir: string, wsId: string, url: string): Promise<string> {
  const name = promisorName(wsId);
  const ctx = storeGitContext(gitDir);
  const held = await git(ctx, ['config', '--get', `remote.${name}.url`]).then((v) => v.trim(), () => '');
  if (held !== url) await git(ctx, ['config', `remote.${name}.url`, url]);
  if (held === '') {
    await git(ctx, ['config', `remote.${name}.promisor`, 'true']);
    await git(ctx, ['config', `remote.${name}.partialclonefilter`, 'blob:none']);
  }
  return name;
}
