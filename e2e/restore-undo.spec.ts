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

test('one row per restore: a restore and its undo leave one row each, the state before stays reachable, the undo selects what it brought back', async ({ page, workspace, serve }) => {
  await workspace.write('notes.txt', 'first\n');
  await workspace.snapshot('first version');
  await workspace.write('notes.txt', 'second\n');
  await workspace.snapshot('second version');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);
  const rows = page.getByTestId('checkpoint-item');

  // Restore the whole workspace to the first version: one new row (its safety checkpoint folded in).
  await rows.filter({ hasText: 'first version' }).click();
  await page.getByTestId('restore-button').click();
  await page.getByTestId('restore-confirm').click();
  await expect(page.getByTestId('restore-result')).toBeVisible();
  await expect.poll(() => workspace.read('notes.txt')).toBe('first\n');
  await expect(rows).toHaveCount(3);
  const list = JSON.parse(await workspace.cli(['list', '--json'])) as { id: string; trigger: string }[];
  expect(list.map((c) => c.trigger)).toEqual(['restore', 'safety', 'manual', 'manual']);
  // No row is a bare safety checkpoint; the restore's row leads to it.
  await expect(rows.locator('.badge-safety')).toHaveCount(0);
  await rows.first().click();
  await expect(page.getByTestId('before-restore-note')).toBeVisible();
  await page.getByTestId('before-restore').click();
  await expect(page.getByTestId('safety-note')).toBeVisible();
  await expect(page.getByTestId('details-body')).toHaveAttribute('data-shows', list[1]!.id.slice(0, 8));
  // Selected, the state before is shown on its restore's row.
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');

  // Undo from the banner: one more row, and the selection is what the undo brought back (not an empty safety checkpoint).
  await page.getByRole('button', { name: 'Undo restore…' }).click();
  await page.getByRole('button', { name: 'Confirm restore' }).click();
  await expect.poll(() => workspace.read('notes.txt')).toBe('second\n');
  await expect(rows).toHaveCount(4);
  const after = JSON.parse(await workspace.cli(['list', '--json'])) as { id: string; trigger: string }[];
  expect(after.map((c) => c.trigger)).toEqual(['restore', 'safety', 'restore', 'safety', 'manual', 'manual']);
  await expect(page.getByTestId('details-body')).toHaveAttribute('data-shows', after[0]!.id.slice(0, 8));
  await expect(rows.first()).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('diff-area')).not.toContainText('Nothing changed');
  await expect(page.getByTestId('file-list-item').filter({ hasText: 'notes.txt' })).toHaveCount(1);
});
