// `npm run bench:ui`: the built renderer in a real Chromium (Debian's
// /usr/bin/chromium through Playwright), served by the real browser host, on
// histories of 1,000 and 10,000 checkpoints (seed-history.ts). For each it
// prints: the first page after `serve` starts (a fresh browser: no cache;
// serve's start → newest checkpoint's diff on screen, and → the whole list
// counted), beside `chronoscope list --all --json` run in the same history;
// first load warm (page open → newest checkpoint's diff on screen), a
// 60-step drag of the slider handle (long tasks > 50 ms, frame gaps > 50 ms,
// steps that showed no diff at all, time from the last move to the diff of
// where the handle stopped on screen, seen from inside the page), 200 arrow
// presses (the same figures), and both again with a file-history filter on.
// It measures; it never fails on speed (exit 1 only if the benchmark itself
// breaks). Options: --counts 1000,10000, --json, --cpu (also trace each
// interaction and print the renderer's main-thread CPU time: on a machine
// busy with other work, wall-clock long tasks mostly measure the wait for a
// core; thread time does not); --large (only "Show it anyway" on a 3 MB file,
// bench-ui/large-file.ts) with --baseline <another built checkout> --runs n;
// --prompts on|off|both: Claude Code's checkpoints seeded under prompts (the
// list groups them; default on), or not, or both in one run (the history
// without prompts printed above it as the baseline).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright';
import { fileName, seedHistory } from './bench-ui/seed-history.js';
import { largeFileTable, runLargeFiles } from './bench-ui/large-file.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(ROOT, 'dist', 'electron', 'cli', 'main.js');
const CHROMIUM = '/usr/bin/chromium';
const FOLLOWED = fileName(6);

interface Interaction {
  steps: number;
  long_tasks: number;
  longest_task_ms: number;
  frame_gaps: number;
  longest_gap_ms: number;
  /** After the last move (or key press), until the diff of where it stopped is on screen. */
  after_long_tasks: number;
  after_gaps: number;
  after_longest_gap_ms: number;
  steps_without_diff: number;
  settle_ms: number;
  /** With --cpu: the renderer's main-thread CPU time (thread time, not wall time: less bent by a busy machine) and its tasks over 50 ms of CPU. */
  cpu?: { total_ms: number; tasks_over_50ms: number; longest_ms: number };
}

interface SizeResult {
  checkpoints: number;
  /** From `serve`'s spawn, a fresh browser context (no HTTP cache): until the newest diff is on screen… */
  cold_first_diff_ms: number;
  /** …and until the whole list is counted (no "200+"). */
  cold_whole_list_ms: number;
  /** The same history through the CLI: `chronoscope list --all --json` (spawn to exit), the baseline. */
  cli_list_all_ms: number;
  first_load_ms: number;
  /** Warm: page open until the whole list is counted. */
  whole_list_ms: number;
  /** Warm: page open until the list's prompt headers carry their prompts (prompts:list answered); null without prompts. */
  prompts_grouped_ms: number | null;
  /** Prompts seeded into the history (Claude Code's checkpoints are grouped under them). */
  prompts: number;
  /** Warm: page open until Monaco has drawn the newest diff (the light preview stands in before). */
  editor_ready_ms: number;
  drag: Interaction;
  arrows: Interaction;
  history_drag: Interaction;
  history_arrows: Interaction;
  history_matches: number;
}

// Runs in the page before any script: long tasks and frame gaps, collected while `window.__bench.on`, and the diff-on-screen check.
const PROBE = `
  window.__bench = { on: false, tasks: [], gaps: [], last: 0, shownAt: null, shows: ${showsSelected.toString()} };
  new PerformanceObserver((list) => {
    if (!window.__bench.on) return;
    for (const e of list.getEntries()) window.__bench.tasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: false });
  const frame = (t) => {
    const b = window.__bench;
    if (b.on && b.last) b.gaps.push(t - b.last);
    b.last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
`;

/** `chronoscope list --all --json` on the same history, spawn to exit. */
function timeCliListAll(home: string, dir: string): Promise<number> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [CLI, 'list', '--all', '--json', '--workspace', dir], { env: { ...process.env, CHRONOSCOPE_HOME: home }, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Date.now() - t0) : reject(new Error(`chronoscope list exited ${code}`))));
  });
}

