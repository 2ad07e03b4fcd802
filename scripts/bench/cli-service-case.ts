// store_size_cli_N (issue 39, item 7): N snapshots taken by the real CLI, one
// process each, of 40 edited files of the 2,000-file workspace — each CLI
// process starts `upkeep --background` itself when the due rule says so, as it
// does for a person or an agent's hook — then a minute of the background
// service (`chronoscope daemon --workspace`) watching, with nothing changing.
// The store is measured after that minute beside `git gc --prune=now` of a
// copy. Target: ≤ 1.2×, whatever the CLI's own upkeeps left.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { storeLayout } from '../../electron/engine/layout/paths.js';
import { objectsFootprint } from '../../electron/engine/upkeep.js';
import { gcSize } from './store-size-case.js';
import { editFiles, generateWorkspace, pickFiles } from './workspace.js';

export interface CliServiceRow {
  snapshots: number;
  /** The workspace's MB. */
  mb: number;
  /** After the last CLI snapshot, once its background upkeeps finished. */
  before_service: { bytes: number; packs: number };
  ours: number;
  packs: number;
  git_gc: number;
  ratio: number;
  /** How long the service ran. */
  service_s: number;
}

const EDITED = 40;
const CLI = fileURLToPath(new URL('../../electron/cli/main.js', import.meta.url));

function run(cli: string, args: readonly string[], cwd: string, home: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, CHRONOSCOPE_HOME: home }, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function packCount(gitDir: string): number {
  return readdirSync(join(gitDir, 'objects', 'pack')).filter((n) => n.endsWith('.pack')).length;
}

/** Waits while a background upkeep holds its lock (the CLI's detached `upkeep --background`). */
async function upkeepsSettled(home: string): Promise<void> {
  const lock = join(home, 'upkeep.lock.lock');
  for (let i = 0; i < 600 && existsSync(lock); i++) await sleep(500);
}

/** `mb`: the workspace's size (2,000 files); `cli`: the CLI entry (default this checkout's; another built checkout's for a before/after). */
export async function measureCliThenService(dir: string, snapshots: number, mb: number, serviceS: number, progress: (m: string) => void, cli = CLI): Promise<CliServiceRow> {
  const ws = generateWorkspace(join(dir, `cli-${snapshots}-ws`), { files: 2000, bytes: Math.round(mb * (1 << 20)) });
  const home = join(dir, `cli-${snapshots}-home`);
  const gitDir = storeLayout(home).gitDir;
  if ((await run(cli, ['snapshot', '-m', 'first'], ws.root, home)) !== 0) throw new Error('cli case: the first snapshot failed');
  for (let round = 0; round < snapshots; round++) {
    editFiles(ws.root, pickFiles(ws, EDITED, round), `cli ${round}`);
    const code = await run(cli, ['snapshot', '-m', `edit ${round}`], ws.root, home);
    if (code !== 0) throw new Error(`cli case: snapshot ${round} exited ${code}`);
    if ((round + 1) % 50 === 0) progress(`store_size_cli_${snapshots}: ${round + 1} CLI snapshots, ${packCount(gitDir)} packs`);
  }
  await upkeepsSettled(home);
  const before = { bytes: (await objectsFootprint(gitDir)).bytes, packs: packCount(gitDir) };
  progress(`store_size_cli_${snapshots}: the service watches for ${serviceS} s (${before.packs} packs)`);
  const service = spawn(process.execPath, [cli, 'daemon', '--workspace', ws.root], { cwd: ws.root, env: { ...process.env, CHRONOSCOPE_HOME: home }, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => service.on('close', () => resolve()));
  await sleep(serviceS * 1000);
  await run(cli, ['daemon', '--stop'], ws.root, home);
  await Promise.race([exited, sleep(30_000)]);
  if (service.exitCode === null) service.kill('SIGTERM');
  await upkeepsSettled(home);
  const ours = (await objectsFootprint(gitDir)).bytes;
  const packs = packCount(gitDir);
  const gitGc = await gcSize(dir, home, gitDir, snapshots);
  rmSync(home, { recursive: true, force: true });
  rmSync(ws.root, { recursive: true, force: true });
  return { snapshots, mb, before_service: before, ours, packs, git_gc: gitGc, ratio: Math.round((ours / gitGc) * 1000) / 1000, service_s: serviceS };
}

const mb = (bytes: number): string => `${(bytes / (1 << 20)).toFixed(2)} MB`;

export function cliServiceLines(rows: readonly CliServiceRow[]): string[] {
  return rows.map(
    (r) =>
      `  store_size_cli_${r.snapshots} (${r.mb} MB workspace): ${r.snapshots} CLI snapshots, then the service ${r.service_s} s: ours ${mb(r.ours)} in ${r.packs} packs, git gc ${mb(r.git_gc)}, ${r.ratio.toFixed(2)}× ${r.ratio <= 1.2 ? 'pass' : 'MISS'} (target ≤ 1.20×); before the service ${mb(r.before_service.bytes)} in ${r.before_service.packs} packs, ${(r.before_service.bytes / r.git_gc).toFixed(2)}×`,
  );
}
