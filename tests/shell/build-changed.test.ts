// `npm run serve` / `npm start` build only what changed (scripts/build-changed.mjs),
// run as a real process against a copy of the script in a temporary project
// whose build scripts only count their runs and leave the outputs: a part is
// built when its sources or outputs changed, and not otherwise.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../paths.js';

const OUTPUTS: Record<string, string[]> = {
  'build:node': ['dist/electron/cli/bin.cjs', 'dist/electron/cli/main-bundle.mjs', 'dist/electron/agents/core/hook-bundle.cjs'],
  'build:renderer': ['dist/renderer/index.html'],
  'build:preload': ['dist/electron/shell/preload.cjs'],
};

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-changed-'));
  mkdirSync(join(root, 'scripts'));
  copyFileSync(join(REPO_ROOT, 'scripts', 'build-changed.mjs'), join(root, 'scripts', 'build-changed.mjs'));
  // Each "build" appends its name to builds.log and writes its outputs.
  const fake = (name: string): string =>
    `node -e "const fs=require('fs'),p=require('path');fs.appendFileSync('builds.log','${name}\\n');for(const f of ${JSON.stringify(OUTPUTS[name]).replace(/"/g, "'")}){fs.mkdirSync(p.dirname(f),{recursive:true});fs.writeFileSync(f,'')}"`;
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'fake', private: true, scripts: Object.fromEntries(Object.keys(OUTPUTS).map((s) => [s, fake(s)])) }, null, 2));
  for (const file of ['electron/cli/main.ts', 'shared/ipc.ts', 'renderer/src/App.tsx', 'scripts/bench.ts', 'tsconfig.json']) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), '// source\n');
  }
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function start(...parts: string[]): string[] {
  const before = existsSync(join(root, 'builds.log')) ? readFileSync(join(root, 'builds.log'), 'utf8') : '';
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'build-changed.mjs'), ...parts], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  const after = existsSync(join(root, 'builds.log')) ? readFileSync(join(root, 'builds.log'), 'utf8') : '';
  return after.slice(before.length).split('\n').filter(Boolean);
}

/** An edit: new bytes and an mtime surely different from the recorded one. */
function edit(file: string): void {
  appendFileSync(join(root, file), '// edited\n');
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, file), later, later);
}

it('builds every part the first time, then nothing while the sources are unchanged', () => {
  expect(start('node', 'renderer')).toEqual(['build:node', 'build:renderer']);
  expect(start('node', 'renderer')).toEqual([]);
  expect(start('node', 'renderer')).toEqual([]);
});

it('builds only the part whose sources changed', () => {
  start('node', 'renderer', 'preload');
  edit('renderer/src/App.tsx');
  expect(start('node', 'renderer', 'preload')).toEqual(['build:renderer']);
  edit('electron/cli/main.ts');
  expect(start('node', 'renderer', 'preload')).toEqual(['build:node']);
  // shared/ feeds all three.
  edit('shared/ipc.ts');
  expect(start('node', 'renderer', 'preload')).toEqual(['build:node', 'build:renderer', 'build:preload']);
  // A new source file counts too; a launcher script under scripts/ does not.
  writeFileSync(join(root, 'scripts', 'measure.mjs'), '// not built\n');
  expect(start('node', 'renderer')).toEqual([]);
  writeFileSync(join(root, 'electron', 'new.ts'), '// new\n');
  expect(start('node', 'renderer')).toEqual(['build:node']);
});

it('builds a part again when one of its outputs is missing, or its last build failed', () => {
  start('node', 'renderer');
  rmSync(join(root, 'dist', 'renderer', 'index.html'));
  expect(start('node', 'renderer')).toEqual(['build:renderer']);
  // A failing build stops the start with its exit code and records nothing.
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const good = pkg.scripts['build:node']!;
  pkg.scripts['build:node'] = 'node -e "process.exit(3)"';
  writeFileSync(join(root, 'package.json'), JSON.stringify(pkg));
  const failed = spawnSync(process.execPath, [join(root, 'scripts', 'build-changed.mjs'), 'node'], { cwd: root, encoding: 'utf8' });
  expect(failed.status).toBe(3);
  pkg.scripts['build:node'] = good;
  writeFileSync(join(root, 'package.json'), JSON.stringify(pkg));
  expect(start('node')).toEqual(['build:node']);
});
