// Undoing a one-file restore, as a person does it (issue 26, item 4): the
// banner's "Undo restore…" must ask to put back exactly that file, and do it,
// whatever the safety checkpoint's own diff lists — other files changed since
// stay as they are.
import { expect, openApp, test } from './fixtures.js';

test('Undo restore… after "Restore this file…": a confirm that names the file, then only that file goes back', async ({ page, workspace, serve }) => {
  await workspace.write('f.txt', 'f as first written\n');
  await workspace.write('g.txt', 'g as first written\n');
  await workspace.snapshot('first version');
  await workspace.write('f.txt', 'f as edited later\n');
  await workspace.snapshot('second version');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  // Restore f.txt alone from the older checkpoint.
  await page.getByTestId('checkpoint-item').filter({ hasText: 'first version' }).click();
  await page.getByTestId('file-list-item').filter({ hasText: 'f.txt' }).click();
  await expect(page.getByTestId('diff-file')).toHaveText('f.txt');
  await page.getByRole('button', { name: 'Restore this file…' }).click();
  await page.getByRole('button', { name: 'Confirm restore' }).click();
  await expect(page.getByTestId('restore-result')).toContainText('f.txt');
  await expect.poll(() => workspace.read('f.txt')).toBe('f as first written\n');

  // Another file changes on disk after the restore; then the person undoes it.
  await workspace.write('g.txt', 'g changed after the restore\n');
  await page.getByRole('button', { name: 'Undo restore…' }).click();
  const confirm = page.getByRole('button', { name: 'Confirm restore' });
  await expect(confirm).toBeVisible();
  const preview = page.getByTestId('restore-undo-preview');
  await expect(preview).toContainText('f.txt');
  await expect(preview).not.toContainText('g.txt');
  await confirm.click();

  await expect.poll(() => workspace.read('f.txt')).toBe('f as edited later\n');
  expect(await workspace.read('g.txt')).toBe('g changed after the restore\n');
  await expect(page.getByTestId('restore-result')).toContainText('f.txt');
});
