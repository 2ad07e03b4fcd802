// Shared setup for engine tests: a temporary store, workspace and fake HOME
// per test, and a byte-exact picture of a folder for comparisons.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../electron/engine/index.js';
import type { Store, StoreOptions, Workspace } from '../../electron/engine/api.js';

export interface Sandbox {
  base: string;
  home: string;
  storeHome: string;
  ws: string;
  store: Store;
  workspace: Workspace;
  cleanup(): void;
}

export async function sandbox(options: Omit<StoreOptions, 'home'> = {}): Promise<Sandbox> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chrono-test-')));
  const home = path.join(base, 'home');
  const storeHome = path.join(base, 'store');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(ws);
  const oldHome = process.env['HOME'];
  process.env['HOME'] = home;
  const store = await openStore({ ...options, home: storeHome });
  const workspace = await store.workspace(ws);
  return {
    base,
    home,
    storeHome,
    ws,
    store,
    workspace,
    cleanup() {
      process.env['HOME'] = oldHome;
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

export function write(root: string, rel: string, data: string | Buffer, mode?: number): void {
  const full = path.join(root, rel);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, data);
  if (mode !== undefined) fs.chmodSync(full, mode);
}

/** Every entry under root except .git folders: type, exec bit, content hash or link target. */
export function picture(root: string, options: { skip?: (rel: string) => boolean; includeGit?: boolean } = {}): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full).split(path.sep).join('/');
      if (name === '.git' && !options.includeGit) continue;
      if (options.skip?.(rel)) continue;
      const st = fs.lstatSync(full);
      if (st.isSymbolicLink()) out[rel] = `link:${fs.readlinkSync(full)}`;
      else if (st.isDirectory()) walk(full);
      else out[rel] = `file:${st.mode & 0o111 ? 'x' : '-'}:${createHash('sha256').update(fs.readFileSync(full)).digest('hex')}`;
    }
  };
  walk(root);
  return out;
}

/** Every file under dir (including .git), hashed with its mtime-independent content and mode. */
export function hashTree(dir: string): Record<string, string> {
  return picture(dir, { includeGit: true });
}

export function realGit(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const clean: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: process.env['HOME'], GIT_CONFIG_NOSYSTEM: '1', ...env };
  return execFileSync('git', args, { cwd, env: clean, encoding: 'utf8' });
}

export function storeGit(storeHome: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: storeHome,
    env: { PATH: process.env['PATH'], GIT_DIR: path.join(storeHome, 'git'), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
  });
}
