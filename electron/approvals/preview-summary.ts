// One line saying what a requested restore would change, for places with no
// room for the file lists (a desktop notification, `approve --list`).
import type { RestorePreview } from '../../shared/model.js';

export function previewSummary(preview: RestorePreview): string {
  const parts: [number, string][] = [
    [preview.modified.length, 'overwritten'],
    [preview.added.length, 'added back'],
    [preview.deleted.length, 'deleted'],
    [preview.untracked_removed.length, 'untracked removed'],
  ];
  const changed = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return changed.length === 0 ? 'no file would change' : `${changed.join(', ')}`;
}
