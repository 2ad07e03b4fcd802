// Special files — FIFOs, sockets, devices — are never recorded (git refuses
// them, and reading a pipe could hang), and git's own listing never shows an
// untracked one (`ls-files -o` passes over them, as does its untracked cache).
// So that a checkpoint still names everything it leaves out, a full scan also
// looks for them here, side by side with git's listing (scan.ts).
//
// Cost: the walk visits folders, never files, and remembers each folder by
// its inode, mtime and ctime (a file created, removed or renamed in a folder
// changes its mtime). A folder unchanged since the last scan costs one lstat;
// only changed folders are read (one readdir, whose entry types need no stat).
// Folders git ignores (node_modules, build output) are not walked: a new
// folder holding a file git's own listing shows as untracked is not ignored;
// for any other new folder or special file `git check-ignore` is asked, once
// per level of new folders — so only when such names appear, never for a scan
// of an unchanged tree — and the answer is remembered until the ignore rules
// change (the exclude file or any .gitignore the walk knows).
// Nested repositories (a folder holding `.git`) are not walked either.
import { createHash } from 'node:crypto';
import type { Dirent, Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SkippedFile } from '../../../shared/model.js';
import { writeFileAtomic } from '../../fs/atomic-file.js';
import { readTextBounded } from '../../fs/bounded-read.js';
import type { GitContext } from '../git/git-env.js';
import { gitStdin, splitNul } from '../git/git-runner.js';
import { lstatQuiet, mapLimit, SYNC_BATCH } from '../support/fsutil.js';

interface DirEntry {
  /** ino:mtime:ctime when read; '' when it changed too recently to trust (re-read next time). */
  k: string;
  /** Subfolders walked (not ignored). */
  sub: string[];
  /** Names decided ignored (folders and special files): not asked again while the rules hold. */
  ign: string[];
  /** Special files not ignored. */
  sp: string[];
  /** Holds a .gitignore (its stat is part of the rules key). */
  gi?: true;
  /** A nested repository: nothing inside is ours. */
  repo?: true;
}

/** One folder as the walk found it. */
interface Read {
  rel: string;
  entry: DirEntry;
  undecided: Undecided[];
}

/** A folder or special file seen for the first time: git's ignore rules decide. */
interface Undecided {
  name: string;
  folder: boolean;
}

interface Cache {
  v: 1;
  rules: string;
  dirs: Record<string, DirEntry>;
}

/** A folder changed within this long before the walk may change again in the same clock tick: not trusted from the cache. */
const RACY_MS = 2000;
const CACHE_MAX_BYTES = 64 * 1024 * 1024;

function isSpecial(d: Dirent): boolean {
  return d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice();
}

function join(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}

async function readCache(file: string): Promise<Cache | null> {
  try {
    const raw = JSON.parse(await readTextBounded(file, CACHE_MAX_BYTES)) as Cache;
    return raw && raw.v === 1 && typeof raw.rules === 'string' && raw.dirs && typeof raw.dirs === 'object' ? raw : null;
  } catch {
    return null;
  }
}

/** What the ignore decisions depend on: the exclude file, the extra excludes and every known .gitignore, by stat. */
async function rulesKey(root: string, excludeFile: string | undefined, excludeArgs: readonly string[], dirs: Record<string, DirEntry>): Promise<string> {
  const files = [...(excludeFile ? [excludeFile] : []), ...Object.keys(dirs).filter((d) => dirs[d]?.gi).map((d) => path.join(root, join(d, '.gitignore')))];
  const stats = await Promise.all(files.sort().map(async (f) => {
    const st = await fs.lstat(f).catch(() => null);
    return `${f}:${st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : '-'}`;
  }));
  return createHash('sha1').update(excludeArgs.join('\0')).update('\0\0').update(stats.join('\0')).digest('hex');
}

/** The given workspace paths git's ignore rules match (one check-ignore; none when empty). */
async function ignoredAmong(gitCtx: GitContext, rels: readonly string[]): Promise<Set<string>> {
  if (rels.length === 0) return new Set();
  const run = await gitStdin({ ...gitCtx, plainPaths: true }, ['check-ignore', '--no-index', '-z', '--stdin'], { input: rels.map((r) => `${r}\0`).join(''), okCodes: [0, 1] });
  return new Set(splitNul(run.stdout.toString('utf8')));
}

export interface SpecialWalkOptions {
  cacheFile: string;
  /** `--exclude=` arguments the scan passes to git (credentialExcludeArgs): part of the rules key. */
  excludeArgs?: readonly string[];
  /** What git's listing of untracked files gives (paths): a new folder holding one is not ignored. */
  untracked?: Promise<readonly string[]>;
}

