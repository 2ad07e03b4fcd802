// `npm run bench`: this engine against a Hermes-style baseline (a shadow git
// dir with `git add -A` + `git commit` per snapshot), side by side in one run,
// on a synthetic workspace. Prints a table, or with --json one object:
//   {"workspace": {"files", "bytes"}, "results": [{"case", "engine_ms", "baseline_ms", "ratio"}], "peak_rss_mb"}
// It measures; it never fails on speed (exit 1 only if the benchmark itself breaks).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Baseline } from './bench/baseline.js';
import { EngineSide } from './bench/engine-side.js';
import { caseResult, CASES, humanTable, median, type BenchReport, type CaseName, type CaseResult } from './bench/report.js';
import { setFsyncForMeasurement } from '../electron/engine/git/git-env.js';
import { editFiles, generateWorkspace, pickFiles, type GeneratedWorkspace } from './bench/workspace.js';
import { measureAppMemory } from './bench/app-memory.js';
import { measureCheck } from './bench/check-case.js';
import { daemonIdleLines, measureDaemonIdle } from './bench/daemon-idle.js';
import { autoRounds, measureHookAuto, measureHookFirstCall, measureHookPreEdit, measureHookPrompt, OTHER_AGENTS } from './bench/hook-case.js';
import { TreeRssSampler } from './bench/rss.js';
import { autoCheckpoint } from './bench/watcher-side.js';
import { measureUpkeep, upkeepLines, type UpkeepBench } from './bench/upkeep-case.js';
import { measureStoreSize, storeSizeLines } from './bench/store-size-case.js';
import { cliServiceLines, measureCliThenService } from './bench/cli-service-case.js';
import { historyLines, measureHistory } from './bench/history-case.js';
import { measureObjects, objectsLines, type ObjectsBench } from './bench/objects-case.js';

interface BenchOptions {
  files: number;
  mb: number;
  runs: number;
  json: boolean;
  /** Also the delegated hook on a 100,000-file workspace (slow to set up: opt-in). */
  hook100k: boolean;
  /** The warm hook of Codex, Gemini, Copilot and OpenCode too (hook_auto_<agent>), timed in turn with Claude Code's on its service: opt-in. */
  agents: boolean;
  /** Only the first snapshot (which the hook cases need) and the hook cases. */
  hookOnly: boolean;
  /** Only check_1000 and check_1000_delta. */
  checkOnly: boolean;
  /** Only the store_size rows, at these snapshot counts (e.g. 150,1000,10000). */
  storeSizes: number[] | null;
  /** With the store_size rows (or alone): this many CLI snapshots, then a minute of the service (cli-service-case.ts). */
  cliService: number | null;
  /** Only the history_N rows: the CLI on seeded histories of these sizes (history-case.ts), seeded once into historySeeds when given. */
  history: number[] | null;
  historySeeds: string | null;
  /** Snapshots before the store's upkeep is measured (0: not measured); upkeepOnly: nothing else. */
  upkeep: number;
  upkeepOnly: boolean;
  /** Only the idle background service's memory and CPU (10 workspaces of --files files each). */
  daemonIdle: boolean;
  /** Only the first snapshot and our object layer against isomorphic-git's (scripts/bench/objects-case.ts). */
  objects: boolean;
}

const LIST_SIZE = 1000;
const USAGE = 'usage: bench [--files N] [--mb N] [--runs N] [--json] [--hook-100k] [--agents] [--hook-only] [--check-only] [--store-sizes N,N,…] [--cli-service N] [--history N,N,… [--seed-cache DIR]] [--upkeep N] [--upkeep-only] [--daemon-idle] [--objects]';

