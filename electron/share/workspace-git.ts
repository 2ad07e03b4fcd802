// Reads the person's own repository (the workspace's .git) the way their git
// would: their config (global included, for user.email, url.*.insteadOf and
// credential helpers), never the engine's isolated environment. Read-only
// commands only: sharing records nothing in the workspace's .git on pull.
import { execFile } from 'node:child_process';

/** Environment keys that would point git at another repository than the workspace's. */
const REPO_KEYS = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX'];

function personEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };
  for (const key of REPO_KEYS) delete env[key];
  return env;
}

/** stdout of `git -C root <args>`, or null when git says no (a key not set, not a repository). */
export function workspaceGit(root: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('git', ['-C', root, ...args], { env: personEnv(), maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (err, stdout) => {
      resolve(err ? null : stdout);
    });
  });
}

/** One config value of the workspace's repository (trimmed), or undefined. */
export async function workspaceConfig(root: string, key: string): Promise<string | undefined> {
  const out = await workspaceGit(root, ['config', '--get', key]);
  const value = out?.trim();
  return value ? value : undefined;
}
