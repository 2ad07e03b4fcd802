#!/usr/bin/env node
// Builds only the parts whose sources changed since their last build, so
// `npm run serve` and `npm start` start at once when dist/ is current (a full
// `npm run build` takes ~45 s on a laptop; most starts change nothing).
//
//   node scripts/build-changed.mjs node renderer [preload]
//
// Each part has its sources (folders and files) and the outputs it must have
// left. Its fingerprint is the path, size and mtime of every source file; it
// is stored in dist/.build-stamps/<part>.json only after the part's npm script
// succeeded, and is taken before the build starts, so an edit made during a
// build is built next time. A missing output or stamp means "build it". A
// plain `npm run build` writes no stamp: the next start builds once more.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Dependencies changing (package-lock.json) can change any part's output.
const common = ['package.json', 'package-lock.json'];

/** Each part: the npm script that builds it, what it is built from, what it leaves. */
const PARTS = {
  node: {
    script: 'build:node',
    sources: ['electron', 'shared', 'scripts', 'tsconfig.json', ...common],
    // Of scripts/, what tsc compiles and the build steps themselves (not launchers or measurements).
    only: (rel) => !rel.startsWith('scripts/') || rel.endsWith('.ts') || /^scripts\/(build-hook|build-cli|mark-executable)\.mjs$/.test(rel),
    outputs: ['dist/electron/cli/bin.cjs', 'dist/electron/cli/main-bundle.mjs', 'dist/electron/agents/core/hook-bundle.cjs'],
  },
  preload: {
    script: 'build:preload',
    sources: ['electron/shell', 'shared', ...common],
    outputs: ['dist/electron/shell/preload.cjs'],
  },
  renderer: {
    script: 'build:renderer',
    sources: ['renderer', 'shared', ...common],
    outputs: ['dist/renderer/index.html'],
  },
};

function* files(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (st === undefined) return;
  if (!st.isDirectory()) {
    yield [path, st];
    return;
  }
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules' || name === 'dist') continue;
    yield* files(join(path, name));
  }
}

function fingerprint({ sources, only = () => true }) {
  const hash = createHash('sha256');
  for (const source of sources) {
    for (const [path, st] of files(join(root, source))) {
      const rel = relative(root, path).split('\\').join('/');
      if (only(rel)) hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
    }
  }
  return hash.digest('hex');
}

const stampFile = (name) => join(root, 'dist', '.build-stamps', `${name}.json`);

function readStamp(name) {
  try {
    return JSON.parse(readFileSync(stampFile(name), 'utf8')).fingerprint;
  } catch {
    return null;
  }
}

const names = process.argv.slice(2);
const unknown = names.filter((name) => !(name in PARTS));
if (names.length === 0 || unknown.length > 0) {
  process.stderr.write(`usage: node scripts/build-changed.mjs ${Object.keys(PARTS).join('|')} …${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}\n`);
  process.exit(2);
}

for (const name of names) {
  const part = PARTS[name];
  const now = fingerprint(part);
  const current = readStamp(name) === now && part.outputs.every((out) => existsSync(join(root, out)));
  if (current) continue;
  process.stderr.write(`building ${name} (its sources changed since the last build)\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = spawnSync(npm, ['run', '--silent', part.script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  mkdirSync(join(root, 'dist', '.build-stamps'), { recursive: true });
  writeFileSync(stampFile(name), `${JSON.stringify({ fingerprint: now, built: new Date().toISOString() })}\n`);
}
