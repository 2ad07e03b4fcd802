// The store's budget: the size past which retention removes whole
// checkpoints. Set by the person (retention.max_store_mb), else the smaller of
// 10 GB and 10 % of the disk's free space: a history should never be what
// fills a disk, and 10 GB holds years of a heavy user's source edits
// (docs/store-health.md has the arithmetic).
import fs from 'node:fs/promises';
import type { Settings } from '../../../shared/settings.js';

const GB = 1024 ** 3;
export const DEFAULT_BUDGET_BYTES = 10 * GB;
export const FREE_DISK_SHARE = 0.1;

export async function budgetBytes(home: string, retention: Settings['retention']): Promise<number> {
  if (retention.max_store_mb !== null) return retention.max_store_mb * 1024 * 1024;
  try {
    const disk = await fs.statfs(home);
    return Math.min(DEFAULT_BUDGET_BYTES, Math.floor(disk.bavail * disk.bsize * FREE_DISK_SHARE));
  } catch {
    return DEFAULT_BUDGET_BYTES; // a file system that cannot say: the fixed part of the rule
  }
}
