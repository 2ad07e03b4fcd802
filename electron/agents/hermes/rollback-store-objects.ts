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
import { ChronoscopeError } from '../../../shared/errors.js';
import { batchCheck } from '../../engine/cat-file.js';
import type { GitContext } from '../../engine/git-env.js';
import { git, spawnGit, splitNul } from '../../engine/git-runner.js';
import { hermesGit } from './rollback-store.js';

/** Every object id a tree holds (itself, subtrees, blobs; submodule commits are not objects of the store). */
async function treeObjects(store: string, tree: string): Promise<string[]> {
  const out = await git(hermesGit(store), ['ls-tree', '-r', '-t', '-z', '--full-tree', tree]);
  const oids = [tree];
  for (const entry of splitNul(out)) {
    const [, type = '', oid = ''] = entry.slice(0, entry.indexOf('\t')).split(' ');
    if (type === 'blob' || type === 'tree') oids.push(oid);
  }
  return oids;
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
 * Makes every object of `trees` (in Hermes' `store`) present in our store
 * (`ours`: a git context of Chronoscope's store). Streams one pack from
 * Hermes' `pack-objects --stdout` into our `unpack-objects`, fsyncing the
 * objects it writes (a restore's checkpoints may come to use them).
 */
export async function copyHermesTrees(store: string, ours: GitContext, trees: readonly string[]): Promise<number> {
  // A tree this process copied whose root object is still here is whole: a gc
  // that drops copied objects drops the root with them (it is unreferenced
  // before any of its parts), and a copy only counts once unpack-objects ended.
  const todo: string[] = [];
  for (const tree of new Set(trees)) {
    const key = `${ours.gitDir}\0${tree}`;
    if (!copied.has(key) || !(await batchCheck(ours, [tree])).has(tree)) todo.push(tree);
  }
  if (todo.length === 0) return 0;
  const count = await copyTrees(store, ours, todo);
  if (copied.size > 4096) copied.clear();
  for (const tree of todo) copied.add(`${ours.gitDir}\0${tree}`);
  return count;
}

const copied = new Set<string>();

async function copyTrees(store: string, ours: GitContext, trees: readonly string[]): Promise<number> {
  const wanted = [...new Set((await Promise.all(trees.map((t) => treeObjects(store, t)))).flat())];
  const have = await batchCheck(ours, wanted);
  const missing = wanted.filter((oid) => !have.has(oid));
  if (missing.length === 0) return 0;
  const source = spawnGit(hermesGit(store), ['pack-objects', '--stdout', '-q']);
  const sink = spawnGit({ gitDir: ours.gitDir, cwd: ours.gitDir }, ['-c', 'core.fsync=loose-object', '-c', 'core.fsyncMethod=fsync', 'unpack-objects', '-q']);
  source.stdin?.on('error', () => undefined);
  sink.stdin?.on('error', () => undefined);
  source.stdout?.pipe(sink.stdin as NodeJS.WritableStream);
  source.stdin?.end(missing.map((oid) => `${oid}\n`).join(''));
  const done = Promise.all([exited(source, "reading Hermes' objects (pack-objects)"), exited(sink, 'copying them into the store (unpack-objects)')]);
  await done;
  return missing.length;
}
