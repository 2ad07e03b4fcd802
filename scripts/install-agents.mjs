#!/usr/bin/env node
// Installs the real agent CLIs the integration tests run (Codex, Gemini CLI,
// GitHub Copilot CLI, OpenCode) at the versions their scripted model APIs and
// hook payloads were checked against. Together they are ~1 GB, so they are
// kept out of the project's dependencies: each goes into its own prefix under
// .cache/agents (or $CHRONOSCOPE_AGENT_CACHE), and an installed one is kept,
// so a second run on the same machine costs nothing. Install scripts stay off
// (the packages ship their binaries as platform packages; nothing downloads).
//
//   node scripts/install-agents.mjs            all four
//   node scripts/install-agents.mjs codex gemini
//
// Exits 0 when every named agent is installed; a failed one is said and the
// script goes on (its test skips with the reason), then exits 1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Pinned versions: raise one deliberately, with its test run against it. */
export const AGENT_CLIS = {
  codex: { pkg: '@openai/codex', version: '0.171.0' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0' },
  copilot: { pkg: '@github/copilot', version: '1.0.102' },
  opencode: { pkg: 'opencode-ai', version: '1.18.33' },
};

const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const agentCache = () => process.env.CHRONOSCOPE_AGENT_CACHE || join(root, '.cache', 'agents');

function install(name) {
  const { pkg, version } = AGENT_CLIS[name];
  const prefix = join(agentCache(), name);
  const stamp = join(prefix, 'installed.json');
  try {
    if (JSON.parse(readFileSync(stamp, 'utf8')).version === version) {
      process.stdout.write(`${name}: ${pkg}@${version} already installed in ${prefix}\n`);
      return true;
    }
  } catch {
    /* not installed yet */
  }
  mkdirSync(prefix, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const started = Date.now();
  const r = spawnSync(
    npm,
    ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', `${pkg}@${version}`],
    { stdio: 'inherit', shell: process.platform === 'win32' },
  );
  if (r.status !== 0 || !existsSync(join(prefix, 'node_modules', ...pkg.split('/'), 'package.json'))) {
    process.stderr.write(`${name}: could not install ${pkg}@${version}; its integration test will skip\n`);
    return false;
  }
  writeFileSync(stamp, JSON.stringify({ pkg, version }) + '\n');
  process.stdout.write(`${name}: ${pkg}@${version} installed in ${prefix} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const names = process.argv.slice(2);
  for (const n of names) {
    if (!(n in AGENT_CLIS)) {
      process.stderr.write(`unknown agent "${n}": one of ${Object.keys(AGENT_CLIS).join(', ')}\n`);
      process.exit(2);
    }
  }
  let ok = true;
  for (const n of names.length ? names : Object.keys(AGENT_CLIS)) ok = install(n) && ok;
  process.exit(ok ? 0 : 1);
}
