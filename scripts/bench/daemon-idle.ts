// The background service at rest (bench --daemon-idle): `chronoscope daemon`
// watching 10 workspaces of 10,000 files each, once its start-up catch-up is
// done, sampled from /proc for a minute: resident memory, and CPU time used
// while nothing happens (an idle daemon must run no code: no busy loop).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliEntryPath } from '../../electron/agents/core/node-command.js';
import { agentSocketPath } from '../../electron/agents/core/delegate-socket.js';
import { askService } from '../../electron/agents/core/service-control.js';
import { openStore } from '../../electron/engine/index.js';
import { stopDaemon } from './hook-case.js';
import { generateWorkspace } from './workspace.js';

export interface DaemonIdleReport {
  workspaces: number;
  files_each: number;
  /** Resident memory once settled, and the highest seen over the quiet minute. */
  rss_mb: number;
  peak_rss_mb: number;
  /** CPU time (user + system) the daemon used over the quiet period, and as a share of it. */
  cpu_ms: number;
  quiet_s: number;
  cpu_percent: number;
}

function procStat(pid: number): { cpuMs: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (100 per second on Linux)
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuMs: ticks * 10, rssMb: rss ? Number(rss[1]) / 1024 : Number.NaN };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function measureDaemonIdle(dir: string, options: { workspaces: number; files: number; quietS: number; progress: (m: string) => void }): Promise<DaemonIdleReport | null> {
  if (process.platform !== 'linux') return null;
  const home = join(dir, 'daemon-idle-home');
  const roots: string[] = [];
  for (let i = 0; i < options.workspaces; i++) {
    options.progress(`daemon idle: generating workspace ${i + 1} of ${options.workspaces} (${options.files} files)`);
    const ws = generateWorkspace(join(dir, `daemon-idle-ws${i}`), { files: options.files, bytes: options.files * 2_000, seed: 100 + i });
    // Each has history, so the daemon's start-up catch-up is the full scan a real restart does.
    await (await (await openStore({ home })).workspace(ws.root)).snapshot({ reason: 'first' });
    roots.push(ws.root);
  }
  options.progress('daemon idle: starting the daemon on all of them');
  const child = spawn(process.execPath, [cliEntryPath(), 'daemon', ...roots.flatMap((r) => ['-w', r])], {
    env: { ...process.env, CHRONOSCOPE_HOME: home },
    stdio: 'ignore',
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the daemon did not start');
  try {
    const socket = agentSocketPath(home);
    for (;;) {
      const s = await askService(socket, { control: 'status' }, 2000).catch(() => null);
      if (s !== null && roots.every((r) => s.workspaces.includes(r))) break;
      await sleep(200);
    }
    // The catch-up full scans run after the watcher's quiet period: let them finish.
    let last = procStat(pid).cpuMs;
    for (;;) {
      await sleep(3000);
      const now = procStat(pid).cpuMs;
      if (now - last < 30) break;
      last = now;
    }
    options.progress(`daemon idle: sampling for ${options.quietS} s`);
    const start = procStat(pid);
    let peak = start.rssMb;
    const began = Date.now();
    while (Date.now() - began < options.quietS * 1000) {
      await sleep(1000);
      peak = Math.max(peak, procStat(pid).rssMb);
    }
    const end = procStat(pid);
    const quietMs = Date.now() - began;
    return {
      workspaces: options.workspaces,
      files_each: options.files,
      rss_mb: Math.round(end.rssMb * 10) / 10,
      peak_rss_mb: Math.round(peak * 10) / 10,
      cpu_ms: end.cpuMs - start.cpuMs,
      quiet_s: Math.round(quietMs / 1000),
      cpu_percent: Math.round(((end.cpuMs - start.cpuMs) / quietMs) * 10_000) / 100,
    };
  } finally {
    await stopDaemon(home).catch(() => child.kill('SIGKILL'));
  }
}

export function daemonIdleLines(r: DaemonIdleReport): string[] {
  return [
    `daemon idle: ${r.workspaces} workspaces of ${r.files_each} files watched; RSS ${r.rss_mb} MB (peak ${r.peak_rss_mb} MB over the quiet period; goal < 120 MB)`,
    `  CPU over ${r.quiet_s} s of quiet: ${r.cpu_ms} ms (${r.cpu_percent} %; goal: nothing top shows)`,
  ];
}
