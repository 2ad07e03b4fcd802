// A workspace at a glance: how many checkpoints, the latest, how many files
// differ on disk from it, what is pinned, how big the store is. Nothing here
// reads every checkpoint: the count is the refs' names (a readdir and the
// cached packed-refs), the latest is one ref, the pins are a few refs each —
// so a history of 100,000 answers as fast as one of 100.
import type { WorkspaceMeta, WorkspaceStatus } from '../../shared/model.js';
import { storeGit, type WsContext } from './layout/context.js';
import { diskTree } from './scan/disk-tree.js';
import { dirSize } from './support/fsutil.js';
import { EMPTY_TREE, git, splitNul } from './git/git-runner.js';
import { heldCheckpointIds, latestRecord } from './list.js';
import { readMeta } from './layout/meta.js';
import { countCheckpointRefs } from './refs/checkpoint-refs.js';

export async function workspaceStatus(ctx: WsContext, meta: WorkspaceMeta): Promise<WorkspaceStatus> {
  const [count, latest, disk, file, bytes] = await Promise.all([countCheckpointRefs(ctx), latestRecord(ctx), diskTree(ctx), readMeta(ctx.layout.metaFile), dirSize(ctx.store.home)]);
  const base = latest?.tree ?? EMPTY_TREE;
  // Two trees need neither the work tree nor the private index (which git would
  // still read, and a damaged one would fail the command).
  const dirty = base === disk.tree ? 0 : splitNul(await git(storeGit(ctx.store), ['diff-tree', '-r', '-z', '--no-renames', '--name-only', base, disk.tree])).length;
  const pins = file?.pinned ?? [];
  const held = pins.length > 0 ? await heldCheckpointIds(ctx, pins) : new Set<string>();
  return {
    workspace: file ? { id: file.id, path: file.path, created: file.created, last_touched: file.last_touched } : meta,
    checkpoints: count,
    latest: latest?.checkpoint ?? null,
    dirty_files: dirty,
    pinned: pins.filter((id) => held.has(id)),
    store: { path: ctx.store.home, bytes },
  };
}
