// The app through the browser host, in a real Chromium: the timeline, the
// keyboard scrubbing, the Monaco diff, the two-step restore checked on disk,
// live checkpoints from the CLI, and the WebSocket's refusal without a token.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import WebSocket from 'ws';
import { artifact, expect, monacoText, openApp, test, threeCheckpoints, showStateBeforeRestore } from './fixtures.js';

test('a workspace with 3 checkpoints made through the CLI shows 3 on the timeline', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const served = await serve();
  await openApp(page, served, 3);
  await expect(page.getByTestId('timeline-slider')).toBeVisible();
  await expect(page.getByTestId('checkpoint-item').filter({ hasText: 'initial import' })).toHaveCount(1);
  await expect(page.getByTestId('checkpoint-item').filter({ hasText: 'agent edits notes and bumps version' })).toHaveCount(1);
  // Let the diff of the selected checkpoint render so the screenshot shows the working screen.
  await expect(page.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)')).toBeVisible();
  await page.screenshot({ path: artifact('timeline.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: artifact('timeline-dark.png') });
});

test('scrubbing with the keyboard changes the details shown', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const served = await serve();
  await openApp(page, served, 3);
  const slider = page.getByTestId('timeline-slider');
  const readout = page.getByTestId('timeline-readout');
  const selected = page.locator('[data-testid="checkpoint-item"][aria-selected="true"]');

  await slider.focus();
  await page.keyboard.press('End');
  await expect(selected).toContainText('agent edits notes and bumps version');
  const before = await readout.innerText();

  await page.keyboard.press('ArrowLeft');
  await expect(selected).toContainText('add a second line');
  await expect(readout).not.toHaveText(before);
  await expect(readout).toContainText('add a second line');

  await page.keyboard.press('Home');
  await expect(selected).toContainText('initial import');
  await expect(readout).toContainText('initial import');
});

test('selecting a changed file shows the old and the new text in the Monaco diff', async ({ page, workspace, serve }) => {
  // Monaco under the host's strict CSP: nothing it needs may be blocked.
  const problems: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  await threeCheckpoints(workspace);
  const served = await serve();
  await openApp(page, served, 3);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'agent edits notes and bumps version' }).click();
  await expect(page.getByTestId('diff-mode-toggle')).toHaveAttribute('data-value', 'previous');

  await page.getByTestId('file-list-item').filter({ hasText: 'notes.txt' }).click();
  const diff = page.getByTestId('diff-view');
  const original = diff.locator('.monaco-diff-editor .original .view-lines');
  const modified = diff.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)');
  await expect(original).toBeVisible();
  await expect.poll(async () => monacoText(await original.innerText())).toContain('second line');
  await expect.poll(async () => monacoText(await modified.innerText())).toContain('second line, edited by the agent');
  await expect.poll(async () => monacoText(await modified.innerText())).toContain('third line');
  expect(monacoText(await original.innerText())).not.toContain('third line');
  await page.screenshot({ path: artifact('diff.png') });

  // The other changed file switches the diff.
  await page.getByTestId('file-list-item').filter({ hasText: 'app.ts' }).click();
  await expect.poll(async () => monacoText(await original.innerText())).toContain('version = 1');
  await expect.poll(async () => monacoText(await modified.innerText())).toContain('version = 2');
  expect(problems).toEqual([]);
});

test('restore: the first click previews and writes nothing; the second restores; the safety checkpoint appears', async ({
  page,
  workspace,
  serve,
}) => {
  await threeCheckpoints(workspace);
  // Work on disk that no checkpoint holds yet: the restore must keep it in a safety checkpoint.
  // (Without --no-watch the watcher's start-up scan would take it as an auto-checkpoint first.)
  await workspace.write('notes.txt', 'unsaved work in progress\n');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  const notes = join(workspace.dir, 'notes.txt');
  const app = join(workspace.dir, 'src/app.ts');

  await page.getByTestId('checkpoint-item').filter({ hasText: 'initial import' }).click();
  await page.getByTestId('restore-button').click();
  const preview = page.getByTestId('restore-preview');
  await expect(preview).toBeVisible();
  await expect(preview).toContainText('notes.txt');
  await expect(page.getByTestId('restore-confirm')).toBeEnabled();
  await page.screenshot({ path: artifact('restore-preview.png') });
  // Armed, previewed — and nothing on disk has changed.
  expect(await readFile(notes, 'utf8')).toBe('unsaved work in progress\n');
  expect(await readFile(app, 'utf8')).toBe('export const version = 2;\n');

  await page.getByTestId('restore-confirm').click();
  await expect.poll(() => readFile(notes, 'utf8')).toBe('first line\n');
  expect(await readFile(app, 'utf8')).toBe('export const version = 1;\n');

  // The safety checkpoint the result names is reached from the restore's row (one row per restore), and holds the unsaved work.
  const safetyShort = ((await page.getByTestId('restore-safety-id').getAttribute('data-id')) ?? '').slice(0, 12);
  await expect.poll(() => page.getByTestId('checkpoint-item').count()).toBeGreaterThanOrEqual(4);
  await showStateBeforeRestore(page, safetyShort);
  await expect(page.getByTestId('safety-note')).toBeVisible();
  const held = await workspace.cli(['diff', safetyShort, '--file', 'notes.txt', '--json', '--workspace', workspace.dir]);
  expect(held).toContain('unsaved work in progress');
  await page.screenshot({ path: artifact('restore-done.png') });
});

test('a checkpoint taken by the CLI while the page is open appears live, without a reload', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  // No watcher: only the live feed of checkpoints taken elsewhere can bring it onto the page.
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  // A reload would lose this marker.
  await page.evaluate(() => ((window as unknown as { e2eMarker: string }).e2eMarker = 'still the same page'));

  await workspace.write('notes.txt', 'rewritten outside the app\n');
  await workspace.snapshot('taken outside the app');

  const items = page.getByTestId('checkpoint-item');
  await expect(items.filter({ hasText: 'taken outside the app' })).toHaveCount(1);
  expect(await items.count()).toBeGreaterThanOrEqual(4);
  expect(await page.evaluate(() => (window as unknown as { e2eMarker?: string }).e2eMarker)).toBe('still the same page');
});

test('the WebSocket refuses a connection without the token', async ({ browser, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const served = await serve();
  const wsUrl = `ws://127.0.0.1:${served.port}/ws`;

  // A fresh browser context: no session cookie. The page itself is refused...
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(`${served.origin}/`);
  expect(response?.status()).toBe(403);
  // ...and so is a socket opened from that origin without the token.
  const outcome = await page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(url);
        socket.onopen = () => resolve('open');
        socket.onerror = () => resolve('refused');
      }),
    wsUrl,
  );
  expect(outcome).toBe('refused');
  // With the token from the printed URL, the same socket opens: the refusal was the token's doing.
  const token = new URL(served.url).searchParams.get('token');
  const withToken = await page.evaluate(
    (url) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(url);
        socket.onopen = () => {
          resolve('open');
          socket.close();
        };
        socket.onerror = () => resolve('refused');
      }),
    `${wsUrl}?token=${token}`,
  );
  expect(withToken).toBe('open');
  await context.close();

  // A non-browser client is refused too, with a 403 at the upgrade.
  const status = await new Promise<number>((resolve, reject) => {
    const socket = new WebSocket(wsUrl, { headers: { Origin: served.origin } });
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => reject(new Error('a socket without token was accepted')));
    socket.on('error', () => undefined);
  });
  expect(status).toBe(403);
});
