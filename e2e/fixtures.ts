// What every e2e test starts from: a temporary store (CHRONOSCOPE_HOME) and a
// temporary workspace with files, checkpoints made through the REAL CLI
// process, and the REAL browser host (`chronoscope serve`) whose first stdout
// line is the URL to open. Everything is removed after the test.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test as base, expect, type Page } from '@playwright/test';

const run = promisify(execFile);

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const CLI = join(REPO_ROOT, 'dist', 'electron', 'cli', 'main.js');
export const ARTIFACTS = join(REPO_ROOT, 'e2e', 'artifacts');

export interface TempWorkspace {
  home: string;
  dir: string;
  env: NodeJS.ProcessEnv;
  write(path: string, text: string): Promise<void>;
  read(path: string): Promise<string>;
  /** Runs the real CLI; resolves with its stdout, rejects with its one-line stderr. */
  cli(args: string[]): Promise<string>;
  /** `chronoscope snapshot --workspace <dir> --reason <reason>` */
  snapshot(reason: string): Promise<void>;
}

export interface Served {
  url: string;
  origin: string;
  port: number;
  /** Lines the server printed after its URL. */
  log: string[];
  stop(): Promise<number | null>;
}

interface Fixtures {
  workspace: TempWorkspace;
  serve: (extraArgs?: string[]) => Promise<Served>;
}

function startServer(args: string[], env: NodeJS.ProcessEnv): Promise<{ served: Served; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const log: string[] = [];
  return new Promise((resolve, reject) => {
    let first = true;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (!first) {
        log.push(line);
        return;
      }
      first = false;
      const port = Number(new URL(line).port);
      const stop = async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
        return exited;
      };
      resolve({ served: { url: line, origin: `http://127.0.0.1:${port}`, port, log, stop }, child });
    });
    void exited.then((code) => {
      if (first) reject(new Error(`chronoscope serve exited (${code}) before printing its URL: ${stderr.trim()}`));
    });
  });
}

export const test = base.extend<Fixtures>({
  // Every spec's page: an uncaught error in it (a throw, a rejected promise nobody handled) fails the test,
  // whatever the test itself checked — a page that throws while it looks right is not right.
  // It depends on `serve` so that it is torn down first: the page is closed and checked while the
  // host still runs. Checked after the host stopped, a page still loading (Monaco's worker, a
  // reconnect) failed on the refused connection — the teardown's error, not the app's.
  page: async ({ page, serve }, use) => {
    void serve;
    const check = watchPageErrors(page);
    await use(page);
    await page.close();
    check();
  },

  workspace: async ({}, use) => {
    const base = await mkdtemp(join(tmpdir(), 'chronoscope-e2e-'));
    const home = join(base, 'home');
    const dir = join(base, 'project');
    await mkdir(dir, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, CHRONOSCOPE_HOME: home, NO_COLOR: '1' };
    const ws: TempWorkspace = {
      home,
      dir,
      env,
      async write(path, text) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      },
      read: (path) => readFile(join(dir, path), 'utf8'),
      async cli(args) {
        try {
          const { stdout } = await run(process.execPath, [CLI, ...args], { cwd: dir, env });
          return stdout;
        } catch (err) {
          const e = err as { stderr?: string; message: string };
          throw new Error(`chronoscope ${args.join(' ')}: ${(e.stderr ?? e.message).trim()}`);
        }
      },
      async snapshot(reason) {
        await ws.cli(['snapshot', '--workspace', dir, '--reason', reason]);
      },
    };
    await use(ws);
    await rm(base, { recursive: true, force: true });
  },

  serve: async ({ workspace }, use) => {
    const started: Served[] = [];
    await use(async (extraArgs = []) => {
      const { served } = await startServer(['--workspace', workspace.dir, '--port', '0', ...extraArgs], workspace.env);
      started.push(served);
      return served;
    });
    for (const s of started) {
      const code = await s.stop();
      // A host that cannot stop cleanly on Ctrl-C is a bug worth failing on.
      expect(code, `serve exit code; its log:\n${s.log.join('\n')}`).toBe(0);
    }
  },
});

export { expect };

/** Collects the page's uncaught errors; the returned check fails the test if there were any. */
export function watchPageErrors(page: Page): () => void {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.stack ?? err.message));
  return () => expect(errors, `uncaught errors in the page:\n${errors.join('\n\n')}`).toEqual([]);
}

/** Plain git, isolated from the machine's git config, as a person or an agent would run it. */
export function git(cwd: string, args: string[]): Promise<{ stdout: string }> {
  return run('git', args, {
    cwd,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'E2E',
      GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
      GIT_COMMITTER_NAME: 'E2E',
      GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
    },
  });
}

/** Three checkpoints of one evolving file (plus a second file), made through the CLI. */
export async function threeCheckpoints(ws: TempWorkspace): Promise<void> {
  await ws.write('notes.txt', 'first line\n');
  await ws.write('src/app.ts', 'export const version = 1;\n');
  await ws.snapshot('initial import');
  await ws.write('notes.txt', 'first line\nsecond line\n');
  await ws.snapshot('add a second line');
  await ws.write('notes.txt', 'first line\nsecond line, edited by the agent\nthird line\n');
  await ws.write('src/app.ts', 'export const version = 2;\n');
  await ws.snapshot('agent edits notes and bumps version');
}

/** Opens the served app and waits until the timeline shows `count` checkpoints. */
export async function openApp(page: Page, served: Served, count?: number): Promise<void> {
  await page.goto(served.url);
  if (count !== undefined) await expect(page.getByTestId('checkpoint-item')).toHaveCount(count);
}

/** In a narrow window the checkpoint list folds by itself (the diff takes the width): the toolbar's button shows it. */
export async function showCheckpointList(page: Page): Promise<void> {
  if (await page.locator('.checkpoint-pane').isVisible()) return;
  await page.getByTestId('fold-list').click();
  await expect(page.locator('.checkpoint-pane')).toBeVisible();
}

/** Monaco renders spaces as U+00A0 in its view lines. */
export function monacoText(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

export function artifact(name: string): string {
  return join(ARTIFACTS, name);
}

/**
 * A restore's safety checkpoint folds into the restore's row (lib/restore-rows.ts): not a row of its own,
 * reached from the restore's details ("Show the state before the restore"). Shows it, and checks the row stands for it.
 */
export async function showStateBeforeRestore(page: Page, safetyId: string): Promise<void> {
  const short = safetyId.slice(0, 8);
  await expect(page.locator(`[data-testid="checkpoint-item"][data-checkpoint-id^="${short}"]`)).toHaveCount(0);
  const restoreRow = page.getByTestId('checkpoint-item').filter({ has: page.locator('.badge-restore') }).first();
  await restoreRow.click();
  await page.getByTestId('before-restore').click();
  await expect(page.getByTestId('details-body')).toHaveAttribute('data-shows', short);
  await expect(restoreRow).toHaveAttribute('aria-selected', 'true');
}
