// Runs the real CLI as another account (`runuser -u nobody`), for the cases
// where permissions and ownership matter: the test runner is root here, and
// root passes every permission check. Where that cannot be done (not root, no
// runuser, no such account) `otherUser.skip` says why and the test skips.
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI_PATH } from '../paths.js';

const USER = 'nobody';

function probe(): { uid: number; gid: number } | string {
  if (process.platform === 'win32') return 'no other POSIX user on Windows';
  if (process.getuid?.() !== 0) return 'running another user needs root (runuser), and the tests run unprivileged';
  const r = spawnSync('runuser', ['-u', USER, '--', process.execPath, '-e', 'process.stdout.write(`${process.getuid()} ${process.getgid()}`)'], { encoding: 'utf8' });
  if (r.status !== 0) return `runuser -u ${USER} is not available here: ${(r.stderr || String(r.error)).trim()}`;
  const [uid, gid] = r.stdout.split(' ').map(Number);
  return { uid: uid ?? 0, gid: gid ?? 0 };
}

const found = probe();
if (typeof found === 'string') console.warn(`tests run as another user are skipped: ${found}`);

export const otherUser = {
  /** Why these tests cannot run here, or null when they can. */
  skip: typeof found === 'string' ? found : null,
  uid: typeof found === 'string' ? -1 : found.uid,
  gid: typeof found === 'string' ? -1 : found.gid,
  /** A fresh folder (0755) owned by the other user. */
  dir(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    chownSync(dir, this.uid, this.gid);
    return dir;
  },
  /** The CLI as the other user with `umask` (e.g. '077'), CHRONOSCOPE_HOME=`home` and HOME=`userHome`. */
  cli(args: readonly string[], options: { cwd: string; home: string; userHome: string; umask?: string; env?: Record<string, string> }): { code: number; stdout: string; stderr: string } {
    const quoted = [process.execPath, CLI_PATH, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', NO_COLOR: '1', CHRONOSCOPE_HOME: options.home, HOME: options.userHome, CHRONOSCOPE_NO_DELEGATE: '1', ...options.env };
    const r = spawnSync('runuser', ['-u', USER, '--', 'sh', '-c', `umask ${options.umask ?? '022'} && exec ${quoted}`], { cwd: options.cwd, env, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  },
};
