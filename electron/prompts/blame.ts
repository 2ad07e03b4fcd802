// `chronoscope why`: which checkpoint last changed each line of a file, and so
// which call, prompt and agent. Checkpoints are parentless commits (one ref
// each), so git's own blame has no history to walk; instead the file's
// versions are read oldest first (Workspace.pathVersions: one cat-file batch
// for the blob ids in every checkpoint's tree, one for the texts of those that
// differ), each is line-diffed against the one before it in Node
// (engine/unified-diff.ts's Myers diff, after trimming the common head and
// tail, so a small edit of a long file costs next to nothing), and every line
// carries the index of the version that brought it. Lines kept keep their
// origin; lines added get the new version's.
//
// A content the file had before (a restore, an undo) takes back the origins
// it had then. A version that cannot be read as text (binary, or over BLAME_MAX_BYTES)
// breaks the chain: the lines of the next readable version are then credited
// to that version. docs/design.md has the cost.
import { ChronoscopeError } from '../../shared/errors.js';
import type { Checkpoint } from '../../shared/model.js';
import type { PathVersion, Workspace } from '../engine/api.js';
import { lineEdits, splitLines } from '../engine/unified-diff.js';

/** Versions larger than this are not line-diffed (4 MiB: far beyond source files, well inside memory). */
export const BLAME_MAX_BYTES = 4 * 1024 * 1024;

export interface Blame {
  path: string;
  /** Every version of the file, oldest first (deletions included: oid null). */
  versions: PathVersion[];
  /** The newest version that holds the file: its lines are the ones blamed. */
  current: PathVersion;
  lines: string[];
  /** For each line of `lines`, the index in `versions` of the version that brought it (never written to: shared between equal contents). */
  origins: number[];
  /** The checkpoint that deleted the file, when it is not in the newest one. */
  deleted?: Checkpoint;
}

/** Index of the first and past-the-last line that differ, trimming what both keep at head and tail. */
function trimmed(a: readonly string[], b: readonly string[]): { head: number; tailA: number; tailB: number } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tailA = a.length;
  let tailB = b.length;
  while (tailA > head && tailB > head && a[tailA - 1] === b[tailB - 1]) {
    tailA--;
    tailB--;
  }
  return { head, tailA, tailB };
}

/** The origins of `next`'s lines, from `prev`'s lines and origins; new lines get `version`. */
export function carryOrigins(prev: readonly string[], prevOrigins: readonly number[], next: readonly string[], version: number): number[] {
  const { head, tailA, tailB } = trimmed(prev, next);
  const out = prevOrigins.slice(0, head);
  let old = head;
  for (const op of lineEdits(prev.slice(head, tailA), next.slice(head, tailB))) {
    if (op.kind === ' ') out.push(prevOrigins[old++] ?? version);
    else if (op.kind === '-') old++;
    else out.push(version);
  }
  for (let i = tailA; i < prev.length; i++) out.push(prevOrigins[i] ?? version);
  return out;
}

export async function blame(ws: Workspace, rel: string): Promise<Blame> {
  const versions = await ws.pathVersions(rel, BLAME_MAX_BYTES);
  if (versions.length === 0) throw new ChronoscopeError('not_found', `${rel} was never recorded as a file in this workspace's checkpoints`);
  let lines: string[] = [];
  let origins: number[] = [];
  let currentAt = -1;
  // A content seen before (a restore, an undo, an edit reverted) keeps the origins it had then:
  // restoring a version does not make its lines the restore's.
  const seen = new Map<string, number[]>();
  versions.forEach((v, i) => {
    if (v.oid === null) return; // deleted here: a later version is new again
    currentAt = i;
    if (v.text === null) {
      lines = [];
      origins = [];
      return;
    }
    const next = splitLines(v.text);
    const before = versions[i - 1];
    const again = seen.get(v.oid);
    if (again) origins = again;
    // After a deletion or an unreadable version, every line is this version's.
    else if (i === 0 || before?.oid === null || before?.text === null) origins = next.map(() => i);
    else origins = carryOrigins(lines, origins, next, i);
    if (!again) seen.set(v.oid, origins);
    lines = next;
  });
  const current = versions[currentAt];
  if (!current) throw new ChronoscopeError('internal', `no version of ${rel} holds a file`);
  if (current.text === null) {
    throw new ChronoscopeError('bad_input', `${rel} is ${current.unreadable === 'binary' ? 'a binary file' : `over ${BLAME_MAX_BYTES / 1024 / 1024} MiB`} in its last checkpoint: why reads lines of text`);
  }
  const last = versions[versions.length - 1];
  return { path: rel, versions, current, lines, origins, ...(last && last.oid === null ? { deleted: last.checkpoint } : {}) };
}

/** The checkpoint that brought line `line` (1-based) of the file's newest recorded version. */
export function lineOrigin(b: Blame, line: number): { text: string; checkpoint: Checkpoint } {
  if (!Number.isInteger(line) || line < 1) throw new ChronoscopeError('bad_input', `line ${line}: lines count from 1`);
  if (line > b.lines.length) {
    throw new ChronoscopeError('bad_input', `${b.path} has ${b.lines.length} line${b.lines.length === 1 ? '' : 's'} in its last checkpoint (${b.current.checkpoint.id.slice(0, 8)}); line ${line} is past its end`);
  }
  const version = b.versions[b.origins[line - 1] ?? -1];
  if (!version) throw new ChronoscopeError('internal', `no origin for line ${line} of ${b.path}`);
  return { text: b.lines[line - 1] ?? '', checkpoint: version.checkpoint };
}
