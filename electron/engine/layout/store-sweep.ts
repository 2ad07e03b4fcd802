// What a killed process leaves in the store, swept safely:
// - `<ref>.lock` of a workspace's checkpoint refs (a kill between the link and
//   the rm in loose-write.ts, or a killed `git update-ref`): once retention
//   picks that ref, every prune would fail with "cannot lock ref". Only the
//   workspace's writer touches its refs, so under its lock they are all stale.
// - temporary files: `tmp_obj_*` (loose objects, ours and git's), `tmp_pack_*`
//   and `tmp_idx_*` (packs), a `pack-*.pack` whose index is gone (a join of
//   packs killed between removing the index and the pack, pack-merge.ts:
//   invisible to git and to us), and `.<name>.<pid>.<hex>.tmp` (our atomic
//   small files). Another workspace's writer may be writing one right now, so
//   without every lock only old ones go (or ours whose process is gone);
//   compaction holds every lock and sweeps them all.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { WsContext } from './context.js';
import { holderIsDead } from '../support/lock.js';
import os from 'node:os';
import type { StoreLayout } from './paths.js';

/** A temporary file this old belongs to no live writer (a snapshot takes seconds). */
export const TEMP_STALE_MS = 60 * 60 * 1000;

const GIT_TEMP = /^tmp_(obj|pack|idx)_/;
const PACK_FILE = /^pack-[0-9a-f]{40}\.pack$/;
const ATOMIC_TEMP = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/;

/** Removes every `*.lock` among this workspace's checkpoint refs; the caller holds the workspace lock. */
export async function sweepRefLocks(ctx: WsContext): Promise<string[]> {
  const dir = path.join(ctx.store.gitDir, ...ctx.refPrefix.split('/').filter(Boolean));
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const stale = names.filter((n) => n.endsWith('.lock'));
  await Promise.all(stale.map((n) => fs.rm(path.join(dir, n), { force: true })));
  return stale;
}

export interface TempSweep {
  /** Remove temporary files at least this old; 0 = all (the caller holds every lock). */
  olderThanMs: number;
}

/** Removes leftover temporary files of the store; returns how many went. */
export async function sweepStoreTemps(store: StoreLayout, { olderThanMs }: TempSweep): Promise<number> {
  const now = Date.now();
  let removed = 0;
  const sweep = async (dir: string, match: (name: string, all: ReadonlySet<string>) => boolean): Promise<void> => {
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    const all = new Set(names);
    for (const name of names) {
      if (!match(name, all)) continue;
      const file = path.join(dir, name);
      const st = await fs.lstat(file).catch(() => null);
      if (!st?.isFile()) continue;
      const pid = ATOMIC_TEMP.exec(name)?.[1];
      const orphan = pid !== undefined && holderIsDead({ host: os.hostname(), pid: Number(pid), start: null });
      if (olderThanMs > 0 && now - st.mtimeMs < olderThanMs && !orphan) continue;
      await fs.rm(file, { force: true });
      removed++;
    }
  };
  const objects = path.join(store.gitDir, 'objects');
  const fanout = (await fs.readdir(objects).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{2}$/.test(n) || n === 'pack');
  await Promise.all(fanout.map((d) => sweep(path.join(objects, d), (n, all) => GIT_TEMP.test(n) || (PACK_FILE.test(n) && !all.has(n.replace(/\.pack$/, '.idx'))))));
  const workspaces = await fs.readdir(store.workspacesDir).catch(() => [] as string[]);
  await Promise.all([store.home, store.gitDir, ...workspaces.map((id) => path.join(store.workspacesDir, id))].map((d) => sweep(d, (n) => ATOMIC_TEMP.test(n))));
  return removed;
}

/** Every `*.lock` under refs/ and packed-refs.lock; only with every lock held (compaction). */
export async function sweepAllRefLocks(store: StoreLayout): Promise<void> {
  await fs.rm(path.join(store.gitDir, 'packed-refs.lock'), { force: true });
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map((e) => {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) return walk(full);
        return e.name.endsWith('.lock') ? fs.rm(full, { force: true }) : undefined;
      }),
    );
  };
  await walk(path.join(store.gitDir, 'refs'));
}
