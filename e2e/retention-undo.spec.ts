// Retention's removals can be taken back from the app, in a real Chromium
// through the browser host: the notice after an automatic pass has Undo (and,
// about more than a handful of checkpoints, stays until dismissed), and
// Settings › Retention › Recently removed lists each prune with Undo.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { artifact, expect, openApp, test } from './fixtures.js';

test('the notice after an automatic pass has Undo; Recently removed brings back a prune made by hand', async ({ page, workspace, serve }) => {
  test.setTimeout(360_000); // twelve CLI snapshots, then the service's quiet wait, on a loaded machine
  for (let i = 0; i < 12; i++) {
    await workspace.write(`f${i}.txt`, `version ${i}\n`);
    await workspace.snapshot(`step ${i}`);
  }
  await mkdir(workspace.home, { recursive: true });
  // The person's own count limit (a group written by this version: it carries its version).
  await writeFile(join(workspace.home, 'config.json'), JSON.stringify({ retention: { version: 2, max_checkpoints: 3 } }));
  const served = await serve(['--no-watch']);
  await openApp(page, served, 12);

  // The service prunes once the workspace has been quiet a while (15 s).
  const notice = page.locator('.toast').filter({ hasText: 'Retention moved' });
  await expect(notice).toContainText('Retention moved 9 checkpoints to the trash', { timeout: 180_000 });
  await expect(page.getByTestId('checkpoint-item')).toHaveCount(3);
  // Nine is more than a handful: the notice outlives the 12 s a short one gets.
  await page.waitForTimeout(14_000);
  await expect(notice).toBeVisible();
  await page.screenshot({ path: artifact('retention-notice.png') });

  await notice.getByTestId('toast-action').click();
  await expect(page.getByTestId('checkpoint-item')).toHaveCount(12);
  await expect(notice).toHaveCount(0);

  // A prune by hand (the CLI) goes into the trash too; Settings lists it with Undo.
  await workspace.cli(['prune', '--yes', '--workspace', workspace.dir]);
  await page.getByTestId('settings-button').click();
  const dialog = page.getByTestId('settings-dialog');
  const entry = dialog.getByTestId('recently-removed-entry');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('9 checkpoints pruned by hand');
  await expect(entry).toContainText('9 past your count limit');
  await entry.scrollIntoViewIfNeeded();
  await page.screenshot({ path: artifact('recently-removed.png') });
  await entry.getByTestId('recently-removed-undo').click();
  await expect(dialog.getByTestId('recently-removed-message')).toHaveText('Brought back 9 checkpoints.');
  await expect(dialog.getByTestId('recently-removed-empty')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('checkpoint-item')).toHaveCount(12);
});
