// What every verb module needs to know about one workspace.
import type { Settings } from '../../../shared/settings.js';
import type { SnapshotProgress } from '../api.js';
import type { GitContext } from '../git/git-env.js';
import type { StoreLayout, WorkspaceLayout } from './paths.js';

export interface WsContext {
  id: string;
  /** Real path of the workspace. */
  root: string;
  store: StoreLayout;
  layout: WorkspaceLayout;
  settings: Settings;
  /** Git context with the private index. */
  git: GitContext;
  /** refs/chronoscope/<id>/cp/ */
  refPrefix: string;
  /** StoreOptions.onProgress. */
  onProgress?: (progress: SnapshotProgress) => void;
}

export function withIndex(ctx: WsContext, indexFile: string): GitContext {
  return { ...ctx.git, indexFile };
}

export function storeGit(store: StoreLayout): GitContext {
  return { gitDir: store.gitDir, cwd: store.gitDir };
}

export function shortId(id: string): string {
  return id.slice(0, 12);
}