function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      files: { type: 'string', default: '10000' },
      mb: { type: 'string', default: '100' },
      runs: { type: 'string', default: '5' },
      json: { type: 'boolean', default: false },
      'hook-100k': { type: 'boolean', default: false },
      agents: { type: 'boolean', default: false },
      'hook-only': { type: 'boolean', default: false },
      'check-only': { type: 'boolean', default: false },
      'store-sizes': { type: 'string' },
      'cli-service': { type: 'string' },
      history: { type: 'string' },
      'seed-cache': { type: 'string' },
      upkeep: { type: 'string', default: '0' },
      'upkeep-only': { type: 'boolean', default: false },
      'daemon-idle': { type: 'boolean', default: false },
      objects: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const num = (name: string, raw: string, min: number): number => {
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}\n${USAGE}`);
    return n;
  };
  return {
    files: Math.round(num('files', values.files, 20)),
    mb: num('mb', values.mb, 0.1),
    runs: Math.round(num('runs', values.runs, 1)),
    json: values.json,
    hook100k: values['hook-100k'],
    agents: values['agents'],
    hookOnly: values['hook-only'],
    checkOnly: values['check-only'],
    storeSizes: values['store-sizes'] === undefined ? null : values['store-sizes'].split(',').map((n) => Math.round(num('store-sizes', n, 1))),
    history: values.history === undefined ? null : values.history.split(',').map((n) => Math.round(num('history', n, 1))),
    historySeeds: values['seed-cache'] ?? null,
    cliService: values['cli-service'] === undefined ? null : Math.round(num('cli-service', values['cli-service'], 1)),
    upkeep: Math.round(num('upkeep', values['upkeep-only'] && values.upkeep === '0' ? '1000' : values.upkeep, 0)),
    upkeepOnly: values['upkeep-only'],
    daemonIdle: values['daemon-idle'],
    objects: values.objects,
  };
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

function progress(options: BenchOptions, message: string): void {
  if (!options.json) process.stderr.write(`… ${message}\n`);
}

/** A state both sides have a checkpoint of. */
interface Pair {
  engine: string;
  baseline: string;
}

async function bench(options: BenchOptions, dir: string): Promise<BenchReport & { objects?: ObjectsBench }> {
  const times = new Map<CaseName, { engine: number[]; baseline: number[] }>(CASES.map((c) => [c, { engine: [], baseline: [] }]));
  const record = (name: CaseName, side: 'engine' | 'baseline', ms: number): void => {
    times.get(name)?.[side].push(ms);
  };

  const sampler = new TreeRssSampler();
  sampler.start();
  progress(options, `generating ${options.files} files, ${options.mb} MB`);
  const ws: GeneratedWorkspace = generateWorkspace(join(dir, 'workspace'), {
    files: options.files,
    bytes: Math.round(options.mb * (1 << 20)),
  });

  // first: one run each, on a fresh store.
  progress(options, 'first snapshot');
  const baseline = new Baseline(ws.root, join(dir, 'baseline-home'));
  const [baselineFirstMs, baselineFirst] = await timed(async () => {
    await baseline.init();
    return baseline.snapshot('first');
  });
  const [engineFirstMs, engineSide] = await timed(async () => {
    const side = await EngineSide.open(join(dir, 'engine-home'), ws.root);
    await side.snapshot('first');
    return side;
  });
  record('first', 'engine', engineFirstMs);
  record('first', 'baseline', baselineFirstMs);
  if (baselineFirst === null) throw new Error('baseline took no first checkpoint');

  // Alternate which side goes first, so neither always gets the warmer cache.
  // `setup` runs (untimed) before each side, to hand both the same starting state.
  const both = async (
    run: number,
    name: CaseName,
    engine: () => Promise<unknown>,
    base: () => Promise<unknown>,
    setup: () => void = () => {},
  ): Promise<void> => {
    const order: Array<['engine' | 'baseline', () => Promise<unknown>]> = [
      ['engine', engine],
      ['baseline', base],
    ];
    if (run % 2 === 1) order.reverse();
    for (const [side, fn] of order) {
      setup();
      record(name, side, (await timed(fn))[0]);
      // The engine's background work (its index catching up) is not left to run into the other side's timing.
      await engineSide.settled();
    }
  };

  if (options.objects) {
    const objects = await measureObjects({ engineSide, ws, dir, runs: options.runs, round: 0, progress: (m) => progress(options, m) });
    return {
      workspace: { files: ws.files, bytes: ws.bytes },
      results: [caseResult('first', times.get('first')?.engine ?? [], times.get('first')?.baseline ?? [])],
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      peak_tree_rss_mb: sampler.stop(),
      app: null,
      objects,
    };
  }

  if (options.hookOnly || options.checkOnly) {
    if (options.hookOnly) await hookCases(options, ws, dir, record, 0);
    if (options.checkOnly) await checkCases(options, ws, dir, record);
    return {
      workspace: { files: ws.files, bytes: ws.bytes },
      results: CASES.filter((name) => (times.get(name)?.engine.length ?? 0) > 0).map((name) => caseResult(name, times.get(name)?.engine ?? [], times.get(name)?.baseline ?? [])),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      peak_tree_rss_mb: sampler.stop(),
      app: null,
    };
  }

  progress(options, 'snapshot with nothing changed');
  for (let run = 0; run < options.runs; run++) {
    await both(run, 'noop', () => engineSide.snapshot('noop'), () => baseline.snapshot('noop'));
  }

  let round = 0;
  let lastPair: Pair | null = null;
  let previousPair: Pair | null = null;
  const editSnapshot = async (name: 'edit10_scan' | 'edit10_paths', run: number): Promise<void> => {
    const files = pickFiles(ws, 10, round);
    editFiles(ws.root, files, `${name} ${run}`);
    round += 1;
    let engineId: string | null = null;
    let baselineId: string | null = null;
    await both(
      run,
      name,
      async () => (engineId = await engineSide.snapshot(name, name === 'edit10_paths' ? files : undefined)),
      async () => (baselineId = await baseline.snapshot(name)),
    );
    if (engineId === null || baselineId === null) throw new Error(`${name}: a side took no checkpoint after 10 edits`);
    previousPair = lastPair;
    lastPair = { engine: engineId, baseline: baselineId };
  };
  progress(options, 'snapshot after 10 edits, full scan');
  for (let run = 0; run < options.runs; run++) await editSnapshot('edit10_scan', run);
  progress(options, 'snapshot after 10 edits, limited to their paths');
  for (let run = 0; run < options.runs; run++) await editSnapshot('edit10_paths', run);

  // watch10: the watcher's auto-checkpoint after 10 edits (the snapshot it asks
  // for, not its quiet period) against the engine's own full-scan snapshot of
  // 10 other edits, in the same run.
  progress(options, 'auto-checkpoint by the watcher after 10 edits vs a full scan');
  for (let run = 0; run < options.runs; run++) {
    const scanned = pickFiles(ws, 10, round);
    const watched = pickFiles(ws, 10, round + 1);
    round += 2;
    editFiles(ws.root, scanned, `watch10 scan ${run}`);
    record('watch10', 'baseline', (await timed(() => engineSide.snapshot('watch10 full scan')))[0]);
    await engineSide.settled();
    const auto = await autoCheckpoint(engineSide.workspace, ws.root, () => editFiles(ws.root, watched, `watch10 auto ${run}`));
    if (auto.paths === null) throw new Error('watch10: the watcher asked for a full scan');
    record('watch10', 'engine', auto.ms);
    await engineSide.settled();
  }

  // diff: one checkpoint against the one before it (10 files changed).
  progress(options, 'diff of one checkpoint');
  const target = lastPair as Pair | null;
  const before = previousPair as Pair | null;
  if (target === null || before === null) throw new Error('no checkpoints to diff');
  for (let run = 0; run < options.runs; run++) {
    await both(run, 'diff', () => engineSide.diff(before.engine, target.engine), () => baseline.diff(target.baseline));
  }

  // restore10: 10 files edited since `target`; put them back. Both sides get
  // the same dirty state (the same edit is applied before each).
  progress(options, 'restore of 10 files');
  for (let run = 0; run < options.runs; run++) {
    const files = pickFiles(ws, 10, round);
    round += 1;
    await both(
      run,
      'restore10',
      () => engineSide.restore(target.engine, files),
      () => baseline.restore(target.baseline, files),
      () => editFiles(ws.root, files, `restore10 ${run}`),
    );
  }

  // restore_all: 10 files edited, 5 created, 3 deleted since `target`; restore everything.
  // (Hermes' checkout leaves the 5 new files; they are removed, untimed, before the next side.)
  progress(options, 'restore of everything');
  for (let run = 0; run < options.runs; run++) {
    const edited = pickFiles(ws, 10, round);
    const deleted = pickFiles(ws, 13, round + 1).filter((f) => !edited.includes(f)).slice(0, 3);
    round += 2;
    const created = [0, 1, 2, 3, 4].map((i) => `src/new/created-${run}-${i}.ts`);
    const dirty = (): void => {
      rmSync(join(ws.root, 'src/new'), { recursive: true, force: true });
      editFiles(ws.root, edited, `restore_all ${run}`);
      mkdirSync(join(ws.root, 'src/new'), { recursive: true });
      for (const path of created) writeFileSync(join(ws.root, path), `export const created = '${path}';\n`);
      for (const path of deleted) rmSync(join(ws.root, path), { force: true });
    };
    await both(
      run,
      'restore_all',
      () => engineSide.restore(target.engine),
      () => baseline.restore(target.baseline),
      dirty,
    );
    rmSync(join(ws.root, 'src/new'), { recursive: true, force: true });
  }

  await hookCases(options, ws, dir, record, round);

  // list1000: 1,000 checkpoints on each side, made quickly (listing is what is
  // measured): the engine's written with its own encoders, the baseline's by git fast-import.
  progress(options, 'making 1,000 checkpoints on each side');
  const seedFile = ws.textFiles[0] ?? 'README.md';
  const engineHave = await engineSide.count();
  if (engineHave < LIST_SIZE) await engineSide.seedCheckpoints(LIST_SIZE - engineHave, dir);
  const baselineHave = await baseline.count();
  if (baselineHave < LIST_SIZE) await baseline.seedCommits(LIST_SIZE - baselineHave, seedFile);
  progress(options, 'listing 1,000 checkpoints');
  for (let run = 0; run < options.runs; run++) {
    let listed: [number, number] = [0, 0];
    await both(
      run,
      'list1000',
      async () => (listed[0] = await engineSide.list(LIST_SIZE)),
      async () => (listed[1] = await baseline.list(LIST_SIZE)),
    );
    if (listed[0] !== LIST_SIZE || listed[1] !== LIST_SIZE) {
      throw new Error(`list1000: listed ${listed[0]} (engine) and ${listed[1]} (baseline) checkpoints`);
    }
    listed = [0, 0];
  }

  // What durability costs: the engine's 10-file snapshot with and without its
  // fsyncs, alternating, in this run. Off only here, for the measurement.
  progress(options, 'durability: 10-file snapshots with and without fsync');
  const withSync: number[] = [];
  const withoutSync: number[] = [];
  // Untimed: the first snapshot after the seeding above confirms the latest checkpoint anew (a listing of every ref) — not what either arm measures.
  editFiles(ws.root, pickFiles(ws, 10, round), 'durability warm-up');
  round += 1;
  await engineSide.snapshot('durability warm-up');
  await engineSide.settled();
  for (let run = 0; run < options.runs * 2; run++) {
    const on = run % 2 === 0;
    editFiles(ws.root, pickFiles(ws, 10, round), `durability ${run}`);
    round += 1;
    setFsyncForMeasurement(on);
    try {
      (on ? withSync : withoutSync).push((await timed(() => engineSide.snapshot('durability')))[0]);
    } finally {
      setFsyncForMeasurement(true);
    }
    await engineSide.settled();
  }

  await checkCases(options, ws, dir, record);

  return {
    workspace: { files: ws.files, bytes: ws.bytes },
    results: CASES.filter((name) => (times.get(name)?.engine.length ?? 0) > 0).map((name): CaseResult => {
      const t = times.get(name);
      return caseResult(name, t?.engine ?? [], t?.baseline ?? []);
    }),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    peak_tree_rss_mb: sampler.stop(),
    app: await measureApp(options, engineSide, ws.root),
    durability: { with_fsync_ms: Math.round(median(withSync) * 10) / 10, without_fsync_ms: Math.round(median(withoutSync) * 10) / 10 },
  };
}

async function measureApp(options: BenchOptions, engineSide: EngineSide, root: string): Promise<BenchReport['app']> {
  progress(options, 'the app with this workspace open');
  try {
    return await measureAppMemory(engineSide.store.home, root);
  } catch (err) {
    progress(options, `app memory not measured: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

