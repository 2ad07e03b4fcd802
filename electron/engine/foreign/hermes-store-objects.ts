// Copies the objects of Hermes checkpoints' trees into Chronoscope's store,
// at the moment one is shown, diffed or restored.
//
// Why copy rather than read across stores: a diff compares two trees, and git
// can only compare trees in one object database; a restore needs the blobs
// while it writes, under our lock, even if Hermes prunes and gc's its store
// meanwhile. Borrowing Hermes' objects as an alternate would make our store
// depend on objects Hermes deletes, and git "freshens" (touches) objects it
// finds in an alternate when writing — a write into Hermes' store. Copied, the
// objects are ours: every engine verb works on them unchanged, and Hermes'
// store is only read (ls-tree, pack-objects --stdout). Objects we already hold
// (the usual case: the same files were snapshotted by us) are not copied.
// Copied objects no checkpoint of ours uses are unreferenced: `prune
// --compact` reclaims them, and the next use copies them again.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { ChronoscopeError } from '../../../shared/errors.js';
import { batchCheck } from '../objects/cat-file.js';
import { CREDENTIAL_EXCLUDES } from '../scan/excludes.js';
import { tempFile } from '../support/fsutil.js';
import type { GitContext } from '../git/git-env.js';
import { git, gitStdin, spawnGit, splitNul } from '../git/git-runner.js';
import { hermesGit } from './hermes-store.js';

/** Where copied objects go: Chronoscope's store and what its credential policy says. */
export interface CopyTarget {
  /** Git dir of our store. */
  gitDir: string;
  /** Our store's folder for temporary files. */
  tmpDir: string;
  includeCredentials: boolean;
}

interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  path: string;
}

/** Every entry of a tree, recursively, subtrees included (`ls-tree -r -t`). */
async function listTree(store: string, tree: string): Promise<TreeEntry[]> {
  const out = await git(hermesGit(store), ['ls-tree', '-r', '-t', '-z', '--full-tree', tree]);
  return splitNul(out).map((entry) => {
    const tab = entry.indexOf('\t');
    const [mode = '', type = '', oid = ''] = entry.slice(0, tab).split(' ');
    return { mode, type, oid, path: entry.slice(tab + 1) };
  });
}

/**
 * Which of `paths` the gitignore-syntax patterns in `patternsFile` match:
 * check-ignore with that file as the only rule source (an empty work tree, so
 * no .gitignore of anyone's takes part; git only reads the file).
 */
export async function pathsMatching(target: Pick<CopyTarget, 'gitDir' | 'tmpDir'>, patternsFile: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const workTree = await tempFile(target.tmpDir, 'hermes-empty');
  try {
    await fs.mkdir(workTree);
    const ctx: GitContext = { gitDir: target.gitDir, workTree, excludeFile: patternsFile, plainPaths: true, cwd: workTree };
    const result = await gitStdin(ctx, ['check-ignore', '--no-index', '-z', '--stdin'], { input: paths.map((p) => `${p}\0`).join(''), okCodes: [0, 1] });
    return new Set(splitNul(result.stdout.toString('utf8')));
  } finally {
    await fs.rm(workTree, { recursive: true, force: true });
  }
}

/** The paths our credential policy keeps out of the store: CREDENTIAL_EXCLUDES, the patterns a snapshot uses. */
async function credentialPaths(target: CopyTarget, paths: string[]): Promise<Set<string>> {
  if (target.includeCredentials || paths.length === 0) return new Set();
  const patternsFile = await tempFile(target.tmpDir, 'hermes-credentials');
  try {
    await fs.writeFile(patternsFile, `${CREDENTIAL_EXCLUDES.join('\n')}\n`);
    return await pathsMatching(target, patternsFile, paths);
  } finally {
    await fs.rm(patternsFile, { force: true });
  }
}

function exited(child: ChildProcess, what: string): Promise<void> {
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', (e) => reject(new ChronoscopeError('internal', `cannot run git: ${e.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new ChronoscopeError('internal', `${what} failed: ${stderr.split('\n').find((l) => l.trim()) ?? `exit code ${code}`}`)),
    );
  });
}

/**
 * Streams the objects our store lacks from Hermes' `pack-objects --stdout`
 * into our `unpack-objects`, fsyncing what it writes (a restore's checkpoints
 * may come to use them).
 */
async function copyObjects(store: string, target: CopyTarget, oids: readonly string[]): Promise<void> {
  const ours: GitContext = { gitDir: target.gitDir, cwd: target.gitDir };
  const have = await batchCheck(ours, oids);
  const missing = [...new Set(oids)].filter((oid) => !have.has(oid));
  if (missing.length === 0) return;
  const source = spawnGit(hermesGit(store), ['pack-objects', '--stdout', '-q']);
  const sink = spawnGit(ours, ['-c', 'core.fsync=loose-object', '-c', 'core.fsyncMethod=fsync', 'unpack-objects', '-q']);
  source.stdin?.on('error', () => undefined);
  sink.stdin?.on('error', () => undefined);
  source.stdout?.pipe(sink.stdin as NodeJS.WritableStream);
  source.stdin?.end(missing.map((oid) => `${oid}\n`).join(''));
  await Promise.all([exited(source, "reading Hermes' objects (pack-objects)"), exited(sink, 'copying them into the store (unpack-objects)')]);
}

/** Hermes tree → our tree, for trees this process copied (see copyHermesTree). */
const copied = new Map<string, string>();

/**
 * Makes a Hermes checkpoint's tree available in our store and returns its id
 * there. Usually the same tree, its missing objects copied. A tree holding
 * files our credential policy keeps out (Hermes stores `.npmrc`, keys…) is
 * copied without them — a tree of its own, built in a temporary index — so
 * no secret enters our store through Hermes either.
 */
export async function copyHermesTree(store: string, target: CopyTarget, tree: string): Promise<string> {
  const key = `${target.gitDir}\0${tree}\0${target.includeCredentials}`;
  const known = copied.get(key);
  // A tree copied earlier is whole while its root object is still here: a gc
  // that drops copied objects drops the root with them (nothing of ours holds
  // it), and a copy only counts once it has ended.
  if (known !== undefined && (await batchCheck({ gitDir: target.gitDir, cwd: target.gitDir }, [known])).has(known)) return known;
  const entries = await listTree(store, tree);
  const files = entries.filter((e) => e.type === 'blob');
  const secret = await credentialPaths(target, files.map((e) => e.path));
  let ours = tree;
  if (secret.size === 0) {
    await copyObjects(store, target, [tree, ...entries.filter((e) => e.type === 'blob' || e.type === 'tree').map((e) => e.oid)]);
  } else {
    const kept = entries.filter((e) => (e.type === 'blob' && !secret.has(e.path)) || e.type === 'commit');
    await copyObjects(store, target, kept.filter((e) => e.type === 'blob').map((e) => e.oid));
    const indexFile = await tempFile(target.tmpDir, 'hermes-index');
    try {
      const ctx: GitContext = { gitDir: target.gitDir, indexFile, cwd: target.gitDir };
      await gitStdin(ctx, ['update-index', '-z', '--index-info'], { input: kept.map((e) => `${e.mode} ${e.oid}\t${e.path}\0`).join('') });
      ours = (await git(ctx, ['write-tree'])).trim();
    } finally {
      await fs.rm(indexFile, { force: true });
      await fs.rm(`${indexFile}.lock`, { force: true });
    }
  }
  if (copied.size > 4096) copied.clear();
  copied.set(key, ours);
  return ours;
}
