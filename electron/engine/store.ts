// The shared store: one bare git repository whose objects all workspaces
// share, plus per-workspace folders (private index, meta.json, exclude file,
// lock). Opening it creates what is missing.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ChronoscopeError, UnknownWorkspaceError } from '../../shared/errors.js';
import type { WorkspaceMeta } from '../../shared/model.js';
import type { Settings } from '../../shared/settings.js';
import type { OpenWorkspaceOptions, Store, StoreOptions, Workspace } from './api.js';
import type { WsContext } from './layout/context.js';
import { dirSize, exists, isInside } from './support/fsutil.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { makeDir } from '../fs/make-dir.js';
import { STORE_ATTRIBUTES } from './git/git-env.js';
import { gitSimple } from './git/git-runner.js';
import { withLock } from './support/lock.js';
import { publicMeta, readMeta, writeMeta } from './layout/meta.js';
import { defaultStoreHome, storeLayout, workspaceId, workspaceLayout, type StoreLayout } from './layout/paths.js';
import { compactStore } from './retention.js';
import { PUSH_STATE_FILE, recordPushBaseline } from '../effects/push-monitor.js';
import { loadSettings } from './layout/settings-file.js';
import { storeHomeError } from './layout/store-home-error.js';
import { makeOwnerOnly } from './layout/store-modes.js';
import { assertOwnStore } from './layout/store-owner.js';
import { credentialFolderOf } from './layout/credential-folders.js';
import { WorkspaceImpl } from './workspace.js';

export async function openStore(options: StoreOptions = {}): Promise<Store> {
  const requested = path.resolve(options.home ?? defaultStoreHome());
  // One clear line for a home that cannot be made (a file on the way, no permission, under /proc).
  await makeDir(requested, 0o700).catch(async (err: unknown) => {
    throw await storeHomeError(requested, err);
  });
  const home = await fs.realpath(requested);
  const layout = storeLayout(home);
  // Ours only (store-owner.ts); owner-only whatever the umask, and an older store is tightened (store-modes.ts).
  await assertOwnStore(home);
  await makeOwnerOnly(home);
  const settings = await loadSettings(layout.configFile, options.settings);
  await fs.mkdir(layout.workspacesDir, { recursive: true, mode: 0o700 });
  await fs.mkdir(layout.tmpDir, { recursive: true, mode: 0o700 });
  if (!(await exists(path.join(layout.gitDir, 'HEAD')))) {
    await withLock(layout.storeLockTarget, () => initRepository(layout), { what: 'the store' });
  }
  return new StoreImpl(layout, settings, options.onProgress);
}

async function initRepository(layout: StoreLayout): Promise<void> {
  if (await exists(path.join(layout.gitDir, 'HEAD'))) return;
  await fs.mkdir(layout.gitDir, { recursive: true, mode: 0o700 });
  await gitSimple({ gitDir: layout.gitDir, cwd: layout.home }, ['init', '--quiet', '--bare', layout.gitDir]);
  await fs.mkdir(path.join(layout.gitDir, 'info'), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path.join(layout.gitDir, 'info', 'attributes'), STORE_ATTRIBUTES, { mode: 0o600 });
  // Shared exclude stays empty: every workspace brings its own (core.excludesFile).
  await writeFileAtomic(path.join(layout.gitDir, 'info', 'exclude'), '', { mode: 0o600 });
}

export { workspaceId };

/**
 * The home folder as $HOME says and as the account database says: os.homedir()
 * follows $HOME, which an agent or a script may point elsewhere.
 */
async function realHomes(): Promise<string[]> {
  const homes = [os.homedir()];
  try {
    homes.push(os.userInfo().homedir);
  } catch {
    /* no account entry (some containers): $HOME is all there is */
  }
  const real = await Promise.all(homes.filter((h) => h.length > 0).map((h) => fs.realpath(h).catch(() => path.resolve(h))));
  return [...new Set(real)];
}

/** The store's home as openStore will resolve it, without creating it (for checks before opening). */
export async function resolveStoreHome(home: string = defaultStoreHome()): Promise<string> {
  const requested = path.resolve(home);
  return fs.realpath(requested).catch(() => requested);
}

/**
 * System folders are never workspaces: recording them is pointless at best
 * (/proc, /sys and /dev are not files at all) and restoring into them harmful.
 * Inside: refused anywhere below them too. Exact: only the folder itself
 * (projects do live in /var/www or /usr/local/src).
 */
