// The settings dialog through the browser host, in a real Chromium: Save writes
// only the changed keys into the store's config.json on disk, Cancel and
// Escape write nothing, bad input is refused in the form, a refusal from the
// host is shown in one line, and the dialog keeps focus while it is open.
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { artifact, expect, openApp, test } from './fixtures.js';

type Json = Record<string, unknown>;

async function readConfig(home: string): Promise<Json | null> {
  try {
    return JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as Json;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

async function openSettings(page: Page) {
  await page.getByTestId('settings-button').click();
  const dialog = page.getByTestId('settings-dialog');
  await expect(dialog).toBeVisible();
  // The form replaces the skeleton once the host's settings arrived.
  await expect(dialog.getByTestId('settings-quiet_s')).toBeVisible();
  return dialog;
}

test('Save writes the changed quiet period into config.json; the dialog shows it next time', async ({ page, workspace, serve }) => {
  const served = await serve();
  await openApp(page, served);
  expect(await readConfig(workspace.home)).toBeNull();

  const dialog = await openSettings(page);
  await expect(dialog).toHaveAttribute('role', 'dialog');
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible();
  await expect(dialog.getByTestId('settings-quiet_s')).toHaveValue('1.5');
  await expect(dialog.getByTestId('settings-quiet_s')).toBeFocused();
  await page.screenshot({ path: artifact('settings.png') });

  await dialog.getByTestId('settings-quiet_s').fill('2.5');
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toHaveCount(0);
  // Focus goes back to the gear that opened the dialog.
  await expect(page.getByTestId('settings-button')).toBeFocused();

  await expect.poll(async () => (await readConfig(workspace.home))?.['watcher']).toEqual({ quiet_ms: 2500, max_wait_ms: 30_000 });
  const saved = await readConfig(workspace.home);
  expect(saved?.['max_file_mb']).toBe(50);
  expect(saved?.['include_credentials']).toBe(false);
  // Written whole, with its version: an unset limit is null (off), never an old default a later version would have to guess about.
  expect(saved?.['retention']).toEqual({ version: 2, max_checkpoints: null, max_age_days: null, max_store_mb: null });

  const again = await openSettings(page);
  await expect(again.getByTestId('settings-quiet_s')).toHaveValue('2.5');
  await page.emulateMedia({ colorScheme: 'dark' });
  await again.getByTestId('settings-include_credentials').check({ force: true });
  await expect(again.getByTestId('settings-credentials-warning')).toContainText('Secrets will be copied into the store');
  await page.screenshot({ path: artifact('settings-dark.png') });
});

test('Cancel and Escape change nothing on disk, and the next opening shows the saved values', async ({ page, workspace, serve }) => {
  const served = await serve();
  await openApp(page, served);

  // A first save, so there is a file whose bytes must stay the same.
  let dialog = await openSettings(page);
  await dialog.getByTestId('settings-max_checkpoints').fill('250');
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => ((await readConfig(workspace.home))?.['retention'] as Json | undefined)?.['max_checkpoints']).toBe(250);
  const file = join(workspace.home, 'config.json');
  const before = await readFile(file, 'utf8');
  const mtimeBefore = (await stat(file)).mtimeMs;

  dialog = await openSettings(page);
  await dialog.getByTestId('settings-quiet_s').fill('9');
  await dialog.getByTestId('settings-include_credentials').check({ force: true });
  await dialog.getByTestId('settings-extra_excludes').fill('build/\n*.tmp');
  await dialog.getByTestId('settings-cancel').click();
  await expect(dialog).toHaveCount(0);

  dialog = await openSettings(page);
  await expect(dialog.getByTestId('settings-quiet_s')).toHaveValue('1.5');
  await expect(dialog.getByTestId('settings-max_checkpoints')).toHaveValue('250');
  await expect(dialog.getByTestId('settings-include_credentials')).not.toBeChecked();
  await expect(dialog.getByTestId('settings-extra_excludes')).toHaveValue('');
  await dialog.getByTestId('settings-max_age_days').fill('3');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  expect(await readFile(file, 'utf8')).toBe(before);
  expect((await stat(file)).mtimeMs).toBe(mtimeBefore);
});

test('bad input is refused in the form with an inline error, and nothing is sent', async ({ page, workspace, serve }) => {
  const served = await serve();
  await openApp(page, served);
  const dialog = await openSettings(page);

  await dialog.getByTestId('settings-quiet_s').fill('0.01');
  await dialog.getByTestId('settings-max_checkpoints').fill('1.5');
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('settings-quiet_s')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('At least 0.1 s.')).toBeVisible();
  await expect(dialog.getByText('Enter a whole number.')).toBeVisible();
  // The first field in error takes focus so its message is read out.
  await expect(dialog.getByTestId('settings-quiet_s')).toBeFocused();
  expect(await readConfig(workspace.home)).toBeNull();

  // Fixing the field clears its error as it is typed.
  await dialog.getByTestId('settings-quiet_s').fill('0.1');
  await expect(dialog.getByText('At least 0.1 s.')).toHaveCount(0);
  await expect(dialog.getByTestId('settings-quiet_s')).not.toHaveAttribute('aria-invalid', 'true');
});

