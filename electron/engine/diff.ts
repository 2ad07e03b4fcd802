// Changed files between two trees: compared in Node when that is certain to
// give git's answer (compareInNode), else one `diff-tree -r -z -M --raw
// --numstat` for status, renames, modes and line counts; sizes from the
// store's `cat-file --batch-check`.
import type { ChangeStatus, FileChange } from '../../shared/model.js';
import { batchCheck, readObjectsLimited } from './objects/cat-file.js';
import type { GitContext } from './git/git-env.js';
import { git, ZERO_OID } from './git/git-runner.js';
import { lineCounts } from './trees/line-stats.js';
import { cachedReader, diffTreesInNode } from './trees/tree-diff.js';

const GITLINK = '160000';

/** A comparison of at most this many changed files, each blob at most NODE_MAX_BYTES, is made in Node. */
const NODE_MAX_FILES = 64;
const NODE_MAX_BYTES = 1024 * 1024;

const STATUS: Record<string, ChangeStatus> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'added', T: 'type_changed' };

interface RawEntry {
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
  status: string;
  path: string;
  oldPath?: string;
}

/** Both sides' modes and blobs of one path between two trees (as `diff-tree --no-renames --raw` gives them). */
export interface PathSides {
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
}

// The last few full tree comparisons, so the file view that follows a diff
// needs no diff-tree of its own. Keyed by tree ids, which name their content:
// an entry can never go stale. Paths in a rename or copy are left out (their
// sides differ without rename detection), as are very large comparisons.
const RECENT_MAX = 16;
const RECENT_MAX_FILES = 20_000;
const recent = new Map<string, { sides: Map<string, PathSides>; renamed: Set<string> }>();

/**
 * From a recent diffTrees of the same two trees: the path's sides, null when
 * the path did not change, undefined when not known (ask git).
 */
export function recentSides(gitDir: string, from: string, to: string, rel: string): PathSides | null | undefined {
  const hit = recent.get(`${gitDir}\0${from}\0${to}`);
  if (!hit || hit.renamed.has(rel)) return undefined;
  return hit.sides.get(rel) ?? null;
}

function remember(gitDir: string, from: string, to: string, raw: RawEntry[]): void {
  if (raw.length > RECENT_MAX_FILES) return;
  const sides = new Map<string, PathSides>();
  const renamed = new Set<string>();
  for (const r of raw) {
    if (r.oldPath !== undefined) {
      renamed.add(r.oldPath);
      renamed.add(r.path);
    } else sides.set(r.path, { oldMode: r.oldMode, newMode: r.newMode, oldOid: r.oldOid, newOid: r.newOid });
  }
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value ?? '');
  recent.set(`${gitDir}\0${from}\0${to}`, { sides, renamed });
}

/** What a comparison found: each change (git's raw form) and its line counts (null: binary). */
interface Compared {
  raw: RawEntry[];
  counts: Map<string, { ins: number | null; del: number | null }>;
  /** Blob sizes, when the comparison read the blobs. */
  sizes?: Map<string, number>;
}

export async function diffTrees(gitCtx: GitContext, from: string, to: string, paths?: string[]): Promise<FileChange[]> {
  if (from === to) return [];
  const compared = (await compareInNode(gitCtx, from, to, paths)) ?? (await compareWithGit(gitCtx, from, to, paths));
  const { raw, counts } = compared;
  if (!paths || paths.length === 0) remember(gitCtx.gitDir, from, to, raw);
  const blobs = raw.flatMap((r) => [r.oldOid, r.newOid]).filter((o) => o !== ZERO_OID);
  const sizes = compared.sizes ?? new Map([...(await batchCheck(gitCtx, blobs, { shared: true }))].map(([oid, info]) => [oid, info.size]));
  const sizeOf = (oid: string): number | null => (oid === ZERO_OID ? null : (sizes.get(oid) ?? null));
  return raw.map((r): FileChange => {
    const found = counts.get(r.path);
    const c = found ?? { ins: 0, del: 0 };
    const oldMode = /^0+$/.test(r.oldMode) ? null : r.oldMode;
    const newMode = /^0+$/.test(r.newMode) ? null : r.newMode;
    const change: FileChange = {
      path: r.path,
      status: STATUS[r.status] ?? 'modified',
      old_mode: oldMode,
      new_mode: newMode,
      mode_changed: oldMode !== null && newMode !== null && oldMode !== newMode,
      binary: found !== undefined && found.ins === null,
      old_size: sizeOf(r.oldOid),
      new_size: sizeOf(r.newOid),
      insertions: c.ins,
      deletions: c.del,
    };
    if (r.oldPath !== undefined) change.old_path = r.oldPath;
    return change;
  });
}

