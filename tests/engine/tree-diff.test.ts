// Trees compared in Node (tree-diff.ts) give exactly what `git diff-tree -r
// --no-renames --raw` gives for the same two trees, with and without paths:
// files that become folders and back, links, mode changes, unicode and
// git's ordering edge cases (`a.b` vs `a/b`).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachedReader, diffTreesInNode, pathInTree } from '../../electron/engine/trees/tree-diff.js';
import { sandbox, write, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(() => s.cleanup());

function gitEnv(index?: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env['PATH'],
    GIT_DIR: path.join(s.storeHome, 'git'),
    GIT_WORK_TREE: s.ws,
    ...(index ? { GIT_INDEX_FILE: index } : {}),
    GIT_CONFIG_GLOBAL: os.devNull,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_LITERAL_PATHSPECS: '1',
  };
}

function run(args: string[], index?: string): string {
  return execFileSync('git', ['-c', 'core.excludesFile=/dev/null', '-c', 'core.fileMode=true', '-c', 'core.symlinks=true', ...args], { cwd: s.ws, env: gitEnv(index), encoding: 'utf8' });
}

/** The disk as git writes it: a fresh index, add -A, write-tree. */
function treeOfDisk(): string {
  const index = path.join(s.base, `idx-${Math.random().toString(36).slice(2)}`);
  run(['add', '-A', '--', '.'], index);
  const tree = run(['write-tree'], index).trim();
  fs.rmSync(index, { force: true });
  return tree;
}

function gitDiff(a: string, b: string, paths: string[] = []): string[] {
  const out = run(['diff-tree', '-r', '-z', '--no-renames', '--raw', a, b, ...(paths.length > 0 ? ['--', ...paths] : [])]);
  const tokens = out.split('\0').filter((t) => t.length > 0);
  const lines: string[] = [];
  for (let i = 0; i < tokens.length; i += 2) lines.push(`${(tokens[i] ?? '').slice(1)} ${tokens[i + 1] ?? ''}`);
  return lines.sort();
}

async function nodeDiff(a: string, b: string, paths?: string[]): Promise<string[]> {
  const changes = await diffTreesInNode(cachedReader({ gitDir: path.join(s.storeHome, 'git') }), a, b, paths);
  if (changes === null) throw new Error('gave up');
  return changes.map((c) => `${c.oldMode} ${c.newMode} ${c.oldOid} ${c.newOid} ${c.status} ${c.path}`).sort();
}

describe('trees compared in Node', () => {
  it('match git diff-tree, whole and limited to paths', async () => {
    write(s.ws, 'a', 'file a\n');
    write(s.ws, 'a.b', 'a dot b\n');
    write(s.ws, 'a0', 'a zero\n');
    write(s.ws, 'b/c', 'in b\n');
    write(s.ws, 'b/d/e', 'deep\n');
    write(s.ws, 'keep/same', 'same\n');
    write(s.ws, 'run.sh', '#!/bin/sh\n');
    write(s.ws, '日本/語.txt', 'nihongo\n');
    write(s.ws, 'swap', 'a file that becomes a link\n');
    fs.symlinkSync('a.b', path.join(s.ws, 'link'));
    const before = treeOfDisk();

    // a (file) becomes a folder a/, b/c goes, b/d/e changes, a folder appears, modes and types change.
    fs.rmSync(path.join(s.ws, 'a'));
    write(s.ws, 'a/b', 'now a folder\n');
    fs.rmSync(path.join(s.ws, 'b/c'));
    write(s.ws, 'b/d/e', 'deeper\n');
    write(s.ws, 'new/dir/f', 'new\n');
    fs.chmodSync(path.join(s.ws, 'run.sh'), 0o755);
    write(s.ws, '日本/語.txt', 'changed\n');
    fs.rmSync(path.join(s.ws, 'swap'));
    fs.symlinkSync('a0', path.join(s.ws, 'swap'));
    fs.rmSync(path.join(s.ws, 'link'));
    write(s.ws, 'link', 'a file where a link was\n');
    const after = treeOfDisk();

    expect(gitDiff(before, after).length).toBeGreaterThan(8);
    expect(await nodeDiff(before, after)).toEqual(gitDiff(before, after));
    expect(await nodeDiff(after, before)).toEqual(gitDiff(after, before));
    for (const paths of [['a'], ['b'], ['b/d'], ['a.b', 'new'], ['日本/語.txt'], ['swap', 'link'], ['nothing/here'], ['keep']]) {
      expect(await nodeDiff(before, after, paths)).toEqual(gitDiff(before, after, paths));
    }
    const read = cachedReader({ gitDir: path.join(s.storeHome, 'git') });
    expect(await pathInTree(read, after, 'b/d')).toBe(true);
    expect(await pathInTree(read, after, 'a/b')).toBe(true);
    expect(await pathInTree(read, after, 'b/c')).toBe(false);
    expect(await pathInTree(read, before, 'a/b')).toBe(false);
  });
});
