// A verifier never changes the workspace through its dependencies
// (verify/dependencies.ts, docs/design-verify.md): they are cloned
// copy-on-write where the file system can, else linked and watched, and a
// write into them is reported (dependencies_changed, with the paths). Nested
// node_modules (npm/yarn/pnpm workspaces) are provided where the package
// manager put them, and its relative links resolve to the checkpoint's packages.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyCheckpoint } from '../../electron/verify/verify.js';
import { makeSandbox, treeFingerprint, type Sandbox } from '../cli/run-cli.js';
import { sandbox as engineSandbox, type Sandbox as EngineSandbox } from '../engine/helpers.js';

/** Whether this machine's temporary folder can clone files copy-on-write (the path the default takes). */
function reflinkHere(): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-reflink-'));
  try {
    fs.writeFileSync(path.join(dir, 'a'), 'a');
    execFileSync('cp', ['--reflink=always', path.join(dir, 'a'), path.join(dir, 'b')], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
const CLONES = process.platform === 'linux' && reflinkHere();

function writeIn(root: string, rel: string, text: string): void {
  const full = path.join(root, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

/** A verifier that passes, after writing into a dependency and into node_modules/.cache. */
const WRITER = `node -e "const fs=require('fs');fs.appendFileSync('node_modules/tiny-dep/index.js','// written by the verifier\\n');fs.mkdirSync('node_modules/.cache/tool',{recursive:true});fs.writeFileSync('node_modules/.cache/tool/x','x')"`;

function dependencyProject(root: string): void {
  writeIn(root, 'node_modules/tiny-dep/package.json', JSON.stringify({ name: 'tiny-dep', main: 'index.js' }));
  writeIn(root, 'node_modules/tiny-dep/index.js', "exports.helper = () => 'dependency ok';\n");
  writeIn(root, 'index.js', "console.log(require('tiny-dep').helper());\n");
}

describe('a verifier that writes into node_modules (CLI, the default way)', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox();
  });
  afterEach(() => sb.cleanup());

  it(CLONES ? 'leaves the workspace copy as it was (cloned copy-on-write)' : 'is reported with dependencies_changed and the paths (linked: no clones on this file system)', () => {
    dependencyProject(sb.workspace);
    sb.json(['snapshot']);
    const depFile = path.join(sb.workspace, 'node_modules/tiny-dep/index.js');
    const before = fs.readFileSync(depFile, 'utf8');
    const run = sb.cli(['verify', 'latest', '--verifier', WRITER, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { dependencies_changed: boolean; dependencies_changed_paths: string[] };
    // A tool's cache is a fresh folder in the copy: never written into the workspace, never reported.
    expect(fs.existsSync(path.join(sb.workspace, 'node_modules/.cache'))).toBe(false);
    if (CLONES) {
      expect(fs.readFileSync(depFile, 'utf8')).toBe(before);
      expect(result).toMatchObject({ dependencies_changed: false, dependencies_changed_paths: [] });
      expect(run.stderr).toMatch(/cloned node_modules from the workspace \(copy-on-write\)/);
    } else {
      expect(result).toMatchObject({ dependencies_changed: true, dependencies_changed_paths: ['node_modules/tiny-dep/index.js'] });
      expect(run.stderr).toMatch(/changed 1 path in the workspace's dependencies: node_modules\/tiny-dep\/index\.js/);
    }
    // Recorded too, for the app's verify panel.
    const wsDir = fs.readdirSync(path.join(sb.home, 'workspaces'))[0] ?? '';
    const record = JSON.parse(fs.readFileSync(path.join(sb.home, 'workspaces', wsDir, 'verifications.jsonl'), 'utf8').trim()) as Record<string, unknown>;
    expect(record['dependencies_changed']).toBe(!CLONES);
  });

  it('a verifier that only reads its dependencies reports no change', () => {
    dependencyProject(sb.workspace);
    sb.json(['snapshot']);
    const disk = treeFingerprint(sb.workspace);
    const run = sb.cli(['verify', 'latest', '--verifier', 'node index.js', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ passed: true, dependencies_changed: false, dependencies_changed_paths: [] });
    expect(treeFingerprint(sb.workspace)).toBe(disk);
  });
});

describe('either way, forced (verifyCheckpoint)', () => {
  let s: EngineSandbox;
  beforeEach(async () => {
    s = await engineSandbox();
  });
  afterEach(() => s.cleanup());

  it('linked (the fallback): the write is detected and named', async () => {
    dependencyProject(s.ws);
    await s.workspace.snapshot({ trigger: 'manual' });
    const record = await verifyCheckpoint(s.store, s.workspace, 'latest', { verifier: WRITER, dependencies: 'link' });
    expect(record.passed).toBe(true);
    expect(record.dependencies_changed).toBe(true);
    expect(record.dependencies_changed_paths).toEqual(['node_modules/tiny-dep/index.js']);
    expect(record.notes.join('\n')).toMatch(/linked node_modules from the workspace/);
  });

  it.runIf(CLONES)('cloned: the workspace copy is as it was and nothing is reported', async () => {
    dependencyProject(s.ws);
    await s.workspace.snapshot({ trigger: 'manual' });
    const before = fs.readFileSync(path.join(s.ws, 'node_modules/tiny-dep/index.js'), 'utf8');
    const record = await verifyCheckpoint(s.store, s.workspace, 'latest', { verifier: WRITER, dependencies: 'clone' });
    expect(record).toMatchObject({ passed: true, dependencies_changed: false });
    expect(fs.readFileSync(path.join(s.ws, 'node_modules/tiny-dep/index.js'), 'utf8')).toBe(before);
  });

  it.skipIf(CLONES)('clone forced where the file system has none: refused, and the workspace untouched', async () => {
    dependencyProject(s.ws);
    await s.workspace.snapshot({ trigger: 'manual' });
    await expect(verifyCheckpoint(s.store, s.workspace, 'latest', { verifier: WRITER, dependencies: 'clone' })).rejects.toThrow(/cannot clone node_modules copy-on-write/);
    expect(fs.readFileSync(path.join(s.ws, 'node_modules/tiny-dep/index.js'), 'utf8')).toBe("exports.helper = () => 'dependency ok';\n");
  });
});

describe('a monorepo', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = makeSandbox();
  });
  afterEach(() => sb.cleanup());

  it('with packages/a/node_modules and a workspace link to packages/b verifies green, against the checkpoint’s packages', () => {
    const w = sb.workspace;
    writeIn(w, 'package.json', JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }));
    writeIn(w, 'packages/b/package.json', JSON.stringify({ name: '@mono/b', main: 'index.js' }));
    writeIn(w, 'packages/b/index.js', 'exports.b = () => 2;\n');
    writeIn(w, 'packages/a/package.json', JSON.stringify({ name: '@mono/a' }));
    writeIn(w, 'packages/a/test.js', "const { dep } = require('dep-a');\nconst { b } = require('@mono/b');\nif (dep() + b() !== 3) { console.error('got', dep() + b()); process.exit(1); }\nconsole.log('mono ok');\n");
    // Hoisted by the package manager: a link to the workspace package at the top, a package only `a` uses under packages/a.
    fs.mkdirSync(path.join(w, 'node_modules/@mono'), { recursive: true });
    fs.symlinkSync('../../packages/b', path.join(w, 'node_modules/@mono/b'));
    writeIn(w, 'packages/a/node_modules/dep-a/package.json', JSON.stringify({ name: 'dep-a', main: 'index.js' }));
    writeIn(w, 'packages/a/node_modules/dep-a/index.js', 'exports.dep = () => 1;\n');
    const good = sb.json<{ id: string }>(['snapshot', '-m', 'green']);
    // The workspace has moved on (b broken now): the checkpoint's b must be the one used.
    writeIn(w, 'packages/b/index.js', 'exports.b = () => 40;\n');
    const disk = treeFingerprint(w);

    const run = sb.cli(['verify', good.id, '--verifier', 'node packages/a/test.js', '--json']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ passed: true, dependencies_changed: false });
    expect(JSON.parse(run.stdout).output_tail).toMatch(/mono ok/);
    expect(run.stderr).toMatch(/packages\/a\/node_modules from the workspace/);
    expect(treeFingerprint(w)).toBe(disk);
  });
});
