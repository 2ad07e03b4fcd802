// The watcher's reasons, worded from what the checkpoint actually changed: the
// watcher only knows the paths it saw (a new folder is one path however many
// files it holds; a folder whose entries changed; an editor's temporary that
// was renamed away), so its count and names would disagree with the
// checkpoint's stats. Only what the checkpoint holds is named.
import type { CheckpointStats } from '../../shared/model.js';
import { isEditorTemporary } from '../../shared/editor-temporaries.js';

const NAMED = 3;

/**
 * "auto: 3 files changed (src/a.ts, …)": the count from the stats; named, up to three paths: where the
 * checkpoint's changed files are known (`changed`, when few), those files (the ones the watcher saw
 * first), else the paths seen less editors' temporaries (null: a full scan).
 */
export function autoReason(paths: readonly string[] | null, stats: CheckpointStats, changed?: readonly string[]): string {
  const n = stats.files;
  const count = `${n} ${n === 1 ? 'file' : 'files'} changed`;
  if (paths === null || paths.length === 0) return `auto: ${count} (full scan)`;
  let named: readonly string[];
  if (changed !== undefined && changed.length === n) {
    // Those the watcher saw first (what the person just did), then the rest (a new folder's files).
    const files = new Set(changed);
    named = [...new Set([...paths.filter((p) => files.has(p)), ...changed])];
  } else {
    named = paths;
  }
  // A backup (`a.txt~`) the checkpoint does hold is counted, not named: the title is about the file edited.
  named = named.filter((p) => !isEditorTemporary(p));
  if (named.length === 0) return `auto: ${count}`;
  return `auto: ${count} (${named.slice(0, NAMED).join(', ')}${named.length > NAMED ? ', …' : ''})`;
}
