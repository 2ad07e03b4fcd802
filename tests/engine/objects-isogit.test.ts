// Our object writers (object-batch.ts, tree-write.ts, loose-write.ts'
// commitBody) against isomorphic-git's (a devDependency, kept for the bench's
// `--objects` comparison: electron/engine/objects/README.md): for the same
// content both write the same ids and the same bytes, as read back by real
// `git cat-file`, and `git fsck --full` is clean on both stores. Temp dirs,
// real files, real git.
import { execFileSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIT_IDENTITY } from '../../electron/engine/git/git-env.js';
import { commitBody, objectId } from '../../electron/engine/objects/loose-write.js';
import { ObjectBatch } from '../../electron/engine/objects/object-batch.js';
import { writeUpdatedTree, type PathChange } from '../../electron/engine/trees/tree-write.js';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' };
const run = (gitDir: string, args: string[], input?: string): Buffer => execFileSync('git', ['--git-dir', gitDir, ...args], { input, env: ENV, stdio: ['pipe', 'pipe', 'pipe'] });

let tmp: string;
let ours: string;
let theirs: string;
beforeEach(() => {
  tmp = nodeFs.mkdtempSync(path.join(os.tmpdir(), 'objects-isogit-'));
  ours = path.join(tmp, 'ours.git');
  theirs = path.join(tmp, 'isogit.git');
  for (const dir of [ours, theirs]) execFileSync('git', ['init', '--quiet', '--bare', dir], { env: ENV });
});
afterEach(() => nodeFs.rmSync(tmp, { recursive: true, force: true }));

/** Every object in the store, sorted. */
const objects = (gitDir: string): string[] =>
  run(gitDir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).toString('utf8').split('\n').filter(Boolean).sort();

describe('our object writers against isomorphic-git', () => {
  it('write the same blobs, trees and commit, byte for byte, and git fsck is clean', async () => {
    // Names that exercise git's tree order: a file `a-b` before a folder `a` (read as `a/`), `a.b` before it, `a0` after.
    const files = new Map<string, Buffer>([
      ['README.md', Buffer.from('# hello\n')],
      ['a-b', Buffer.from('dash\n')],
      ['a.b', Buffer.from('dot\n')],
      ['a/x.ts', Buffer.from('export const x = 1;\n')],
      ['a/deep/y.ts', Buffer.from('export const y = 2;\r\n')],
      ['a0', Buffer.alloc(0)],
      ['bin/data', Buffer.from([0, 1, 2, 255, 254, 0x78, 0x9c])],
    ]);
    const timeMs = 1_780_000_000_123;
    const message = 'a checkpoint\n\nchronoscope: {"v":1}\n';

    // Ours: one batch (3+ objects: one pack, as a snapshot writes them), over the empty tree.
    const batch = new ObjectBatch(ours);
    const changes = new Map<string, PathChange>();
    for (const [rel, data] of files) changes.set(rel, { mode: rel === 'bin/data' ? '100755' : '100644', oid: batch.put('blob', data, objectId('blob', data)) });
    const tree = await writeUpdatedTree({ gitDir: ours, cwd: ours }, '4b825dc642cb6eb9a060e54bf8d69288fbee4904', changes, async () => [], batch);
    const commit = batch.put('commit', commitBody(tree, message, GIT_IDENTITY, timeMs));
    await batch.seal();
    await batch.close();

    // isomorphic-git: loose objects, the trees built bottom up.
    const blobIds = new Map<string, string>();
    for (const [rel, blob] of files) blobIds.set(rel, await git.writeBlob({ fs: nodeFs, gitdir: theirs, blob }));
    type Entry = { mode: string; path: string; oid: string; type: 'blob' | 'tree' };
    const writeDir = async (prefix: string): Promise<string> => {
      const entries: Entry[] = [];
      const subdirs = new Set<string>();
      for (const rel of files.keys()) {
        if (!rel.startsWith(prefix)) continue;
        const rest = rel.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash >= 0) subdirs.add(rest.slice(0, slash));
        else entries.push({ mode: rel === 'bin/data' ? '100755' : '100644', path: rest, oid: blobIds.get(rel) ?? '', type: 'blob' });
      }
      for (const dir of subdirs) entries.push({ mode: '040000', path: dir, oid: await writeDir(`${prefix}${dir}/`), type: 'tree' });
      return git.writeTree({ fs: nodeFs, gitdir: theirs, tree: entries });
    };
    const theirTree = await writeDir('');
    const who = { ...GIT_IDENTITY, timestamp: Math.floor(timeMs / 1000), timezoneOffset: new Date(timeMs).getTimezoneOffset() };
    const theirCommit = await git.writeCommit({ fs: nodeFs, gitdir: theirs, commit: { tree: theirTree, parent: [], author: who, committer: who, message } });

    expect(theirTree).toBe(tree);
    expect(theirCommit).toBe(commit);
    // The same set of objects in both stores (ours packed, theirs loose), the same bytes behind each id.
    const all = objects(ours);
    expect(all).toEqual(objects(theirs));
    expect(all).toHaveLength(files.size + 4 + 1); // blobs, trees (root, a, a/deep, bin), the commit
    const input = `${all.join('\n')}\n`;
    const bytes = run(ours, ['cat-file', '--batch'], input);
    expect(bytes.equals(run(theirs, ['cat-file', '--batch'], input))).toBe(true);
    expect(bytes.includes(' missing\n')).toBe(false);
    // And git agrees with both: `git write-tree` of an index holding the same entries is the same tree, and fsck finds nothing.
    const index = path.join(tmp, 'index');
    const cacheinfo = [...files.keys()].flatMap((rel) => ['--cacheinfo', `${rel === 'bin/data' ? '100755' : '100644'},${blobIds.get(rel) ?? ''},${rel}`]);
    execFileSync('git', ['--git-dir', ours, 'update-index', '--add', ...cacheinfo], { env: { ...ENV, GIT_INDEX_FILE: index } });
    expect(execFileSync('git', ['--git-dir', ours, 'write-tree'], { env: { ...ENV, GIT_INDEX_FILE: index } }).toString('utf8').trim()).toBe(tree);
    for (const dir of [ours, theirs]) expect(run(dir, ['fsck', '--full', '--no-dangling', '--no-progress']).toString('utf8').trim()).toBe('');
  });
});
