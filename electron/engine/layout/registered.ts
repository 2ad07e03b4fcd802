// The store's registered workspaces as their meta files say, read without
// opening the store (no lock, no folders created): what a hook working alone
// and the CLI finding the workspace around the current folder need.
import { readdir } from 'node:fs/promises';
import type { WorkspaceMeta } from '../../../shared/model.js';
import { readMeta } from './meta.js';
import { storeLayout, workspaceLayout } from './paths.js';

export function registeredWorkspaces(home: string): { listWorkspaces(): Promise<WorkspaceMeta[]> } {
  const layout = storeLayout(home);
  return {
    async listWorkspaces() {
      const ids = await readdir(layout.workspacesDir).catch(() => [] as string[]);
      const metas = await Promise.all(ids.map((id) => readMeta(workspaceLayout(layout, id).metaFile)));
      return metas.filter((m): m is NonNullable<typeof m> => m !== undefined);
    },
  };
}
