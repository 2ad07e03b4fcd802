// `npm run bench:ui -- --large`: "Show it anyway" on a file over the viewer's
// limit, in the built renderer in Chromium against the real browser host. Two
// files: a 3 MB log (60,000 lines) and a 3.4 MB JSON (144,000 lines), each
// with two lines changed, beside a small file the page opens first (so the
// editor already exists, as when a person clicks the large file in the list).
// Printed per file: from the click until the changed line is on screen, and
// the longest task and the tasks over 50 ms in the 3 s after the click (what
// holds the page). With --baseline <checkout>, the same in another built
// checkout's host and renderer, alternated in the same run.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright';

export interface LargeFileResult {
  build: string;
  file: string;
  bytes: number;
  shown_ms: number;
  longest_task_ms: number;
  tasks_over_50ms: number;
}

const LOG_LINES = 60_000;
const JSON_ITEMS = 36_000;

function largeText(kind: 'log' | 'json', changed: boolean): string {
  const lines = Array.from({ length: kind === 'log' ? LOG_LINES : JSON_ITEMS }, (_, i) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(40)}`);
  if (changed) {
    lines[100] = 'another change';
    lines[lines.length - 10] = 'the one line that changed';
  }
  return kind === 'json' ? JSON.stringify(lines.map((text, id) => ({ id, text })), null, 2) : `${lines.join('\n')}\n`;
}

function startServe(cli: string, home: string, dir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [cli, 'serve', '--workspace', dir, '--port', '0', '--no-watch'], { env: { ...process.env, CHRONOSCOPE_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before printing its URL`)));
    createInterface({ input: child.stdout! }).once('line', (url) => resolve({ url, child }));
  });
}

// Page-side code (the Node build has no DOM types).
declare const document: { querySelector(selector: string): { textContent: string | null } | null };
declare const window: { __longTasks: [number, number][] };
declare const performance: { now(): number };

const LONG_TASKS = `window.__longTasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });`;

async function once(browser: Browser, build: { name: string; cli: string }, kind: 'log' | 'json'): Promise<LargeFileResult> {
  const base = mkdtempSync(path.join(tmpdir(), 'chronoscope-bench-large-'));
  const home = path.join(base, 'home');
  const dir = path.join(base, 'project');
  mkdirSync(dir, { recursive: true });
  const file = kind === 'json' ? 'data.json' : 'big.log';
  const env = { ...process.env, CHRONOSCOPE_HOME: home };
  let serve: { url: string; child: ChildProcess } | null = null;
  try {
    for (const [i, changed] of [false, true].entries()) {
      writeFileSync(path.join(dir, file), largeText(kind, changed));
      writeFileSync(path.join(dir, 'a.ts'), `export const a = ${i};\n`);
      execFileSync(process.execPath, [build.cli, 'snapshot', '--workspace', dir, '--reason', `step ${i}`], { env, stdio: 'ignore' });
    }
    const bytes = largeText(kind, true).length;
    serve = await startServe(build.cli, home, dir);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(LONG_TASKS);
      await page.goto(serve.url);
      await page.waitForSelector('.monaco-diff-editor .view-line', { timeout: 60_000 });
      await page.getByTestId('file-list-item').filter({ hasText: file }).click();
      await page.waitForSelector('[data-testid="show-large"]', { timeout: 60_000 });
      await page.waitForTimeout(2000);
      await page.evaluate('window.__longTasks = []');
      const t0 = (await page.evaluate('performance.now()')) as number;
      await page.getByTestId('show-large').click();
      await page.waitForFunction(() => (document.querySelector('.monaco-diff-editor .modified .view-lines')?.textContent ?? '').includes('line'), null, { timeout: 60_000 });
      const shown = ((await page.evaluate('performance.now()')) as number) - t0;
      await page.waitForTimeout(3000);
      const tasks = ((await page.evaluate('window.__longTasks')) as [number, number][]).filter(([start]) => start >= t0 - 5);
      return { build: build.name, file, bytes, shown_ms: Math.round(shown), longest_task_ms: Math.round(Math.max(0, ...tasks.map(([, d]) => d))), tasks_over_50ms: tasks.length };
    } finally {
      await context.close();
    }
  } finally {
    if (serve) {
      const exited = new Promise((resolve) => serve!.child.once('exit', resolve));
      serve.child.kill('SIGINT');
      await exited;
    }
    rmSync(base, { recursive: true, force: true });
  }
}

/** Each build and file `runs` times, builds alternated so the machine's load falls on both alike. */
export async function runLargeFiles(browser: Browser, builds: { name: string; cli: string }[], runs: number): Promise<LargeFileResult[]> {
  const results: LargeFileResult[] = [];
  for (let r = 0; r < runs; r++) {
    for (const kind of ['log', 'json'] as const) {
      for (const build of builds) results.push(await once(browser, build, kind));
    }
  }
  return results;
}

export function largeFileTable(results: LargeFileResult[]): string {
  const rows = results.map((r) => `| ${r.build} | ${r.file} (${(r.bytes / 1e6).toFixed(1)} MB) | ${r.shown_ms} | ${r.longest_task_ms} | ${r.tasks_over_50ms} |`);
  return ['| build | file | click → changed line shown (ms) | longest task (ms) | tasks > 50 ms |', '|---|---|---|---|---|', ...rows].join('\n');
}
