// Flags, in a list of changed files, the text changes a line diff would hide:
// only line endings (CRLF ↔ LF) or only whitespace. Such a change rewrites a
// line for a line, so only files with as many insertions as deletions are
// read, small ones, a bounded number of them: their blob ids come from the
// comparison diffTrees just made (diff.ts keeps it), their contents loose from
// Node or through one cat-file.
import { hiddenChange } from '../../shared/change-kind.js';
import type { FileChange } from '../../shared/model.js';
import { readObjectsLimited } from './objects/cat-file.js';
import { recentSides } from './diff.js';
import type { GitContext } from './git/git-env.js';

const MAX_FILES = 24;
const MAX_BYTES = 256 * 1024;

export async function flagHiddenChanges(gitCtx: GitContext, from: string, to: string, files: FileChange[]): Promise<FileChange[]> {
  const candidates: { file: FileChange; oldOid: string; newOid: string }[] = [];
  for (const file of files) {
    if (candidates.length >= MAX_FILES) break;
    if (file.status !== 'modified' || file.binary || file.insertions === null || file.insertions === 0 || file.insertions !== file.deletions) continue;
    if ((file.old_size ?? Infinity) > MAX_BYTES || (file.new_size ?? Infinity) > MAX_BYTES) continue;
    const sides = recentSides(gitCtx.gitDir, from, to, file.path);
    if (sides) candidates.push({ file, oldOid: sides.oldOid, newOid: sides.newOid });
  }
  if (candidates.length === 0) return files;
  const objects = await readObjectsLimited(gitCtx, candidates.flatMap((c) => [c.oldOid, c.newOid]), MAX_BYTES);
  for (const { file, oldOid, newOid } of candidates) {
    const a = objects.get(oldOid)?.data;
    const b = objects.get(newOid)?.data;
    if (!a || !b) continue;
    const kind = hiddenChange(a.toString('utf8'), b.toString('utf8'));
    if (kind) file.hidden = kind;
  }
  return files;
}
