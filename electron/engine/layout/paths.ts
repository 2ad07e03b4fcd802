// Where the store lives and how it is laid out. The default home matches
// Electron's app.getPath('userData') for productName "Chronoscope", so the
// desktop app, the CLI and the hooks all find the same store.
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

export const PRODUCT_NAME = 'Chronoscope';

export function defaultStoreHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const fromEnv = env['CHRONOSCOPE_HOME'];
  if (fromEnv) return path.resolve(fromEnv);
  const home = env['HOME'] || env['USERPROFILE'] || os.homedir();
  if (platform === 'win32') return path.join(env['APPDATA'] || path.join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', PRODUCT_NAME);
  return path.join(env['XDG_CONFIG_HOME'] || path.join(home, '.config'), PRODUCT_NAME);
}

export interface StoreLayout {
  home: string;
  gitDir: string;
  workspacesDir: string;
  configFile: string;
  /** Taken while a new workspace is registered and while gc runs. */
  storeLockTarget: string;
  tmpDir: string;
}

export function storeLayout(home: string): StoreLayout {
  return {
    home,
    gitDir: path.join(home, 'git'),
    workspacesDir: path.join(home, 'workspaces'),
    configFile: path.join(home, 'config.json'),
    storeLockTarget: path.join(home, 'store.lock'),
    tmpDir: path.join(home, 'tmp'),
  };
}

export interface WorkspaceLayout {
  dir: string;
  indexFile: string;
  metaFile: string;
  excludeFile: string;
  lockTarget: string;
}

export function workspaceLayout(store: StoreLayout, id: string): WorkspaceLayout {
  const dir = path.join(store.workspacesDir, id);
  return {
    dir,
    indexFile: path.join(dir, 'index'),
    metaFile: path.join(dir, 'meta.json'),
    excludeFile: path.join(dir, 'exclude'),
    lockTarget: path.join(dir, 'writer.lock'),
  };
}

/** A workspace's id in the store: from its real path (light: the hooks read it without the engine). */
export function workspaceId(realPath: string): string {
  return createHash('sha256').update(realPath).digest('hex').slice(0, 16);
}
