// The app's memory with the benchmark's workspace open: the browser host
// (`chronoscope serve`, the same app service and watcher as the desktop app's
// main process, without Electron's own ~100 MB) started on the engine's store,
// left to subscribe its watcher and run its start-up catch-up scan, then
// measured from /proc: its peak and settled resident set, and the peak of its
// whole process tree (with the git processes it ran). Linux only.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { statusKb, treeRssKb } from './rss.js';

export interface AppMemory {
  /** The host process' peak resident set (VmHWM). */
  peak_mb: number;
  /** Its resident set once idle. */
  settled_mb: number;
  /** Peak of the host and its git children, sampled. */
  tree_peak_mb: number;
}

const CLI = fileURLToPath(new URL('../../electron/cli/main.js', import.meta.url));

export async function measureAppMemory(storeHome: string, root: string, timeoutMs = 180_000): Promise<AppMemory | null> {
  if (process.platform !== 'linux') return null;
  const child = spawn(process.execPath, [CLI, 'serve', '--workspace', root, '--port', '0'], {
    env: { ...process.env, CHRONOSCOPE_HOME: storeHome },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) return null;
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        if (out.includes('\n')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited (${code ?? 'signal'}) before it was ready`)));
    });
    // Idle = no git child for 2 s, after at least 3 s (the watcher's start and catch-up scan).
    const started = Date.now();
    let treePeak = 0;
    let idleSince: number | null = null;
    while (Date.now() - started < timeoutMs) {
      const tree = treeRssKb(pid);
      treePeak = Math.max(treePeak, tree);
      const own = statusKb(pid, 'VmRSS');
      if (tree > own) idleSince = null;
      else idleSince ??= Date.now();
      if (Date.now() - started > 3000 && idleSince !== null && Date.now() - idleSince > 2000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const mb = (kb: number): number => Math.round(kb / 1024);
    return { peak_mb: mb(statusKb(pid, 'VmHWM')), settled_mb: mb(statusKb(pid, 'VmRSS')), tree_peak_mb: mb(treePeak) };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  }
}
