// A workspace at a glance: how many checkpoints, the latest, how many files
// differ on disk from it, what is pinned, how big the store is.
import type { WorkspaceMeta, WorkspaceStatus } from '../../shared/model.js';
import { storeGit, type WsContext } from './layout/context.js';
import { diskTree } from './scan/disk-tree.js';
import { dirSize } from './support/fsutil.js';
import { EMPTY_TREE, git, splitNul } from './git/git-runner.js';
import { listRecords } from './list.js';
import { readMeta } from './layout/meta.js';

export async function workspaceStatus(ctx: WsContext, meta: WorkspaceMeta): Promise<WorkspaceStatus> {
  const [records, disk, file, bytes] = await Promise.all([listRecords(ctx), diskTree(ctx), readMeta(ctx.layout.metaFile), dirSize(ctx.store.home)]);
  const latest = records[0];
  const base = latest?.tree ?? EMPTY_TREE;
  // Two trees need neither the work tree nor the private index (which git would
  // still read, and a damaged one would fail the command).
  const dirty = base === disk.tree ? 0 : splitNul(await git(storeGit(ctx.store), ['diff-tree', '-r', '-z', '--no-renames', '--name-only', base, disk.tree])).length;
  const ids = new Set(records.map((r) => r.checkpoint.id));
  return {
    workspace: file ? { id: file.id, path: file.path, created: file.created, last_touched: file.last_touched } : meta,
    checkpoints: records.length,
    latest: latest?.checkpoint ?? null,
    dirty_files: dirty,
    pinned: (file?.pinned ?? []).filter((id) => ids.has(id)),
    store: { path: ctx.store.home, bytes },
  };
}