/** Every special file in the workspace that git does not ignore, as skipped entries (sorted). */
export async function findSpecialFiles(gitCtx: GitContext, root: string, options: SpecialWalkOptions): Promise<SkippedFile[]> {
  const excludeArgs = options.excludeArgs ?? [];
  const cached = await readCache(options.cacheFile);
  const before = cached?.dirs ?? {};
  const rules = await rulesKey(root, gitCtx.excludeFile, excludeArgs, before);
  const trusted = cached !== null && cached.rules === rules;
  let walked = await walk(gitCtx, root, trusted ? before : {}, options.untracked);
  let after = await rulesKey(root, gitCtx.excludeFile, excludeArgs, walked.dirs);
  // A .gitignore appeared or went during the walk: decide everything again under the new rules.
  if (after !== rules && trusted) {
    walked = await walk(gitCtx, root, {}, options.untracked);
    after = await rulesKey(root, gitCtx.excludeFile, excludeArgs, walked.dirs);
  }
  if (walked.changed || !trusted || after !== rules) {
    await writeFileAtomic(options.cacheFile, JSON.stringify({ v: 1, rules: after, dirs: walked.dirs } satisfies Cache), { mode: 0o600 }).catch(() => undefined);
  }
  const found: SkippedFile[] = [];
  for (const [dir, entry] of Object.entries(walked.dirs)) for (const name of entry.sp) found.push({ path: join(dir, name), size: 0, why: 'special' });
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every folder above a path git listed as untracked (computed once per walk, only when a new folder appears). */
const folderMemo: WeakMap<Promise<readonly string[]>, Promise<Set<string>>> = new WeakMap();
function untrackedFolders(listed: Promise<readonly string[]>): Promise<Set<string>> {
  let known = folderMemo.get(listed);
  if (!known) {
    known = listed.then((paths) => {
      const folders = new Set<string>();
      for (const p of paths) {
        for (let at = p.lastIndexOf('/'); at > 0; at = p.lastIndexOf('/', at - 1)) {
          const dir = p.slice(0, at);
          if (folders.has(dir)) break;
          folders.add(dir);
        }
      }
      return folders;
    });
    folderMemo.set(listed, known);
  }
  return known;
}

async function walk(gitCtx: GitContext, root: string, before: Record<string, DirEntry>, untracked: Promise<readonly string[]> | undefined): Promise<{ dirs: Record<string, DirEntry>; changed: boolean }> {
  const dirs: Record<string, DirEntry> = {};
  let changed = false;
  const now = Date.now();
  let level = ['.'];
  while (level.length > 0) {
    // Each folder: unchanged (its cached entry, one lstat) or read; names not yet decided are collected.
    // The lstats are synchronous, in batches: through the thread pool each cost
    // ~10x more (216 folders: ~15 ms vs ~2 ms on a loaded machine), and a batch
    // blocks the event loop only briefly.
    const read: (Read | null)[] = [];
    const toRead: { rel: string; full: string; st: Stats; key: string; old: DirEntry | undefined }[] = [];
    for (const [i, rel] of level.entries()) {
      if (i > 0 && i % SYNC_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
      const full = rel === '.' ? root : path.join(root, rel);
      const st = lstatQuiet(full);
      if (!st?.isDirectory()) continue;
      const key = `${st.ino}:${st.mtimeMs}:${st.ctimeMs}`;
      const old = before[rel];
      if (old && old.k === key) read.push({ rel, entry: old, undecided: [] });
      else toRead.push({ rel, full, st, key, old });
    }
    if (toRead.length > 0) changed = true;
    read.push(
      ...(await mapLimit(toRead, 32, async ({ rel, full, st, key, old }): Promise<Read | null> => {
        const items = await fs.readdir(full, { withFileTypes: true }).catch(() => null);
        if (items === null) return null;
        const entry: DirEntry = { k: now - st.mtimeMs < RACY_MS || now - st.ctimeMs < RACY_MS ? '' : key, sub: [], ign: [], sp: [] };
        if (rel !== '.' && items.some((d) => d.name === '.git')) return { rel, entry: { ...entry, repo: true }, undecided: [] };
        if (items.some((d) => d.name === '.gitignore' && d.isFile())) entry.gi = true;
        const known = new Set([...(old?.sub ?? []), ...(old?.sp ?? [])]);
        const ignored = new Set(old?.ign ?? []);
        const undecided: Undecided[] = [];
        for (const d of items) {
          if (d.name === '.git') continue;
          const folder = d.isDirectory();
          if (!folder && !isSpecial(d)) continue;
          if (ignored.has(d.name)) entry.ign.push(d.name);
          else if (known.has(d.name)) (folder ? entry.sub : entry.sp).push(d.name);
          else undecided.push({ name: d.name, folder });
        }
        return { rel, entry, undecided };
      })),
    );
    const undecided = read.flatMap((r) => (r ? r.undecided.map((u) => ({ rel: join(r.rel, u.name), folder: u.folder })) : []));
    // A new folder holding a file git lists as untracked is not ignored: no need to ask.
    const holding = undecided.some((u) => u.folder) && untracked ? await untrackedFolders(untracked) : new Set<string>();
    const ignored = await ignoredAmong(gitCtx, undecided.filter((u) => !(u.folder && holding.has(u.rel))).map((u) => u.rel));
    const next: string[] = [];
    for (const r of read) {
      if (!r) continue;
      for (const { name, folder } of r.undecided) {
        if (ignored.has(join(r.rel, name))) r.entry.ign.push(name);
        else (folder ? r.entry.sub : r.entry.sp).push(name);
      }
      dirs[r.rel] = r.entry;
      if (!r.entry.repo) next.push(...r.entry.sub.map((name) => join(r.rel, name)));
    }
    level = next;
  }
  if (Object.keys(before).some((rel) => !(rel in dirs))) changed = true;
  return { dirs, changed };
}

/** The given paths that are special files git does not ignore (a limited scan: an lstat each, check-ignore only if one is). */
export async function specialsAmong(gitCtx: GitContext, root: string, rels: readonly string[]): Promise<SkippedFile[]> {
  const special: string[] = [];
  await mapLimit([...new Set(rels)], 32, async (rel) => {
    const st = await fs.lstat(path.join(root, rel)).catch(() => null);
    if (st && (st.isFIFO() || st.isSocket() || st.isBlockDevice() || st.isCharacterDevice())) special.push(rel);
  });
  const ignored = await ignoredAmong(gitCtx, special);
  return special.filter((rel) => !ignored.has(rel)).sort().map((rel) => ({ path: rel, size: 0, why: 'special' as const }));
}