test("the host's refusal is shown in one line and the dialog stays open", async ({ page, workspace, serve }) => {
  const served = await serve();
  await openApp(page, served);
  // A directory where config.json belongs: the host cannot write the file.
  const file = join(workspace.home, 'config.json');
  await mkdir(file, { recursive: true });

  const dialog = await openSettings(page);
  await dialog.getByTestId('settings-hook_budget_s').fill('8');
  await dialog.getByTestId('settings-save').click();
  const error = dialog.getByTestId('settings-error');
  await expect(error).toBeVisible();
  await expect(error).toHaveAttribute('role', 'alert');
  expect((await error.innerText()).trim().split('\n')).toHaveLength(1);
  await expect(dialog.getByTestId('settings-hook_budget_s')).toHaveValue('8');

  // Once the way is clear, the same Save goes through.
  await rm(file, { recursive: true });
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => (await readConfig(workspace.home))?.['hook_budget_ms']).toBe(8000);
});

test('the dialog is modal: Tab wraps inside it and the app behind is inert', async ({ page, workspace, serve }) => {
  const served = await serve();
  await openApp(page, served);
  const dialog = await openSettings(page);

  await expect(page.locator('#root')).toHaveAttribute('inert', '');
  const close = dialog.getByRole('button', { name: 'Close settings' });
  const save = dialog.getByTestId('settings-save');

  await save.focus();
  await page.keyboard.press('Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(save).toBeFocused();

  await dialog.getByRole('button', { name: 'Close settings' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('#root')).not.toHaveAttribute('inert', '');
});

test("the verifier time limit, the background service and how often teammates' checkpoints are fetched are settings too", async ({ page, workspace, serve }) => {
  const served = await serve();
  await openApp(page, served);
  const dialog = await openSettings(page);
  await expect(dialog.getByTestId('settings-verify_timeout_s')).toHaveValue('600');
  await expect(dialog.getByTestId('settings-daemon')).toBeChecked();
  await expect(dialog.getByTestId('settings-daemon_idle_min')).toHaveValue('30');
  await dialog.getByTestId('settings-verify_timeout_s').fill('90');
  await dialog.getByText('Start the background service from hooks').click();
  await expect(dialog.getByTestId('settings-daemon')).not.toBeChecked();
  await expect(dialog).toContainText('Off: no background process');
  await dialog.getByTestId('settings-daemon_idle_min').fill('5');
  await expect(dialog.getByTestId('settings-share_pull_min')).toHaveValue('10');
  await dialog.getByTestId('settings-share_pull_min').fill('0');
  await dialog.getByTestId('settings-save').click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => await readConfig(workspace.home)).toMatchObject({ verify_timeout_s: 90, daemon: false, daemon_idle_minutes: 5, share_pull_minutes: 0 });
});

test("Settings shows the store's size, last compression and prune; Compact now compresses it", async ({ page, workspace, serve }) => {
  for (let i = 0; i < 5; i++) {
    await workspace.write(`f${i}.txt`, `version ${i}\n`.repeat(200));
    await workspace.snapshot(`step ${i}`);
  }
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  const dialog = await openSettings(page);
  const usage = dialog.getByTestId('store-usage');
  await expect(usage.getByTestId('store-size')).toHaveText(/^\d+(\.\d)? [KM]B$/);
  await expect(usage.getByTestId('store-last-upkeep')).toHaveText('not yet');
  await expect(usage.getByTestId('store-last-prune')).toHaveText('not yet');
  await usage.getByTestId('store-compact').click();
  await expect(usage.getByTestId('store-usage-message')).toHaveText(/^Compacted: \d+(\.\d)? [KM]B → \d+(\.\d)? [KM]B\.$/);
  await expect(usage.getByTestId('store-last-upkeep')).not.toHaveText('not yet');
  // One pack now: the compression really ran on the store on disk.
  const { readdirSync } = await import('node:fs');
  expect(readdirSync(join(workspace.home, 'git', 'objects', 'pack')).filter((n) => n.endsWith('.pack'))).toHaveLength(1);
  await page.screenshot({ path: artifact('settings-store.png') });
});

test('when retention removes checkpoints on its own, the page says so and the list follows', async ({ page, workspace, serve }) => {
  for (let i = 0; i < 6; i++) {
    await workspace.write(`f${i}.txt`, `version ${i}\n`);
    await workspace.snapshot(`step ${i}`);
  }
  await mkdir(workspace.home, { recursive: true });
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(workspace.home, 'config.json'), JSON.stringify({ retention: { max_checkpoints: 3, max_age_days: 0 } }));
  const served = await serve(['--no-watch']);
  await openApp(page, served, 6);
  // The service prunes once the workspace has been quiet a while (15 s): the person is told, not left to wonder.
  await expect(page.locator('.toast').filter({ hasText: 'Retention moved' })).toContainText('Retention moved 3 checkpoints to the trash', { timeout: 60_000 });
  await expect(page.locator('.toast').filter({ hasText: 'Retention moved' })).toContainText('The trash keeps them 14 days');
  await expect(page.getByTestId('checkpoint-item')).toHaveCount(3);
});
