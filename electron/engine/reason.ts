// The watcher's reasons, worded from what the checkpoint actually changed: the
// watcher only knows the paths it saw (a new folder is one path however many
// files it holds), so its count would disagree with the checkpoint's stats.
import type { CheckpointStats } from '../../shared/model.js';

/** "auto: 3 files changed (src/newdir)": the count from the stats, up to three of the paths seen (null: a full scan). */
export function autoReason(paths: readonly string[] | null, stats: CheckpointStats): string {
  const n = stats.files;
  const count = `${n} ${n === 1 ? 'file' : 'files'} changed`;
  if (paths === null || paths.length === 0) return `auto: ${count} (full scan)`;
  return `auto: ${count} (${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ', …' : ''})`;
}