/** In the page: Monaco has taken the selected diff over from the light preview (a text diff), or the view is not a text diff. */
function editorReady(): boolean {
  const diff = document.querySelector('[data-testid="diff-view"]');
  if (!diff) return false;
  if (diff.getAttribute('data-kind') !== 'text') return diff.getAttribute('data-kind') !== 'loading';
  return diff.getAttribute('data-preview') === 'false' && document.querySelector('[data-testid="diff-view"] .monaco-layer:not([aria-hidden="true"]) .monaco-editor .view-line') !== null;
}

/** In the page: the list is whole (its count is the history's, with no "+" of a first page). */
function wholeListCounted(count: number): boolean {
  return (document.querySelector('[data-testid="checkpoint-count"]')?.textContent ?? '') === String(count);
}

function startServer(home: string, dir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--workspace', dir, '--port', '0', '--no-watch'], {
    env: { ...process.env, CHRONOSCOPE_HOME: home },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before printing its URL`)));
    createInterface({ input: child.stdout! }).once('line', (url) => resolve({ url, child }));
  });
}

// The page-side functions below run in Chromium; the Node build has no DOM types, so the little they use is declared here.
interface PageElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
}
declare const document: { querySelector(selector: string): PageElement | null };
declare function requestAnimationFrame(callback: () => void): void;
/** What PROBE puts in the page (the part read by the functions below). */
declare const __bench: { shownAt: number | null; shows(selector: string): boolean };

/** What counts as a diff on screen: an editor, the scrub preview, a notice, an image, or an empty-file note. */
const DIFF_ON_SCREEN = [
  '[data-testid="diff-view"] .monaco-layer:not([aria-hidden="true"]) .monaco-editor',
  '[data-testid="diff-view"] [data-testid="scrub-preview"]',
  '[data-testid="diff-view"] .diff-overlay-centered',
  '[data-testid="diff-view"][data-kind="notice"]',
  '[data-testid="diff-view"][data-kind="image"]',
].join(', ');

/**
 * True when the diff area shows the selected checkpoint, fresh (not the last one kept while loading);
 * with `onScreen`, also drawn (first load: Monaco loaded and showing it). Runs in the page.
 */
function showsSelected(onScreen?: string): boolean {
  const row = document.querySelector('[data-testid="checkpoint-item"][aria-selected="true"]');
  const body = document.querySelector('[data-testid="details-body"]');
  const diff = document.querySelector('[data-testid="diff-view"]');
  if (!row || !body || !diff) return false;
  const short = (row.getAttribute('data-checkpoint-id') ?? '').slice(0, 8);
  const diffIsHere = diff.getAttribute('data-to') === short || diff.getAttribute('data-kind') === 'notice' || diff.getAttribute('data-change') !== null;
  const fresh = body.getAttribute('data-shows') === short && body.getAttribute('data-stale') === 'false' && diffIsHere && diff.getAttribute('data-stale') !== 'true';
  return fresh && (onScreen === undefined || document.querySelector(onScreen) !== null);
}

/** A diff (or what stands in its place) is on screen. Runs in the page. */
function hasDiff(onScreen: string): boolean {
  return document.querySelector(onScreen) !== null;
}

/**
 * In the page: from now on, the wall-clock time (Date.now) of the first frame
 * after one whose start found the selected checkpoint's diff on screen — by
 * then that frame has been drawn — in `window.__bench.shownAt`. (The page's
 * policy allows no eval: the check itself comes with PROBE.)
 */
function watchShown(onScreen: string): void {
  __bench.shownAt = null;
  const tick = (): void => {
    if (__bench.shows(onScreen)) requestAnimationFrame(() => (__bench.shownAt = Date.now()));
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function shownAt(): number | null {
  return __bench.shownAt;
}

function historyApplied(): boolean {
  return (document.querySelector('[data-testid="checkpoint-count"]')?.textContent ?? '').includes(' of ');
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string };
}

/** Main-thread CPU of the page's renderer from a Chromium trace: top-level tasks' thread time. */
function mainThreadCpu(trace: Buffer): NonNullable<Interaction['cpu']> {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, number[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name !== 'RunTask' || e.ph !== 'X' || e.tdur === undefined || !mains.has(key)) continue;
    const list = byThread.get(key) ?? [];
    list.push(e.tdur / 1000);
    byThread.set(key, list);
  }
  // The page's renderer is the busiest main thread in the trace.
  const tasks = [...byThread.values()].sort((a, b) => b.reduce((x, y) => x + y, 0) - a.reduce((x, y) => x + y, 0))[0] ?? [];
  return {
    total_ms: Math.round(tasks.reduce((a, b) => a + b, 0)),
    tasks_over_50ms: tasks.filter((t) => t > 50).length,
    longest_ms: Math.round(Math.max(0, ...tasks)),
  };
}

let traceCpu = false;

/** `act` makes the moves and returns their count and how to end them (the mouse released), which counts as after the stop. */
async function measure(page: Page, act: (noteStep: () => Promise<void>) => Promise<{ steps: number; end?: () => Promise<void> }>): Promise<Interaction> {
  const browser = page.context().browser();
  if (traceCpu && browser) await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.evaluate('window.__bench.on = true; window.__bench.tasks = []; window.__bench.gaps = []; window.__bench.last = 0;');
  let without = 0;
  const noteStep = async () => {
    if (!(await page.evaluate(hasDiff, DIFF_ON_SCREEN))) without++;
  };
  const { steps, end } = await act(noteStep);
  const stopped = Date.now();
  // What was collected up to here happened while the handle moved (or the keys were pressed); the rest while the diff settles.
  const split = (await page.evaluate('({ tasks: window.__bench.tasks.length, gaps: window.__bench.gaps.length })')) as { tasks: number; gaps: number };
  // When the diff is on screen is seen from inside the page, frame by frame: a
  // wait from here would also count the round trip of each check through the
  // DevTools protocol, which queues behind whatever the page does after the stop.
  await page.evaluate(watchShown, DIFF_ON_SCREEN);
  await end?.();
  const shown = (await (await page.waitForFunction(shownAt, undefined, { timeout: 60_000 })).jsonValue()) as number;
  const settle = Math.max(0, shown - stopped);
  const { tasks, gaps } = (await page.evaluate('({ tasks: window.__bench.tasks, gaps: window.__bench.gaps })')) as { tasks: number[]; gaps: number[] };
  await page.evaluate('window.__bench.on = false');
  const cpu = traceCpu && browser ? mainThreadCpu(await browser.stopTracing()) : undefined;
  const during = gaps.slice(0, split.gaps);
  const after = gaps.slice(split.gaps);
  return {
    ...(cpu ? { cpu } : {}),
    steps,
    long_tasks: tasks.slice(0, split.tasks).filter((t) => t > 50).length,
    longest_task_ms: Math.round(Math.max(0, ...tasks.slice(0, split.tasks))),
    frame_gaps: during.filter((g) => g > 50).length,
    longest_gap_ms: Math.round(Math.max(0, ...during)),
    after_long_tasks: tasks.slice(split.tasks).filter((t) => t > 50).length,
    after_gaps: after.filter((g) => g > 50).length,
    after_longest_gap_ms: Math.round(Math.max(0, ...after)),
    steps_without_diff: without,
    settle_ms: settle,
  };
}

async function drag(page: Page): Promise<Interaction> {
  const box = await page.getByTestId('timeline-slider').boundingBox();
  if (!box) throw new Error('no slider');
  const y = box.y + box.height / 2;
  return measure(page, async (noteStep) => {
    await page.mouse.move(box.x + box.width - 6, y);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) {
      await page.mouse.move(box.x + box.width * (1 - (i / 60) * 0.6), y);
      await page.waitForTimeout(16);
      await noteStep();
    }
    return { steps: 60, end: () => page.mouse.up() };
  });
}

async function arrows(page: Page): Promise<Interaction> {
  await page.getByTestId('timeline-slider').focus();
  await page.keyboard.press('End');
  await page.waitForFunction(showsSelected, DIFF_ON_SCREEN, { polling: 'raf', timeout: 60_000 });
  return measure(page, async (noteStep) => {
    for (let i = 0; i < 200; i++) {
      await page.keyboard.press('ArrowLeft');
      if (i % 10 === 9) await noteStep();
    }
    return { steps: 200 };
  });
}

const progress = (text: string): void => {
  process.stderr.write(`bench:ui: ${text}\n`);
};

/** A prompt header of the list shows its prompt's record (prompts:list has answered). */
const promptsGrouped = (): boolean => document.querySelector('[data-testid="prompt-header"][data-prompt-id]') !== null;

async function runSize(browser: Browser, count: number, withPrompts: boolean): Promise<SizeResult> {
  const base = mkdtempSync(path.join(tmpdir(), 'chronoscope-bench-ui-'));
  const home = path.join(base, 'home');
  const dir = path.join(base, 'project');
  let child: ChildProcess | null = null;
  try {
    progress(`${count} checkpoints: seeding`);
    const seeded = await seedHistory({ home, dir, count, prompts: withPrompts });
    const prompts = new Set(seeded.flatMap((c) => (c.prompt_id ? [c.prompt_id] : []))).size;
    // Cold: serve just started, a browser with nothing cached (the first page a person opens).
    progress(`${count} checkpoints: first page after serve starts`);
    const coldStart = Date.now();
    const cold = await startServer(home, dir);
    child = cold.child;
    const coldContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const coldPage = await coldContext.newPage();
    await coldPage.goto(cold.url);
    await coldPage.waitForFunction(showsSelected, DIFF_ON_SCREEN, { polling: 'raf', timeout: 120_000 });
    const coldFirstDiff = Date.now() - coldStart;
    await coldPage.waitForFunction(wholeListCounted, count, { polling: 'raf', timeout: 120_000 });
    const coldWholeList = Date.now() - coldStart;
    await coldContext.close();
    child.kill('SIGINT');
    await new Promise((resolveExit) => cold.child.once('exit', resolveExit));
    child = null;
    const cliListAll = await timeCliListAll(home, dir);

    const server = await startServer(home, dir);
    child = server.child;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    // A first visit loads Monaco into the HTTP cache, as a person's second look would have it.
    await page.goto(server.url);
    await page.waitForFunction(showsSelected, DIFF_ON_SCREEN, { polling: 'raf', timeout: 120_000 });
    const origin = new URL(server.url).origin;

    await page.goto('about:blank');
    const t0 = Date.now();
    await page.goto(`${origin}/`);
    await page.waitForFunction(showsSelected, DIFF_ON_SCREEN, { polling: 'raf', timeout: 120_000 });
    const firstLoad = Date.now() - t0;
    await page.waitForFunction(wholeListCounted, count, { polling: 'raf', timeout: 120_000 });
    const wholeList = Date.now() - t0;
    let promptsGroupedMs: number | null = null;
    if (prompts > 0) {
      await page.waitForFunction(promptsGrouped, undefined, { polling: 'raf', timeout: 120_000 });
      promptsGroupedMs = Date.now() - t0;
    }
    // The drag starts once the page is done loading: Monaco's one-time start (~0.3 s of main thread
    // once the first diff is on screen) is a figure of its own, not a step of the drag.
    await page.waitForFunction(editorReady, undefined, { polling: 'raf', timeout: 120_000 });
    const editorReadyMs = Date.now() - t0;
    progress(`${count} checkpoints: loaded, dragging`);
    const dragResult = await drag(page);
    progress(`${count} checkpoints: arrow keys`);
    const arrowResult = await arrows(page);
    progress(`${count} checkpoints: file history of ${FOLLOWED}`);

    // A fresh document (a hash change alone would not reload): the filter comes from the URL.
    await page.goto('about:blank');
    await page.goto(`${origin}/#path=${encodeURIComponent(FOLLOWED)}`);
    await page.waitForFunction(historyApplied, undefined, { timeout: 120_000 });
    await page.waitForFunction(showsSelected, DIFF_ON_SCREEN, { polling: 'raf', timeout: 120_000 });
    await page.waitForFunction(editorReady, undefined, { polling: 'raf', timeout: 120_000 });
    const matches = Number(((await page.getByTestId('checkpoint-count').textContent()) ?? '').split(' of ')[0]);
    const historyDrag = await drag(page);
    const historyArrows = await arrows(page);
    await context.close();
    return { checkpoints: count, cold_first_diff_ms: coldFirstDiff, cold_whole_list_ms: coldWholeList, cli_list_all_ms: cliListAll, first_load_ms: firstLoad, whole_list_ms: wholeList, prompts_grouped_ms: promptsGroupedMs, prompts, editor_ready_ms: editorReadyMs, drag: dragResult, arrows: arrowResult, history_drag: historyDrag, history_arrows: historyArrows, history_matches: matches };
  } finally {
    // serve writes into the store while it stops: removing it under that fails with ENOTEMPTY.
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolveExit) => child?.once('exit', resolveExit));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(base, { recursive: true, force: true, maxRetries: 5 });
  }
}

