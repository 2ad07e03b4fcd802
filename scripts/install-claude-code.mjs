#!/usr/bin/env node
// Installs the real Claude Code CLI (its native binary, ~400 MB) into
// .cache/claude-code for tests/agents/claude-code-real.test.ts. It is kept out
// of the project's dependencies so `npm ci` stays small; CI runs this first.
// The version is the one the test's scripted API and hook payloads were checked
// against; raise it deliberately.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLAUDE_CODE_VERSION = '2.1.332';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const prefix = join(root, '.cache', 'claude-code');
const pkg = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
const bin = join(prefix, 'node_modules', pkg, process.platform === 'win32' ? 'claude.exe' : 'claude');

if (existsSync(bin)) {
  process.stdout.write(`Claude Code is already installed: ${bin}\n`);
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const r = spawnSync(
  npm,
  ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', `${pkg}@${CLAUDE_CODE_VERSION}`],
  { stdio: 'inherit', shell: process.platform === 'win32' },
);
if (r.status !== 0 || !existsSync(bin)) {
  process.stderr.write(`could not install ${pkg}@${CLAUDE_CODE_VERSION}; the real Claude Code test will be skipped\n`);
  process.exit(1);
}
process.stdout.write(`Claude Code ${CLAUDE_CODE_VERSION} installed: ${bin}\n`);
