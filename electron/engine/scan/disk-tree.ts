// A tree of the disk as it is now, without recording a checkpoint: the
// private index is copied to a temporary file (keeping its stat cache, so
// unchanged files are not read) and the copy is brought up to date. Reads
// never touch the private index itself, so they need no lock.
import fs from 'node:fs/promises';
import type { WsContext } from '../layout/context.js';
import { withIndex } from '../layout/context.js';
import { buildExcludeFile, credentialExcludeArgs } from './excludes.js';
import { tempFile } from '../support/fsutil.js';
import { readMeta } from '../layout/meta.js';
import { scanToTree } from './scan.js';
import { isIndexDamage } from '../index/index-damage.js';
import type { ScanResult } from './scan-result.js';

export async function diskTree(ctx: WsContext, paths?: string[]): Promise<ScanResult> {
  const tmpIndex = await tempFile(ctx.store.tmpDir, `index-${ctx.id}`);
  const cleanup: string[] = [tmpIndex];
  try {
    // The copy keeps the index's own time: git trusts an entry's stat data only
    // when the file is older than the index, and a copy made now would make a
    // same-size edit in the index's last second look clean ("racy git").
    const original = await fs.stat(ctx.layout.indexFile).catch(() => null);
    await fs.copyFile(ctx.layout.indexFile, tmpIndex).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    if (original) await fs.utimes(tmpIndex, original.atime, original.mtime).catch(() => undefined);
    const meta = await readMeta(ctx.layout.metaFile);
    const wanted = buildExcludeFile(ctx.settings, meta?.nested_repos ?? []);
    const current = await fs.readFile(ctx.layout.excludeFile, 'utf8').catch(() => null);
    let excludeFile = ctx.layout.excludeFile;
    if (current !== wanted) {
      // Settings changed since the last snapshot: use the new rules without writing the workspace's file.
      excludeFile = await tempFile(ctx.store.tmpDir, `exclude-${ctx.id}`);
      cleanup.push(excludeFile);
      await fs.writeFile(excludeFile, wanted);
    }
    const gitCtx = { ...withIndex(ctx, tmpIndex), excludeFile };
    const options = { maxFileBytes: ctx.settings.max_file_mb * 1024 * 1024, recheckIgnored: current !== wanted, excludeArgs: credentialExcludeArgs(ctx.settings) };
    const scan = (): Promise<ScanResult> => scanToTree(gitCtx, ctx.root, paths ? { ...options, paths } : options);
    try {
      return await scan();
    } catch (err) {
      if (!isIndexDamage(err)) throw err;
      // A damaged private index (0 bytes after a crash…): read the disk without
      // it, as a snapshot does; the next snapshot rebuilds the index itself.
      await fs.rm(tmpIndex, { force: true });
      await fs.rm(`${tmpIndex}.lock`, { force: true });
      return await scan();
    }
  } finally {
    for (const file of cleanup) await fs.rm(file, { force: true }).catch(() => undefined);
    await fs.rm(`${tmpIndex}.lock`, { force: true }).catch(() => undefined);
  }
}
