// Line counts of one changed file, as `git diff --numstat` gives them, for
// the path-limited snapshot that runs no git process (tree-update.ts).
//
// - Binary (a NUL in the first 8,000 bytes of either side, git's
//   buffer_is_binary): the file counts, its lines do not ("-\t-").
// - Otherwise insertions = new lines not in a longest common subsequence,
//   deletions = old lines not in it: exactly what a minimal diff counts, found
//   with Myers' O(ND) algorithm after trimming the common head and tail. A
//   last line without a newline is a line (and differs from the same text
//   with one, as in git).
// - Past MAX_EDIT_COST differing lines the counts come from a multiset
//   difference of the lines instead (a lower bound, ms rather than seconds on
//   rewritten files); git's xdiff also stops looking for the minimal diff on
//   large inputs, so exactness there was never on offer.
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { forEachInBatches } from '../support/fsutil.js';
import type { CheckpointStats } from '../../../shared/model.js';

const BINARY_PROBE = 8000;
const MAX_EDIT_COST = 4000;

export interface LineCounts {
  insertions: number;
  deletions: number;
  binary: boolean;
}

export function isBinary(data: Buffer): boolean {
  return data.subarray(0, BINARY_PROBE).includes(0);
}

function splitLines(data: Buffer): string[] {
  if (data.length === 0) return [];
  // latin1 keeps one char per byte: equality of lines is equality of bytes.
  const text = data.toString('latin1');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += '\0'; // "no newline at end of file" differs from the same line with one
  return lines;
}

export function lineCounts(before: Buffer | null, after: Buffer | null): LineCounts {
  const a = before ?? Buffer.alloc(0);
  const b = after ?? Buffer.alloc(0);
  if (isBinary(a) || isBinary(b)) return { insertions: 0, deletions: 0, binary: true };
  const x = splitLines(a);
  const y = splitLines(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--;
    endY--;
  }
  const n = endX - start;
  const m = endY - start;
  if (n === 0 || m === 0) return { insertions: m, deletions: n, binary: false };
  const d = editDistance(x, start, endX, y, start, endY, MAX_EDIT_COST);
  if (d === null) return multisetCounts(x.slice(start, endX), y.slice(start, endY));
  // d = deletions + insertions, and insertions - deletions = m - n.
  return { insertions: (d + m - n) / 2, deletions: (d - m + n) / 2, binary: false };
}

/** Myers' shortest edit script length (insertions + deletions), or null past `limit`. */
function editDistance(x: string[], x0: number, x1: number, y: string[], y0: number, y1: number, limit: number): number | null {
  const n = x1 - x0;
  const m = y1 - y0;
  const max = Math.min(n + m, limit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let i = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0)) ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let j = i - k;
      while (i < n && j < m && x[x0 + i] === y[y0 + j]) {
        i++;
        j++;
      }
      v[offset + k] = i;
      if (i >= n && j >= m) return d;
    }
  }
  return null;
}

function multisetCounts(x: string[], y: string[]): LineCounts {
  const count = new Map<string, number>();
  for (const line of x) count.set(line, (count.get(line) ?? 0) + 1);
  let common = 0;
  for (const line of y) {
    const c = count.get(line) ?? 0;
    if (c > 0) {
      common++;
      count.set(line, c - 1);
    }
  }
  return { insertions: y.length - common, deletions: x.length - common, binary: false };
}

/** A regular file's bytes, opened without blocking or following a link; null for anything else. */
function readRegularFile(full: string): Buffer | null {
  const fd = openSync(full, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (fsConstants.O_NOFOLLOW ?? 0));
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd) : null;
  } finally {
    closeSync(fd);
  }
}

/** Lines of a file as a creation counts them: every LF, plus a last line without one. */
export function countLines(data: Buffer): number {
  let lines = 0;
  for (let at = data.indexOf(10); at >= 0; at = data.indexOf(10, at + 1)) lines++;
  return data.length > 0 && data[data.length - 1] !== 10 ? lines + 1 : lines;
}

/**
 * The counts of a first snapshot (every file created), read from the disk in
 * Node while git hashes the same files: git's numstat would inflate every
 * blob again after update-index (a second pass over the whole workspace).
 * A file that vanished meanwhile is not counted.
 */
export async function linesOfNewFiles(root: string, rels: readonly string[]): Promise<CheckpointStats> {
  const stats: CheckpointStats = { files: 0, insertions: 0, deletions: 0 };
  // Synchronous reads in batches: through the thread pool each small file cost
  // this thread ~4 calls' overhead (30,000 files: ~2 s).
  await forEachInBatches(rels, (rel) => {
    const full = path.join(root, rel);
    try {
      const data = lstatSync(full).isSymbolicLink() ? readlinkSync(full, { encoding: 'buffer' }) : readRegularFile(full);
      // Only what the scan let through: a regular file (a pipe swapped in meanwhile is not read).
      if (data === null) return;
      stats.files += 1;
      if (!isBinary(data)) stats.insertions += countLines(data);
    } catch {
      /* gone: update-index dropped it too */
    }
  }, 256);
  return stats;
}