const SYSTEM_INSIDE_POSIX = ['/proc', '/sys', '/dev', '/etc', '/boot', '/run', '/System', '/private/etc'];
const SYSTEM_EXACT_POSIX = ['/usr', '/var', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/opt', '/srv', '/snap', '/Library', '/Applications', '/private', '/private/var', '/usr/local'];

/** The system folder `real` is (or is inside), or null. */
export function systemFolder(real: string, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string | null {
  if (platform === 'win32') {
    const lower = real.replace(/\//g, '\\').toLowerCase();
    const drive = (env['SystemDrive'] ?? 'C:').toLowerCase();
    const windows = (env['SystemRoot'] ?? `${drive}\\Windows`).toLowerCase();
    for (const inside of [windows]) if (lower === inside || lower.startsWith(`${inside}\\`)) return inside;
    const exact = ['program files', 'program files (x86)', 'programdata', 'users'].map((n) => `${drive}\\${n}`);
    return exact.includes(lower) ? lower : null;
  }
  for (const dir of SYSTEM_INSIDE_POSIX) if (real === dir || real.startsWith(`${dir}/`)) return dir;
  return SYSTEM_EXACT_POSIX.includes(real) ? real : null;
}

/** Whether the store's settings file opts in to credentials (read without creating anything; unreadable: no). */
async function storeIncludesCredentials(storeHome: string): Promise<boolean> {
  return loadSettings(storeLayout(storeHome).configFile).then(
    (s) => s.include_credentials,
    () => false,
  );
}

/**
 * Resolves and checks a workspace folder; throws refused / not_found / bad_input.
 * `includeCredentials`: the include_credentials setting (read from the store's settings file when not given).
 */
export async function checkWorkspaceDir(dir: string, storeHome: string, includeCredentials?: boolean): Promise<string> {
  if (typeof dir !== 'string' || dir.length === 0 || dir.includes('\0')) {
    throw new ChronoscopeError('bad_input', 'workspace must be a folder path');
  }
  const absolute = path.resolve(dir);
  let real: string;
  try {
    real = await fs.realpath(absolute);
  } catch {
    throw new ChronoscopeError('not_found', `workspace folder ${absolute} does not exist`);
  }
  const st = await fs.stat(real);
  if (!st.isDirectory()) throw new ChronoscopeError('bad_input', `workspace ${absolute} is not a folder`);
  if (path.parse(real).root === real) throw new ChronoscopeError('refused', `refusing to use the file-system root ${real} as a workspace`);
  const system = systemFolder(real);
  if (system !== null) throw new ChronoscopeError('refused', `refusing to use ${real} as a workspace: ${system} is a system folder`);
  const homes = await realHomes();
  for (const home of homes) {
    if (isInside(home, real)) {
      throw new ChronoscopeError('refused', real === home ? `refusing to use the home folder ${real} as a workspace` : `refusing to use ${real} as a workspace: it contains the home folder`);
    }
  }
  const credentials = await credentialFolderOf(real, homes);
  if (credentials !== null && !(includeCredentials ?? (await storeIncludesCredentials(storeHome)))) {
    const where = credentials === real ? 'it is' : 'it is inside';
    throw new ChronoscopeError('refused', `refusing to use ${real} as a workspace: ${where} ${credentials}, a folder of credentials (keys and tokens would be stored); set include_credentials in the settings to record it anyway`);
  }
  if (isInside(real, storeHome)) throw new ChronoscopeError('refused', `refusing to use ${real} as a workspace: it is inside the Chronoscope store`);
  if (isInside(storeHome, real)) throw new ChronoscopeError('refused', `refusing to use ${real} as a workspace: it contains the Chronoscope store (${storeHome})`);
  return real;
}

class StoreImpl implements Store {
  constructor(
    readonly layout: StoreLayout,
    readonly settings: Settings,
    private readonly onProgress?: StoreOptions['onProgress'],
  ) {}

  get home(): string {
    return this.layout.home;
  }

  async workspace(dir: string, options: OpenWorkspaceOptions = {}): Promise<Workspace> {
    const root = await checkWorkspaceDir(dir, this.layout.home, this.settings.include_credentials);
    const id = workspaceId(root);
    const layout = workspaceLayout(this.layout, id);
    let meta = await readMeta(layout.metaFile);
    if (!meta && options.register === false) throw new UnknownWorkspaceError(root);
    if (!meta) {
      // Registration is under the store lock so compaction (which holds it)
      // never misses a workspace that is being born.
      meta = await withLock(
        this.layout.storeLockTarget,
        async () => {
          const again = await readMeta(layout.metaFile);
          if (again) return again;
          await fs.mkdir(layout.dir, { recursive: true, mode: 0o700 });
          // First sight: pushes already in the reflog are history, later ones are news, by order
          // of events (reflog times have whole seconds). Before the meta, so a registered workspace
          // has its baseline; a failure only leaves the push monitor its time-based fallback.
          await recordPushBaseline(root, path.join(layout.dir, PUSH_STATE_FILE)).catch(() => undefined);
          const now = new Date().toISOString();
          const fresh = { id, path: root, created: now, last_touched: now, pinned: [], nested_repos: [] };
          await writeMeta(layout.metaFile, fresh);
          return fresh;
        },
        { what: 'the store' },
      );
    }
    const ctx: WsContext = {
      id,
      root,
      store: this.layout,
      layout,
      settings: this.settings,
      git: { gitDir: this.layout.gitDir, workTree: root, indexFile: layout.indexFile, excludeFile: layout.excludeFile, cwd: root },
      refPrefix: `refs/chronoscope/${id}/cp/`,
      ...(this.onProgress ? { onProgress: this.onProgress } : {}),
    };
    return new WorkspaceImpl(ctx, publicMeta(meta));
  }

  async listWorkspaces(): Promise<WorkspaceMeta[]> {
    const ids = await fs.readdir(this.layout.workspacesDir).catch(() => [] as string[]);
    const metas = await Promise.all(ids.map((id) => readMeta(workspaceLayout(this.layout, id).metaFile)));
    return metas.filter((m) => m !== undefined).map(publicMeta);
  }

  async sizeBytes(): Promise<number> {
    return dirSize(this.layout.home);
  }

  async compact(): Promise<void> {
    await compactStore(this.layout);
  }
}


