// Brings an index up to date with the disk and writes its tree. Used by
// snapshots (the private index) and by read-only comparisons with the disk
// (a temporary copy of it), so both see the workspace exactly alike.
//
// Git processes: `diff-files` and `ls-files -t -o` side by side find what
// changed using the index's stat cache (unchanged files are not read),
// `update-index --stdin` hashes only those, `write-tree` writes the tree.
// Rarely one more: removing tracked files that became ignored or oversized. When nothing needs updating and the caller
// knows the index's tree (`knownTree`), write-tree is skipped: the 2 ls-files only. With
// `statsFrom`, line counts against that tree come from `diff-index --cached`
// running alongside write-tree (both only read the updated index's entries).
// Path-limited scans of plain files take the fast path in scan-paths.ts.
import { accessSync, constants as fsConstants, rmSync, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { CheckpointStats, SkippedFile } from '../../../shared/model.js';
import { numstatIndex } from '../git/stats.js';
import type { GitContext } from '../git/git-env.js';
import { EMPTY_TREE, git, gitStdin, gitStdinStream, splitNul } from '../git/git-runner.js';
import { exists, forEachInBatches, lstatQuiet } from '../support/fsutil.js';
import { linesOfNewFiles } from '../trees/line-stats.js';
import { scanPathsFast } from './scan-paths.js';
import { objectDirsChangedSince, stampObjectDirs } from '../objects/loose-write.js';
import { findSpecialFiles, specialsAmong } from './special-files.js';
import { writeIndexTrees } from '../index/index-trees.js';
import type { ScanOptions, ScanResult } from './scan-result.js';
import { mergeIndexFiles } from '../index/index-merge.js';

/** Beyond this many paths a limited scan costs more in arguments than a full scan. */
const MAX_LIMITED_PATHS = 1000;
/** From this many files to hash, write them into one pack (see the update-index call). */
const BULK_PACK_MIN = 200;

const uid = process.getuid?.();

/** Whether update-index can read the file (it fails the whole scan on one it cannot). */
function readable(full: string, st: Stats): boolean {
  // The owner's read bit is what decides for the owner (an ACL's owner entry
  // is those bits): no access() call for the usual file (100,000 files: ~0.5 s).
  if (uid !== undefined && uid !== 0 && st.uid === uid && (st.mode & 0o400) !== 0) return true;
  try {
    accessSync(full, fsConstants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** Above this many changed paths, git's update-index is the better deal than building the tree in Node. */
const MAX_WITHOUT_INDEX = 200;

export async function scanToTree(gitCtx: GitContext, root: string, options: ScanOptions): Promise<ScanResult> {
  if (gitCtx.indexFile !== undefined) {
    const fast = await scanPathsFast(gitCtx, root, gitCtx.indexFile, options);
    if (fast) return fast;
  }
  // No index yet (a first snapshot): nothing is tracked that could have become ignored,
  // and every file is new, so the line counts come from the files (linesOfNewFiles).
  const freshIndex = gitCtx.indexFile !== undefined && !(await exists(gitCtx.indexFile));
  const limited = options.paths !== undefined && options.paths.length <= MAX_LIMITED_PATHS;
  const excludeArgs = options.excludeArgs ?? [];
  // Changed tracked files (diff-files: an lstat per index entry) and untracked
  // ones (-o: a walk of the folders) as two processes side by side: on 10,000
  // files each takes about as long as the other, and together ~1.7x one.
  // diff-files rather than `ls-files -m`: it also lists a file whose stat data
  // alone changed (a chmod 0644 -> 0600, which git's modes cannot show), so its
  // permission bits are recorded at once (file-modes.ts); update-index then
  // refreshes its stat data, and it is not listed again.
  const pathspec = limited ? ['--', ...(options.paths ?? [])] : [];
  const listing = git(gitCtx, ['ls-files', '-z', '-t', '-o', '--exclude-standard', ...excludeArgs, ...pathspec]);
  // Beside git's listing, which never shows them: untracked FIFOs and sockets (special-files.ts).
  const walkAfter = options.specialsOnlyIfChanged === true && !limited;
  let specials = options.specialsCache === undefined || walkAfter ? undefined : untrackedSpecials(gitCtx, root, options, limited, listing);
  specials?.catch(() => undefined); // awaited below
  // No preload threads: like ls-files -m, one thread lstats the entries (on 2 busy cores, 20 threads were slower).
  const changedRun = git(gitCtx, ['-c', 'core.preloadIndex=false', 'diff-files', '-z', '--name-only', '--ignore-submodules=dirty', ...pathspec]);
  const [modified, others] = await Promise.all([changedRun, listing]);
  const entries = [...splitNul(modified).map((rel) => `C ${rel}`), ...splitNul(others)];
  if (walkAfter && options.specialsCache !== undefined && (entries.length > 0 || (options.pendingPaths?.length ?? 0) > 0 || freshIndex)) {
    specials = untrackedSpecials(gitCtx, root, options, limited, listing);
    specials.catch(() => undefined); // awaited below
  }

  const nestedRepos: string[] = [];
  const candidates: { rel: string; tracked: boolean }[] = [];
  let touchesIgnoreRules = false;
  for (const entry of entries) {
    const tag = entry[0];
    const rel = entry.slice(2);
    if (rel.endsWith('/')) {
      // ls-files shows an untracked repository as one 'dir/' entry.
      nestedRepos.push(rel.slice(0, -1));
      continue;
    }
    if (rel === '.gitignore' || rel.endsWith('/.gitignore')) touchesIgnoreRules = true;
    candidates.push({ rel, tracked: tag !== '?' });
  }
  const changed = [...new Set([...candidates.map((c) => c.rel), ...(options.pendingPaths ?? [])])];
  if (
    options.withoutIndex &&
    (options.knownTree !== undefined || options.pendingPaths !== undefined) &&
    !options.recheckIgnored &&
    !touchesIgnoreRules &&
    nestedRepos.length === 0 &&
    changed.length > 0 &&
    changed.length <= MAX_WITHOUT_INDEX
  ) {
    // Whatever ls-files named is recordable by git's rules: new files it let
    // through the ignore rules, and files the index tracks (tracked files stay
    // tracked even if a rule now matches them).
    const built = await options.withoutIndex(changed, new Set([...candidates.map((c) => c.rel), ...(options.pendingRecordable ?? [])]));
    if (built) return withSpecials(built, (await specials) ?? []);
  }

  const skipped: SkippedFile[] = [];
  const update: string[] = [];
  const remove: string[] = [];
  const seen = new Set<string>();
  // Whether each parent folder is still a real folder (cached: many files share one).
  const dirCache = new Map<string, boolean>();
  const realDir = (rel: string): boolean => {
    let known = dirCache.get(rel);
    if (known === undefined) {
      known = lstatQuiet(path.join(root, rel))?.isDirectory() ?? true;
      dirCache.set(rel, known);
    }
    return known;
  };
  // Synchronous stats in batches (forEachInBatches; a first snapshot of 30,000
  // files spent 2.7 s of this thread on them through the thread pool).
  // The size of a file let through for hashing; undefined for anything else.
  const check = ({ rel, tracked }: { rel: string; tracked: boolean }): number | undefined => {
    if (seen.has(rel)) return;
    seen.add(rel);
    const full = path.join(root, rel);
    const st = lstatQuiet(full);
    // Names git cannot store here are named as left out, never dropped in silence.
    if (unrecordableName(rel) || (rel.includes('\uFFFD') && st === null)) {
      skipped.push({ path: rel, size: 0, why: 'unrecordable' });
      return;
    }
    // Gone (st null): update-index --remove drops it.
    const size = st?.size ?? 0;
    const isFile = st?.isFile() ?? false;
    const isDir = st?.isDirectory() ?? false;
    const isSpecial = st !== null && !isFile && !isDir && !st.isSymbolicLink();
    if (tracked) {
      // A tracked file that became a folder, or now sits behind a symlinked
      // folder, is gone as a file: update-index would refuse it ("is a
      // directory", "beyond a symbolic link"). Drop it; what is inside the new
      // folder comes as untracked files.
      if (isDir) return void remove.push(rel);
      const parts = rel.split('/');
      for (let i = 1; i < parts.length; i++) {
        if (!realDir(parts.slice(0, i).join('/'))) return void remove.push(rel);
      }
    }
    // Only regular files and symlinks are recorded: update-index refuses pipes,
    // sockets and devices (failing the whole scan), and reading a pipe could
    // hang. A file we cannot read would fail it too. Both are reported, and a
    // recorded version is dropped from the index like an oversized file, so a
    // restore treats what is on disk as unknown and leaves it alone.
    if (isSpecial) {
      skipped.push({ path: rel, size, why: 'special' });
      if (tracked) remove.push(rel);
      return;
    }
    if (isFile && st !== null && !readable(full, st)) {
      skipped.push({ path: rel, size, why: 'unreadable' });
      if (tracked) remove.push(rel);
      return;
    }
    if (isFile && size > options.maxFileBytes) {
      skipped.push({ path: rel, size, why: 'too_large' });
      if (tracked) remove.push(rel);
      return;
    }
    update.push(rel);
    return size;
  };
  // A first snapshot of many files hands each path to update-index as soon as
  // it is checked: git hashes while the rest are still being looked at
  // (100,000 files: the checks take ~1 s). ls-files lists them in index order.
  const streamed = freshIndex && candidates.length >= BULK_PACK_MIN;
  // Git writes objects from here on (update-index, write-tree): note the object folders' times
  // first — only when it will write (a scan that found nothing changed skips 256 stats).
  const stampNow = async () => (options.trackObjectDirs ? await stampObjectDirs(gitCtx.gitDir) : undefined);
  let stamp = streamed ? await stampNow() : undefined;
  let stampedAt = Date.now();
  const hashing = streamed ? hashFirstSnapshot(gitCtx, candidates.length, options.onProgress) : undefined;
  if (hashing) {
    try {
      await forEachInBatches(candidates, (candidate) => {
        const size = check(candidate);
        if (size !== undefined) hashing.add(candidate.rel, size);
      });
    } catch (err) {
      await hashing.abort(); // never leave git waiting on its input
      throw err;
    }
  } else {
    await forEachInBatches(candidates, check);
    const mayWrite = update.length > 0 || remove.length > 0 || options.recheckIgnored === true || touchesIgnoreRules || options.knownTree === undefined;
    if (mayWrite) stamp = await stampNow();
    stampedAt = Date.now();
  }

  // In index order: git appends an entry that sorts after the last one, and
  // inserts anything else with a move of the entries after it — quadratic on
  // the completion order of the checks above (100,000 files: minutes).
  update.sort(byteOrder);
  remove.sort(byteOrder);
  const from = options.statsFrom;
  const createdStats = freshIndex && from === EMPTY_TREE ? linesOfNewFiles(root, update) : undefined;
  if (hashing) await hashing.end(update.length);
  else if (update.length > 0) {
    const run = hashIntoIndex(gitCtx, update.length, options.onProgress);
    for (const rel of update) run.add(rel, 0);
    await run.end(update.length);
  }
  if ((options.recheckIgnored || touchesIgnoreRules) && !freshIndex) {
    const ignored = splitNul(await git(gitCtx, ['ls-files', '-z', '-c', '-i', '--exclude-standard', ...excludeArgs]));
    remove.push(...ignored);
  }
  if (remove.length > 0) {
    await gitStdin(gitCtx, ['update-index', '--force-remove', '-z', '--stdin'], { input: nulJoin(remove) });
  }
  const result = withSpecials({ skipped, nestedRepos, changed: candidates.length, hashed: update }, (await specials) ?? []);
  const indexChanged = update.length > 0 || remove.length > 0;
  if (!indexChanged && options.knownTree !== undefined) return { ...result, tree: options.knownTree };
  // A first snapshot of many files: its trees as one pack (index-trees.ts), not a loose file each.
  const writeTree = freshIndex && update.length >= BULK_PACK_MIN ? writeIndexTrees(gitCtx) : git(gitCtx, ['write-tree']).then((out) => ({ tree: out.trim(), entries: undefined }));
  const [{ tree, entries: indexEntries }, stats] = await Promise.all([writeTree, createdStats ?? (from !== undefined && indexChanged ? numstatIndex(gitCtx, from) : undefined)]);
  const objectDirs = stamp ? await objectDirsChangedSince(gitCtx.gitDir, stamp, stampedAt) : undefined;
  const withDirs = { ...result, ...(objectDirs ? { objectDirs } : {}), ...(indexEntries ? { indexEntries } : {}) };
  return stats ? { ...withDirs, tree, stats } : { ...withDirs, tree };
}

/** A list of paths handed to git for hashing as it is made. */
interface Hashing {
  /** Hands one path (of this many bytes) to git. */
  add(rel: string, bytes: number): void;
  end(total: number): Promise<void>;
  /** Lets git finish what it was given, keeping none of it in the index where that can be avoided. */
  abort(): Promise<void>;
}

/**
 * One update-index for a whole list, written to it as it is made: it takes
 * the paths as given (no pathspec matching, which made `git add` of a long
 * list grow with its square) and drops a path that vanished meanwhile. Its
 * earlier slowness (~3x git add) was glibc's malloc returning memory to the
 * system after every file: the allocator setting in git-env.ts removes it.
 * Many new blobs (from BULK_PACK_MIN; a first snapshot) go into one pack
 * instead of a loose file each: update-index streams files above
 * core.bigFileThreshold into a single bulk-checkin pack, and creating 10,000
 * object files is what costs (10,000 files/100 MB: ~6.0 s -> ~4.1 s, objects
 * 74 -> 46 MB). Only this process sees the threshold (it also makes diffs
 * call files binary). The pack is deflated at level 1 like loose objects
 * (core.looseCompression's default); the pack default, 6, cost ~25% more
 * time for ~6% less space. `onLines` counts the lines --verbose prints, one
 * per file added (for progress).
 */
function startHashing(gitCtx: GitContext, bulk: boolean, onLines?: (lines: number) => void): { write(paths: string): void; end(): Promise<unknown> } {
  const config = bulk ? ['-c', 'core.bigFileThreshold=1', '-c', 'pack.compression=1'] : [];
  const verbose = onLines ? ['--verbose'] : [];
  const progress = onLines
    ? {
        onStdout: (chunk: Buffer) => {
          let lines = 0;
          for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
          onLines(lines);
        },
      }
    : {};
  const run = gitStdinStream(gitCtx, [...config, 'update-index', ...verbose, '--add', '--remove', '--replace', '-z', '--stdin'], progress);
  return {
    write: (paths) => {
      if (paths.length > 0) run.write(paths);
    },
    end: () => run.end(),
  };
}

/** Progress over files hashed by one or more update-index processes. */
function hashProgress(expected: number, onProgress: ScanOptions['onProgress']): { onLines?: (lines: number) => void; done(total: number): void } {
  if (!onProgress) return { done: () => undefined };
  let total = expected;
  let hashed = 0;
  onProgress(0, total);
  return {
    onLines: (lines) => {
      hashed += lines;
      onProgress(Math.min(hashed, total), total);
    },
    done: (finalTotal) => {
      total = finalTotal;
      onProgress(total, total);
    },
  };
}

/** Paths written to git in batches (a pipe write per path cost more than git's hashing of a small file). */
function batched(run: { write(paths: string): void }): { push(rel: string): void; flush(): void } {
  let pending: string[] = [];
  const flush = (): void => {
    run.write(pending.join(''));
    pending = [];
  };
  return {
    push: (rel) => {
      pending.push(`${rel}\0`);
      if (pending.length >= 256) flush();
    },
    flush,
  };
}

/** Hashing of a list that is not the first snapshot's: one process into the index itself. */
function hashIntoIndex(gitCtx: GitContext, expected: number, onProgress: ScanOptions['onProgress']): Hashing {
  const progress = hashProgress(expected, onProgress);
  const run = startHashing(gitCtx, expected >= BULK_PACK_MIN, progress.onLines);
  const input = batched(run);
  return {
    add: (rel) => input.push(rel),
    end: async (total) => {
      input.flush();
      await run.end();
      progress.done(total);
    },
    abort: async () => void (await run.end().catch(() => undefined)),
  };
}

/** Processes hashing a first snapshot side by side: the machine's cores, up to this many. */
const FIRST_HASHERS = Math.max(1, Math.min(2, availableParallelism()));

/**
 * A first snapshot's hashing, one update-index per core (two at most), each
 * into an index of its own, joined into the private index at the end
 * (index-merge.ts; 100,000 files: ~20 s -> ~15 s on two cores). Each path
 * goes to the process given the fewest bytes so far.
 */
function hashFirstSnapshot(gitCtx: GitContext, expected: number, onProgress: ScanOptions['onProgress']): Hashing {
  if (FIRST_HASHERS === 1) return hashIntoIndex(gitCtx, expected, onProgress);
  const index = gitCtx.indexFile as string;
  const progress = hashProgress(expected, onProgress);
  const parts = Array.from({ length: FIRST_HASHERS }, (_, i) => `${index}.part${i}`);
  // What a killed first snapshot left (we hold the workspace lock): a part must start empty.
  for (const file of parts) for (const leftover of [file, `${file}.lock`]) rmSync(leftover, { force: true });
  const runs = parts.map((file) => startHashing({ ...gitCtx, indexFile: file }, true, progress.onLines));
  const inputs = runs.map((run) => batched(run));
  const assigned = runs.map(() => 0);
  const removeParts = () => Promise.all(parts.flatMap((file) => [file, `${file}.lock`]).map((file) => fs.rm(file, { force: true }).catch(() => undefined)));
  return {
    add: (rel, bytes) => {
      // To the process with the fewest bytes so far (each file's hashing costs about its size).
      const least = assigned.indexOf(Math.min(...assigned));
      assigned[least] = (assigned[least] ?? 0) + bytes + 4096;
      inputs[least]?.push(rel);
    },
    end: async (total) => {
      for (const input of inputs) input.flush();
      try {
        await Promise.all(runs.map((run) => run.end()));
        // A part no path went to was never written: it holds nothing.
        const written = (await Promise.all(parts.map((file) => exists(file)))).flatMap((yes, i) => (yes ? [parts[i] as string] : []));
        if (written.length > 0) await mergeIndexFiles(written, index);
      } finally {
        await removeParts();
      }
      progress.done(total);
    },
    abort: async () => {
      await Promise.all(runs.map((run) => run.end().catch(() => undefined)));
      await removeParts();
    },
  };
}

/** The untracked special files found beside git's listing, named as skipped (sorted by path) unless already named. */
function withSpecials<T extends { skipped: SkippedFile[] }>(result: T, specials: SkippedFile[]): T {
  const named = new Set(result.skipped.map((s) => s.path));
  const skipped = [...result.skipped, ...specials.filter((s) => !named.has(s.path))];
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ...result, skipped };
}

/** A full scan walks for them (cached); a limited one looks only at the paths it was given. */
function untrackedSpecials(gitCtx: GitContext, root: string, options: ScanOptions, limited: boolean, listing: Promise<string>): Promise<SkippedFile[]> {
  if (limited) return specialsAmong(gitCtx, root, options.paths ?? []);
  const untracked = listing.then((out) => splitNul(out).map((entry) => entry.slice(2)));
  untracked.catch(() => undefined); // the scan reports git's failure itself
  return findSpecialFiles(gitCtx, root, { cacheFile: options.specialsCache as string, excludeArgs: options.excludeArgs ?? [], untracked });
}

/** Git's order of index entries: by the bytes of their UTF-8 names. */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * A path git refuses to record: a `.git` look-alike as any folder or file name
 * (`.GIT`, `.Git`, `.git ` or `.git.` — the same folder on case-insensitive or
 * Windows file systems). A name that is not UTF-8 shows as U+FFFD once decoded
 * and no longer reaches the file (checked by the caller).
 */
export function unrecordableName(rel: string): boolean {
  return rel.split('/').some((part) => /^\.git[ .]*$/i.test(part) && part !== '.git');
}

function nulJoin(paths: string[]): string {
  return paths.map((p) => `${p}\0`).join('');
}