/**
 * The comparison without a git process, for what a checkpoint usually is (a
 * few files changed): the trees compared in Node (tree-diff.ts) and line
 * counts from the blobs (line-stats.ts, as git's numstat: binary when a NUL
 * is in the first 8,000 bytes; the store's attributes leave diff rules to
 * that default). Null — git decides — when a rename is possible (a file added
 * and another deleted: -M's similarity is git's), for a type change or a
 * gitlink, for many or large files, and when an object cannot be read.
 */
async function compareInNode(gitCtx: GitContext, from: string, to: string, paths: readonly string[] | undefined): Promise<Compared | null> {
  // An object that cannot be read here: git's comparison fails too, and its
  // failure is the one explained as a damaged checkpoint (tree-check.ts).
  const changes = await diffTreesInNode(cachedReader(gitCtx), from, to, paths).catch(() => null);
  if (changes === null || changes.length > NODE_MAX_FILES) return null;
  if (changes.some((c) => c.status === 'T' || c.oldMode === GITLINK || c.newMode === GITLINK)) return null;
  if (changes.some((c) => c.status === 'A') && changes.some((c) => c.status === 'D')) return null;
  const oids = changes.flatMap((c) => [c.oldOid, c.newOid]).filter((o) => o !== ZERO_OID);
  const blobs = oids.length === 0 ? new Map<string, { data: Buffer | null }>() : await readObjectsLimited(gitCtx, oids, NODE_MAX_BYTES).catch(() => null);
  if (blobs === null) return null;
  const body = (oid: string): Buffer | null | undefined => (oid === ZERO_OID ? null : (blobs.get(oid)?.data ?? undefined));
  const counts = new Map<string, { ins: number | null; del: number | null }>();
  for (const c of changes) {
    const before = body(c.oldOid);
    const after = body(c.newOid);
    if (before === undefined || after === undefined) return null; // too large, or unreadable here
    const n = lineCounts(before, after);
    counts.set(c.path, n.binary ? { ins: null, del: null } : { ins: n.insertions, del: n.deletions });
  }
  const sizes = new Map([...blobs].map(([oid, blob]) => [oid, blob.data?.length ?? 0]));
  return { raw: changes.map(({ path, oldMode, newMode, oldOid, newOid, status }) => ({ path, oldMode, newMode, oldOid, newOid, status })), counts, sizes };
}

async function compareWithGit(gitCtx: GitContext, from: string, to: string, paths: readonly string[] | undefined): Promise<Compared> {
  const args = ['diff-tree', '-r', '-z', '-M', '--raw', '--numstat', from, to];
  if (paths && paths.length > 0) args.push('--', ...paths);
  const tokens = (await git(gitCtx, args)).split('\0');
  const raw: RawEntry[] = [];
  const counts = new Map<string, { ins: number | null; del: number | null }>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] ?? '';
    if (token.startsWith(':')) {
      const [oldMode = '', newMode = '', oldOid = '', newOid = '', status = ''] = token.slice(1).split(' ');
      const letter = status.charAt(0);
      if (letter === 'R' || letter === 'C') {
        raw.push({ oldMode, newMode, oldOid, newOid, status: letter, oldPath: tokens[i + 1] ?? '', path: tokens[i + 2] ?? '' });
        i += 2;
      } else {
        raw.push({ oldMode, newMode, oldOid, newOid, status: letter, path: tokens[i + 1] ?? '' });
        i += 1;
      }
      continue;
    }
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(token);
    if (!m) continue;
    let path = m[3] ?? '';
    if (path === '') {
      path = tokens[i + 2] ?? ''; // rename: "\0old\0new"
      i += 2;
    }
    counts.set(path, { ins: m[1] === '-' ? null : Number(m[1]), del: m[2] === '-' ? null : Number(m[2]) });
  }
  return { raw, counts };
}
