// history_N (issue 39, item 8): the CLI on a seeded history of N checkpoints
// (scripts/bench-ui/seed-history.ts: one fast-import, one ref each), beside
// git's own listing of the same refs — `git for-each-ref --format='%(objectname)
// %(refname) %(contents)'` — first as seeded (every ref a loose file, as
// snapshots leave them), then after `chronoscope upkeep` (due by its loose
// refs: it packs them). Each figure is the median of `runs` fresh processes,
// spawn to exit; peak memory is the process's own maximum resident set (GNU
// time's %M: the CLI, or git when it is larger).
//
// Seeding 100,000 takes ~10 minutes on a loaded machine: with `seedCache`, a
// history seeded once is kept there and its store copied for each row (the
// workspace folder is shared: list and status only read it).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedHistory } from '../bench-ui/seed-history.js';

const CLI = fileURLToPath(new URL('../../electron/cli/bin.cjs', import.meta.url));
const TIME = '/usr/bin/time';

export interface Timed {
  ms: number;
  mb: number;
}

export interface HistorySide {
  git_for_each_ref: Timed;
  list_all: Timed;
  /** `list --json` (its first page: 20). */
  first_page: Timed;
  /** `list -n 200 --json` (the app's first page). */
  page_200: Timed;
  status: Timed;
}

export interface HistoryRow {
  checkpoints: number;
  loose: HistorySide;
  packed: HistorySide;
  upkeep_ms: number;
}

/** Wall time and peak RSS of one process (GNU time). */
function timeOne(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(TIME, ['-f', '%M', cmd, ...args], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      const kb = Number(/(\d+)\s*$/.exec(err.trim())?.[1] ?? NaN);
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err.trim().slice(0, 300)}`));
      else resolve({ ms: Math.round(ms), mb: Math.round(kb / 1024) });
    });
  });
}

async function median(runs: number, fn: () => Promise<Timed>): Promise<Timed> {
  const all: Timed[] = [];
  for (let i = 0; i < runs; i++) all.push(await fn());
  const by = <K extends keyof Timed>(k: K): number => all.map((t) => t[k]).sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
  return { ms: by('ms'), mb: by('mb') };
}

async function side(cliPath: string, home: string, ws: string, runs: number): Promise<HistorySide> {
  // (Only commands that write start a detached upkeep: these leave the store as measured.)
  const env = { ...process.env, CHRONOSCOPE_HOME: home, CHRONOSCOPE_DAEMON: '0' };
  const cli = (args: string[]) => () => timeOne(process.execPath, [cliPath, ...args, '-w', ws], env, ws);
  return {
    git_for_each_ref: await median(runs, () => timeOne('git', ['--git-dir', join(home, 'git'), 'for-each-ref', '--format=%(objectname) %(refname) %(contents)'], env, ws)),
    list_all: await median(runs, cli(['list', '--all', '--json'])),
    first_page: await median(runs, cli(['list', '--json'])),
    page_200: await median(runs, cli(['list', '-n', '200', '--json'])),
    status: await median(runs, cli(['status', '--json'])),
  };
}

/** `cli`: the CLI entry measured (default this checkout's; another built checkout's for a before/after). */
export async function measureHistory(dir: string, count: number, runs: number, seedCache: string | null, progress: (m: string) => void, cli = CLI): Promise<HistoryRow> {
  const cache = seedCache ?? dir;
  const seeded = join(cache, `h${count}`);
  const ws = join(seeded, 'ws');
  if (!existsSync(join(seeded, 'home', 'git', 'packed-refs')) && !existsSync(join(seeded, 'seeded'))) {
    progress(`history_${count}: seeding ${count} checkpoints into ${seeded}`);
    rmSync(seeded, { recursive: true, force: true });
    mkdirSync(seeded, { recursive: true });
    await seedHistory({ home: join(seeded, 'home'), dir: ws, count });
    execFileSync('touch', [join(seeded, 'seeded')]);
  }
  const home = join(dir, `history-${count}-home`);
  progress(`history_${count}: copying the seeded store`);
  rmSync(home, { recursive: true, force: true });
  execFileSync('cp', ['-a', join(seeded, 'home'), home]);
  try {
    progress(`history_${count}: measuring, refs loose`);
    const loose = await side(cli, home, ws, runs);
    progress(`history_${count}: upkeep`);
    const t = performance.now();
    execFileSync(process.execPath, [cli, 'upkeep'], { env: { ...process.env, CHRONOSCOPE_HOME: home }, stdio: 'ignore' });
    const upkeepMs = Math.round(performance.now() - t);
    progress(`history_${count}: measuring, refs packed`);
    const packed = await side(cli, home, ws, runs);
    return { checkpoints: count, loose, packed, upkeep_ms: upkeepMs };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const fmt = (t: Timed): string => `${(t.ms / 1000).toFixed(2)} s ${t.mb} MB`;

export function historyLines(rows: readonly HistoryRow[]): string[] {
  const lines = ['history_N: the CLI on a seeded history (medians; wall time spawn to exit, peak RSS), beside git for-each-ref over the same refs:'];
  for (const r of rows) {
    for (const [label, s] of [['refs loose', r.loose], [`after upkeep (${(r.upkeep_ms / 1000).toFixed(1)} s): refs packed`, r.packed]] as const) {
      lines.push(
        `  history_${r.checkpoints}, ${label}: git for-each-ref ${fmt(s.git_for_each_ref)}; list --all --json ${fmt(s.list_all)} (${(s.list_all.ms / s.git_for_each_ref.ms).toFixed(2)}× git); list (first page) ${fmt(s.first_page)}; list -n 200 ${fmt(s.page_200)}; status ${fmt(s.status)}`,
      );
    }
  }
  return lines;
}