/** check_1000 and check_1000_delta: `chronoscope check` against git fsck --full, on a store of their own with 1,000 real checkpoints (scripts/bench/check-case.ts). */
async function checkCases(options: BenchOptions, ws: GeneratedWorkspace, dir: string, record: (name: CaseName, side: 'engine' | 'baseline', ms: number) => void): Promise<void> {
  const checked = await measureCheck(ws, join(dir, 'check-home'), options.runs, (m) => progress(options, m));
  for (const [name, side] of [['check_1000', checked.plain], ['check_1000_delta', checked.delta]] as const) {
    for (const ms of side.engine) record(name, 'engine', ms);
    for (const ms of side.fsck) record(name, 'baseline', ms);
  }
}

/**
 * The agent hook: a whole process per PreToolUse, alone and handed to a running app, each beside a
 * bare node start. The engine side's store already knows the workspace. Returns the next edit round.
 */
async function hookCases(
  options: BenchOptions,
  ws: GeneratedWorkspace,
  dir: string,
  record: (name: CaseName, side: 'engine' | 'baseline', ms: number) => void,
  startRound: number,
): Promise<number> {
  let round = startRound;
  progress(options, 'agent hook before an Edit (alone, then with the app running)');
  const hookRuns = Math.max(options.runs, 5);
  for (const [name, delegated] of [['hook_pre_edit', false], ['hook_pre_edit_delegated', true]] as const) {
    const t = await measureHookPreEdit({ ws, home: join(dir, 'engine-home'), runs: hookRuns, delegated, round });
    round += hookRuns;
    for (const ms of t.hook) record(name, 'engine', ms);
    for (const ms of t.bare) record(name, 'baseline', ms);
  }
  const agents = options.agents ? (['claude-code', ...OTHER_AGENTS] as const) : (['claude-code'] as const);
  progress(options, `agent hook with no app: the background service it starts, warm${options.agents ? ', called by each agent in turn' : ''}; then the first call after it left`);
  const auto = await measureHookAuto({ ws, home: join(dir, 'engine-home'), runs: hookRuns, round, agents, after: true });
  round += autoRounds(hookRuns, agents.length);
  for (const agent of agents) {
    const name: CaseName = agent === 'claude-code' ? 'hook_pre_edit_auto' : `hook_auto_${agent}`;
    for (const ms of auto.calls.get(agent)?.hook ?? []) record(name, 'engine', ms);
    for (const ms of auto.calls.get(agent)?.bare ?? []) record(name, 'baseline', ms);
  }
  for (const ms of auto.after?.hook ?? []) record('hook_post_edit_auto', 'engine', ms);
  for (const ms of auto.after?.bare ?? []) record('hook_post_edit_auto', 'baseline', ms);
  progress(options, "agent hook as a prompt is given after a person's edit (alone), beside the hook before an Edit");
  const prompted = await measureHookPrompt({ ws, home: join(dir, 'engine-home'), runs: hookRuns, round });
  round += 2 * hookRuns;
  for (const ms of prompted.hook) record('hook_prompt', 'engine', ms);
  for (const ms of prompted.bare) record('hook_prompt', 'baseline', ms);
  const first = await measureHookFirstCall({ ws, home: join(dir, 'engine-home'), runs: hookRuns, round });
  round += 2 * hookRuns;
  for (const ms of first.hook) record('hook_first_call', 'engine', ms);
  for (const ms of first.bare) record('hook_first_call', 'baseline', ms);
  if (options.hook100k) {
    progress(options, 'generating 100,000 files for the delegated hook case');
    const big = generateWorkspace(join(dir, 'workspace-100k'), { files: 100_000, bytes: 200 << 20, seed: 7 });
    const bigHome = join(dir, 'hook-100k-home');
    progress(options, 'first checkpoint of 100,000 files');
    await (await EngineSide.open(bigHome, big.root)).snapshot('first');
    progress(options, 'agent hook on 100,000 files: delegated, then alone');
    const delegatedTimes = await measureHookPreEdit({ ws: big, home: bigHome, runs: options.runs, delegated: true, round: 0 });
    const aloneTimes = await measureHookPreEdit({ ws: big, home: bigHome, runs: options.runs, delegated: false, round: options.runs });
    for (const ms of delegatedTimes.hook) record('hook_delegated_100k', 'engine', ms);
    for (const ms of aloneTimes.hook) record('hook_delegated_100k', 'baseline', ms);
    progress(options, 'agent hook on 100,000 files with the auto-started service warm');
    const autoTimes = (await measureHookAuto({ ws: big, home: bigHome, runs: options.runs, round: 2 * options.runs })).calls.get('claude-code');
    for (const ms of autoTimes?.hook ?? []) record('hook_auto_100k', 'engine', ms);
    for (const ms of autoTimes?.bare ?? []) record('hook_auto_100k', 'baseline', ms);
  }

  return round;
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'chronoscope-bench-'));
  try {
    // The store's size before and after upkeep (scripts/bench/upkeep-case.ts): on a workspace of its own.
    const upkeepCase = async (): Promise<UpkeepBench> => {
      const ws = generateWorkspace(join(dir, 'upkeep-workspace'), { files: options.files, bytes: Math.round(options.mb * (1 << 20)) });
      return measureUpkeep(ws, dir, options.upkeep, (m) => progress(options, m));
    };
    if (options.daemonIdle) {
      const idle = await measureDaemonIdle(dir, { workspaces: 10, files: options.files, quietS: 60, progress: (m) => progress(options, m) });
      if (idle === null) process.stdout.write('daemon idle: measured on Linux only (/proc)\n');
      else process.stdout.write(options.json ? `${JSON.stringify({ daemon_idle: idle })}\n` : `${daemonIdleLines(idle).join('\n')}\n`);
      return 0;
    }
    if (options.history) {
      const rows = [];
      for (const n of options.history) rows.push(await measureHistory(dir, n, options.runs, options.historySeeds, (m) => progress(options, m)));
      process.stdout.write(options.json ? `${JSON.stringify({ history: rows })}\n` : `${historyLines(rows).join('\n')}\n`);
      return 0;
    }
    if (options.storeSizes || options.cliService !== null) {
      const rows = [];
      for (const n of options.storeSizes ?? []) rows.push(await measureStoreSize(dir, n, (m) => progress(options, m)));
      const cli = options.cliService === null ? [] : [await measureCliThenService(dir, options.cliService, options.mb, 60, (m) => progress(options, m))];
      process.stdout.write(options.json ? `${JSON.stringify({ store_size: rows, store_size_cli: cli })}\n` : `${[...storeSizeLines(rows), ...cliServiceLines(cli)].join('\n')}\n`);
      return 0;
    }
    if (options.upkeepOnly) {
      const upkeep = await upkeepCase();
      process.stdout.write(options.json ? `${JSON.stringify({ upkeep })}\n` : `${upkeepLines(upkeep).join('\n')}\n`);
      return 0;
    }
    const report: BenchReport & { upkeep?: UpkeepBench; objects?: ObjectsBench } = await bench(options, dir);
    if (options.upkeep > 0) report.upkeep = await upkeepCase();
    if (options.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else process.stdout.write(`${[humanTable(report, NOTES), ...(report.upkeep ? upkeepLines(report.upkeep) : []), ...(report.objects ? ['', ...objectsLines(report.objects)] : [])].join('\n')}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const NOTES = [
  'notes: medians of --runs runs (first: one run each on a fresh store); sides alternate who goes first.',
  '  baseline = Hermes checkpoints: add -A + diff --cached --quiet + commit; restore = cat-file + pre-rollback snapshot + checkout;',
  '  list = one git log --shortstat; diff = diff --numstat + diff (all patches). Engine diff = the changed-file list + both sides of one file.',
  '  list1000: both sides seeded quickly (engine: its own commit format via plumbing; baseline: fast-import), then listed.',
  '  check_1000: the engine\'s check (in this process) against git fsck --full on one store of 1,000 path-limited checkpoints (1-2 files each) of this workspace.',
  '  check_1000_delta: the same, on a copy of that store after git repack -adf --depth=50 --window=250 (deltas, as gc or upkeep leave it).',
  '  watch10: the snapshot the watcher asks for after 10 edits (its quiet period not counted); the "baseline" column is the engine\'s full-scan snapshot of 10 other edits.',
  "  hook_*: the whole hook process (spawn, PreToolUse payload on stdin, exit) on the workspace with one file changed; baseline = node -e '' in the same run.",
  '    _delegated: an app service (as the desktop app or serve) runs in this process and the hook hands it the work over the store socket.',
  '    hook_delegated_100k (--hook-100k only): engine = delegated hook, baseline = the hook alone, on 100,000 files.',
  '    _auto: no app; the first call started the background service (chronoscope daemon) and the measured calls are handed to it,',
  "      each once the service's work after the previous call (index sync, pack join) is over, as when calls are seconds apart.",
  "    hook_post_edit_auto: the same warm service, Claude Code's PostToolUse after the call's edit (the service checkpoints what the call changed).",
  '    hook_auto_<agent> (--agents only): the same warm service, called by Codex\'s, Gemini\'s, Copilot\'s and OpenCode\'s hook with a payload of their own,',
  '      in turn with Claude Code\'s calls (each run in a rotated order), so all five rows meet the same service and load.',
  "    hook_prompt: engine = UserPromptSubmit after a person changed a file (the hook alone takes that change as the state before the prompt), baseline = the hook before an Edit of one changed file, alone; same run.",
  '    hook_first_call: engine = the call that finds no service (works alone, then starts one detached), baseline = the same call with auto-start off.',
  '    hook_auto_100k (--hook-100k only): engine = the hook with the auto-started service warm, baseline = node -e \'\', on 100,000 files.',
  '  peak RSS: the benchmark process (generator + engine in-process) exactly; with git\'s child processes of both sides sampled from /proc every 50 ms.',
];

process.exitCode = await main();