function table(results: SizeResult[]): string {
  const cpu = results.some((r) => r.drag.cpu !== undefined);
  const rows: string[][] = [
    ['case', 'steps', 'long tasks >50ms (max)', 'frame gaps >50ms (max)', 'steps without diff', 'diff shown after stop', 'after stop: long tasks, gaps >50ms (max)', ...(cpu ? ['main-thread CPU: total, tasks >50ms (max)'] : [])],
  ];
  for (const r of results) {
    const row = (name: string, value: string): string[] => [`${r.checkpoints} checkpoints${r.prompts > 0 ? ` under ${r.prompts} prompts` : ''}: ${name}`, '', '', '', '', value, '', ...(cpu ? [''] : [])];
    rows.push(row('first page after serve starts, newest diff (target < 2.5 s)', `${r.cold_first_diff_ms} ms`));
    rows.push(row('first page after serve starts, whole list', `${r.cold_whole_list_ms} ms`));
    rows.push(row('baseline: chronoscope list --all --json', `${r.cli_list_all_ms} ms`));
    rows.push(row('first load warm, newest diff (target < 1.5 s)', `${r.first_load_ms} ms`));
    rows.push(row('first load warm, whole list', `${r.whole_list_ms} ms`));
    if (r.prompts_grouped_ms !== null) rows.push(row(`first load warm, prompt headers filled (prompts:list of ${r.prompts})`, `${r.prompts_grouped_ms} ms`));
    rows.push(row('first load warm, editor ready (Monaco drew the newest diff)', `${r.editor_ready_ms} ms`));
    const line = (name: string, x: Interaction) =>
      rows.push([
        `${r.checkpoints}${r.prompts > 0 ? ` (${r.prompts} prompts)` : ''} ${name}`,
        String(x.steps),
        `${x.long_tasks} (${x.longest_task_ms} ms)`,
        `${x.frame_gaps} (${x.longest_gap_ms} ms)`,
        String(x.steps_without_diff),
        `${x.settle_ms} ms`,
        `${x.after_long_tasks}, ${x.after_gaps} (${x.after_longest_gap_ms} ms)`,
        ...(x.cpu ? [`${x.cpu.total_ms} ms, ${x.cpu.tasks_over_50ms} (${x.cpu.longest_ms} ms)`] : cpu ? [''] : []),
      ]);
    line('drag', r.drag);
    line('arrows', r.arrows);
    line(`drag, file history (${r.history_matches})`, r.history_drag);
    line(`arrows, file history (${r.history_matches})`, r.history_arrows);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows.map((row) => row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      counts: { type: 'string', default: '1000,10000' },
      json: { type: 'boolean', default: false },
      cpu: { type: 'boolean', default: false },
      large: { type: 'boolean', default: false },
      baseline: { type: 'string' },
      runs: { type: 'string', default: '3' },
      // Claude Code's checkpoints under prompts (the list groups them): on, off, or both (the same history without them as the baseline, in the same run).
      prompts: { type: 'string', default: 'on' },
    },
    strict: true,
  });
  traceCpu = values.cpu;
  const counts = values.counts.split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 2 || n > 100_000)) throw new Error('--counts: whole numbers from 2 to 100000, comma-separated');
  if (!existsSync(CLI) || !existsSync(path.join(ROOT, 'dist', 'renderer', 'index.html'))) throw new Error('not built: run `npm run build` first');
  const browser = await chromium.launch({
    ...(existsSync(CHROMIUM) ? { executablePath: CHROMIUM } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    if (values.large) {
      const runs = Number(values.runs);
      if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs: a whole number from 1');
      const builds = [{ name: 'this checkout', cli: CLI }];
      if (values.baseline !== undefined) {
        const cli = path.join(path.resolve(values.baseline), 'dist', 'electron', 'cli', 'main.js');
        if (!existsSync(cli)) throw new Error(`--baseline: no built checkout at ${values.baseline} (run npm run build there)`);
        builds.push({ name: path.basename(path.resolve(values.baseline)), cli });
      }
      const large = await runLargeFiles(browser, builds, runs);
      console.log(values.json ? JSON.stringify({ large }, null, 2) : largeFileTable(large));
      return;
    }
    if (!['on', 'off', 'both'].includes(values.prompts)) throw new Error('--prompts: on, off or both');
    const results: SizeResult[] = [];
    for (const count of counts) {
      if (values.prompts !== 'on') results.push(await runSize(browser, count, false));
      if (values.prompts !== 'off') results.push(await runSize(browser, count, true));
    }
    console.log(values.json ? JSON.stringify({ results }, null, 2) : table(results));
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(`bench:ui: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
