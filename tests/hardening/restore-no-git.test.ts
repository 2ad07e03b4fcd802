// A store tree holding `.git/hooks/post-checkout` (crafted in the store, or
// fetched from a shared remote) is never written into the workspace's .git, nor
// into any nested `.git` or `.GIT`: restore (whole and by path) and fork skip
// such paths and say so.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, type Sandbox } from '../cli/run-cli.js';

let sb: Sandbox;
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

const HOOK = '#!/bin/sh\necho pwned > /tmp/chronoscope-pwned\n';

/** A new checkpoint whose tree is the latest one's plus `.git/hooks/post-checkout`, `sub/.git/config` and `sub2/.GIT/hooks/pre-commit`. */
function craftCheckpoint(): string {
  const gitDir = path.join(sb.home, 'git');
  const g = (args: string[], input?: string): string => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', ...(input !== undefined ? { input } : {}) }).trim();
  const [head = ''] = g(['for-each-ref', '--sort=-refname', '--format=%(refname) %(objectname)', 'refs/chronoscope/']).split('\n');
  const [ref = '', commit = ''] = head.split(' ');
  const blob = g(['hash-object', '-w', '--stdin'], HOOK);
  const mk = (lines: string[]): string => g(['mktree'], lines.map((l) => `${l}\n`).join(''));
  const hooks = mk([`100755 blob ${blob}\tpost-checkout`]);
  const dotgit = mk([`040000 tree ${hooks}\thooks`, `100644 blob ${blob}\tconfig`]);
  const sub = mk([`040000 tree ${dotgit}\t.git`, `100644 blob ${blob}\tkept.txt`]);
  const sub2 = mk([`040000 tree ${mk([`040000 tree ${mk([`100755 blob ${blob}\tpre-commit`])}\thooks`])}\t.GIT`]);
  const base = g(['ls-tree', commit]).split('\n');
  const tree = mk([...base, `040000 tree ${dotgit}\t.git`, `040000 tree ${sub}\tsub`, `040000 tree ${sub2}\tsub2`]);
  const message = g(['cat-file', 'commit', commit]).split('\n\n').slice(1).join('\n\n');
  const time = Number(/-?(\d+)-\d+$/.exec(ref)?.[1]) + 1000;
  const crafted = g(['commit-tree', tree, '-p', commit], message.replace(/"time_ms":\d+/, `"time_ms":${time}`));
  g(['update-ref', ref.replace(/\d+-(\d+)$/, `${time}-$1`), crafted]);
  return crafted;
}

function setUp(): string {
  fs.writeFileSync(path.join(sb.workspace, 'a.txt'), 'one\n');
  fs.mkdirSync(path.join(sb.workspace, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(sb.workspace, 'sub', '.git'), { recursive: true });
  expect(sb.cli(['snapshot']).code).toBe(0);
  return craftCheckpoint();
}

const planted = (ws: string): string[] => ['.git/hooks/post-checkout', '.git/config', 'sub/.git/config', 'sub/.git/hooks/post-checkout', 'sub2/.GIT/hooks/pre-commit'].filter((p) => fs.existsSync(path.join(ws, p)));

describe('restore never writes under a .git folder', () => {
  it('whole tree: the .git paths are skipped and named; the rest is restored', () => {
    const crafted = setUp();
    const r = sb.cli(['restore', crafted.slice(0, 12), '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(planted(sb.workspace)).toEqual([]);
    expect(fs.readFileSync(path.join(sb.workspace, 'sub', 'kept.txt'), 'utf8')).toBe(HOOK);
    const result = JSON.parse(r.stdout) as { skipped: string[]; added: string[] };
    expect(result.skipped).toEqual(expect.arrayContaining(['.git/hooks/post-checkout', 'sub/.git/config', 'sub2/.GIT/hooks/pre-commit']));
    expect(result.added.filter((p) => /(^|\/)\.git\//i.test(p))).toEqual([]);
  });

  it('by path: a folder holding a .git is restored without it; a .git path itself is refused', () => {
    const crafted = setUp();
    const r = sb.cli(['restore', crafted.slice(0, 12), '--path', 'sub', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(planted(sb.workspace)).toEqual([]);
    expect(fs.existsSync(path.join(sb.workspace, 'sub', 'kept.txt'))).toBe(true);
    for (const p of ['.git/hooks/post-checkout', 'sub2/.GIT/hooks/pre-commit', 'sub/.git./config']) {
      const refused = sb.cli(['restore', crafted.slice(0, 12), '--path', p, '--yes']);
      expect(refused.code, p).toBe(2); // a path the CLI refuses is a usage error (exit 2)
      expect(refused.stderr).toMatch(/\.git/i);
    }
    expect(planted(sb.workspace)).toEqual([]);
  });

  it('fork: the new folder gets no .git from the store either', () => {
    const crafted = setUp();
    const to = path.join(path.dirname(sb.workspace), 'forked');
    const r = sb.cli(['fork', crafted.slice(0, 12), '--to', to]);
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(path.join(to, 'a.txt'), 'utf8')).toBe('one\n');
    expect(planted(to)).toEqual([]);
    expect(fs.existsSync(path.join(to, '.git'))).toBe(false);
  });
});
