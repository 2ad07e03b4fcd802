// What every share verb opens: the store, the workspace in it, the store's git
// (where pushes run: objects leave from there, never from the workspace's
// .git) and the workspace's git repository.
import type { Store, Workspace } from '../engine/api.js';
import type { GitContext } from '../engine/git/git-env.js';
import { storeGit } from '../engine/layout/context.js';
import { storeLayout, workspaceLayout } from '../engine/layout/paths.js';
import { PromptLedger } from '../prompts/ledger.js';
import { shareIdentity, type ShareIdentity } from './identity.js';
import { repoTop } from './workspace-git.js';

export interface ShareContext {
  store: Store;
  workspace: Workspace;
  /** <home>/workspaces/<id>: share.json and share.lock live here. */
  wsDir: string;
  gitCtx: GitContext;
  identity: ShareIdentity;
  ledger: PromptLedger;
  /** The top of the workspace's git repository. */
  repo: string;
}

/** Opens the workspace's share context; a folder outside any git repository is a one-line usage error, checked before the store registers it. */
export async function openShareContext(store: Store, dir: string): Promise<ShareContext> {
  const repo = await repoTop(dir);
  const workspace = await store.workspace(dir);
  const layout = storeLayout(store.home);
  return {
    store,
    workspace,
    wsDir: workspaceLayout(layout, workspace.meta.id).dir,
    gitCtx: storeGit(layout),
    identity: await shareIdentity(workspace.root),
    ledger: new PromptLedger(store.home, workspace.meta.id),
    repo,
  };
}
