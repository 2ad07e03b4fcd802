// The same key flows against the Electron app (Playwright's Electron support),
// where Electron's binary is installed; skipped with the reason printed where
// it is not (these machines cannot download it: the browser host covers them).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { artifact, expect, monacoText, REPO_ROOT, test, threeCheckpoints, watchPageErrors, showStateBeforeRestore } from './fixtures.js';

function electronBinary(): string | null {
  const dir = join(REPO_ROOT, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

function skipReason(): string | null {
  if (!electronBinary()) {
    return 'Electron binary not installed: node_modules/electron/dist is missing (`node scripts/start-electron.mjs --install-only` fetches it where the network allows)';
  }
  if (process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY']) {
    return 'no display for Electron\'s window: run the suite under xvfb-run';
  }
  if (!existsSync(join(REPO_ROOT, 'dist', 'electron', 'shell', 'preload.cjs'))) return 'the Electron shell is not built: run `npm run build`';
  return null;
}

const reason = skipReason();
if (reason) console.log(`electron.spec.ts skipped: ${reason}`);
test.skip(reason !== null, reason ?? '');

const appArgs = [REPO_ROOT, ...(process.platform === 'linux' ? ['--no-sandbox', '--disable-gpu'] : [])];

async function launch(home: string): Promise<{ app: ElectronApplication; page: Page }> {
  const app = await electron.launch({
    executablePath: electronBinary() ?? undefined,
    args: appArgs,
    env: { ...process.env, CHRONOSCOPE_HOME: home } as Record<string, string>,
  });
  const page = await app.firstWindow();
  // The same rule as every other spec's page (fixtures.ts): an uncaught error in the window fails the test.
  // Checked when the test closes the app (every test does, in its finally).
  const check = watchPageErrors(page);
  const close = app.close.bind(app);
  app.close = async () => {
    await close();
    check();
  };
  return { app, page };
}

/** The native folder dialog cannot be driven: answer it from the main process. */
async function answerFolderDialog(app: ElectronApplication, dir: string): Promise<void> {
  await app.evaluate(({ dialog }, folder) => {
    dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [folder] })) as typeof dialog.showOpenDialog;
  }, dir);
}

/** The renderer's start-up calls (made while the page loads) were answered: no error in the sidebar or banners. */
async function expectStartedClean(page: Page): Promise<void> {
  await expect(page.getByTestId('workspace-add')).toBeVisible();
  await expect(page.locator('.sidebar-note.error-text')).toHaveCount(0);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
}

test('Electron: add a workspace, see its 3 checkpoints, scrub, diff, restore in two steps, live updates', async ({ workspace }) => {
  await threeCheckpoints(workspace);
  const { app, page } = await launch(workspace.home);
  try {
    // The window is sandboxed and isolated: the page has the preload's API and no Node.
    expect(await page.evaluate(() => typeof (window as unknown as { chronoscope?: unknown }).chronoscope)).toBe('object');
    expect(await page.evaluate(() => typeof (globalThis as unknown as { require?: unknown }).require)).toBe('undefined');

    await expectStartedClean(page);
    // In Electron the sidebar's button opens the native folder dialog.
    await answerFolderDialog(app, workspace.dir);
    await page.getByTestId('workspace-add').click();
    const items = page.getByTestId('checkpoint-item');
    await expect(items).toHaveCount(3);
    await page.screenshot({ path: artifact('electron-timeline.png') });

    // Keyboard scrubbing.
    const selected = page.locator('[data-testid="checkpoint-item"][aria-selected="true"]');
    await page.getByTestId('timeline-slider').focus();
    await page.keyboard.press('End');
    await expect(selected).toContainText('agent edits notes and bumps version');
    await page.keyboard.press('ArrowLeft');
    await expect(selected).toContainText('add a second line');

    // Monaco diff of the latest checkpoint.
    await items.filter({ hasText: 'agent edits notes and bumps version' }).click();
    await page.getByTestId('file-list-item').filter({ hasText: 'notes.txt' }).click();
    const modified = page.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)');
    await expect.poll(async () => monacoText(await modified.innerText())).toContain('second line, edited by the agent');

    // Two-step restore, checked on disk.
    await items.filter({ hasText: 'initial import' }).click();
    await page.getByTestId('restore-button').click();
    await expect(page.getByTestId('restore-preview')).toBeVisible();
    expect(await workspace.read('notes.txt')).toBe('first line\nsecond line, edited by the agent\nthird line\n');
    await page.getByTestId('restore-confirm').click();
    await expect.poll(() => readFile(join(workspace.dir, 'notes.txt'), 'utf8')).toBe('first line\n');
    // The checkpoint that undoes the restore is on the timeline (with the watcher on, the
    // state before was already checkpointed, so it may be the latest rather than a new one).
    const safetyShort = ((await page.getByTestId('restore-safety-id').getAttribute('data-id')) ?? '').slice(0, 12);
    // A new safety checkpoint folds into its restore's row; an existing one the restore reused keeps its own.
    const own = page.locator(`[data-testid="checkpoint-item"][data-checkpoint-id^="${safetyShort.slice(0, 8)}"]`);
    if ((await own.count()) === 0) await showStateBeforeRestore(page, safetyShort);

    // A checkpoint from the CLI appears live.
    await workspace.write('notes.txt', 'rewritten outside the app\n');
    await workspace.snapshot('taken outside the app');
    await expect(items.filter({ hasText: 'taken outside the app' })).toHaveCount(1);
    await page.screenshot({ path: artifact('electron-after-restore.png') });
  } finally {
    await app.close();
  }
});

test('Electron: a workspace added from the File menu appears in the open window; a second launch focuses it', async ({ workspace }) => {
  await threeCheckpoints(workspace);
  const { app, page } = await launch(workspace.home);
  try {
    await expectStartedClean(page);
    await answerFolderDialog(app, workspace.dir);
    await app.evaluate(({ Menu }) => {
      const file = Menu.getApplicationMenu()?.items.find((item) => item.label === 'File');
      file?.submenu?.items.find((item) => item.label === 'Add Workspace…')?.click();
    });
    await expect(page.getByTestId('checkpoint-item')).toHaveCount(3);

    // A second launch hands over to this instance and exits; no second window.
    const second = await electron.launch({
      executablePath: electronBinary() ?? undefined,
      args: appArgs,
      env: { ...process.env, CHRONOSCOPE_HOME: workspace.home } as Record<string, string>,
    }).catch(() => null); // it may exit before Playwright connects: that is the point
    await second?.close().catch(() => undefined);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  } finally {
    await app.close();
  }
});
