// Hermes Agent's own /rollback checkpoints in the browser host: a lane of
// their own on the slider, marked in the list, a new one appearing live, and
// a restore of one through the two-step UI (our safety checkpoint first).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createHermesStore, storeFingerprint } from '../tests/agents/hermes-store.js';
import { artifact, expect, openApp, test, showStateBeforeRestore } from './fixtures.js';

test("Hermes' /rollback checkpoints show as their own lane, arrive live and restore", async ({ page, workspace, serve }) => {
  const hermes = createHermesStore(join(dirname(workspace.home), 'hermes-home'), workspace.dir);
  workspace.env['HERMES_HOME'] = hermes.home; // the CLI and the host read Hermes' home from here
  const now = Math.floor(Date.now() / 1000);

  await workspace.write('notes.txt', 'first line\n');
  hermes.take('before write_file', now - 600);
  await workspace.write('notes.txt', 'first line\nsecond line\n');
  await workspace.snapshot('our own checkpoint');
  await workspace.write('notes.txt', 'first line\nsecond line\nthird line by Hermes\n');
  hermes.take('before patch', now - 300);
  await workspace.snapshot('after the patch');

  const served = await serve(['--no-watch']);
  await openApp(page, served, 4);
  const lane = page.getByTestId('hermes-lane');
  await expect(lane).toBeVisible();
  await expect(lane.getByTestId('hermes-marker')).toHaveCount(2);
  const hermesRows = page.locator('[data-testid="checkpoint-item"]').filter({ has: page.getByTestId('hermes-badge') });
  await expect(hermesRows).toHaveCount(2);
  await expect(hermesRows.first()).toContainText('before patch');
  // Our own checkpoints stay on the main track, unmarked.
  await expect(page.getByTestId('checkpoint-item').filter({ hasText: 'our own checkpoint' }).getByTestId('hermes-badge')).toHaveCount(0);

  // Selecting one shows what it changed against Hermes' previous checkpoint.
  await hermesRows.filter({ hasText: 'before patch' }).click();
  await expect(page.getByTestId('timeline-readout')).toContainText('Hermes');
  await expect(page.getByTestId('file-list-item').filter({ hasText: 'notes.txt' })).toBeVisible();
  await page.screenshot({ path: artifact('hermes-lane.png') });

  // Hermes takes another while the page is open: it arrives without a reload.
  await workspace.write('notes.txt', 'rewritten by a Hermes terminal command\n');
  hermes.take('before terminal: npm test', now);
  await expect(lane.getByTestId('hermes-marker')).toHaveCount(3);
  await expect(hermesRows.first()).toContainText('before terminal: npm test');

  // Restore Hermes' first checkpoint: preview, then confirm; the safety checkpoint is ours.
  const before = storeFingerprint(hermes.home);
  await hermesRows.filter({ hasText: 'before write_file' }).click();
  await page.getByTestId('restore-button').click();
  await expect(page.getByTestId('restore-preview')).toContainText('notes.txt');
  expect(await readFile(join(workspace.dir, 'notes.txt'), 'utf8')).toBe('rewritten by a Hermes terminal command\n');
  await page.getByTestId('restore-confirm').click();
  await expect.poll(() => readFile(join(workspace.dir, 'notes.txt'), 'utf8')).toBe('first line\n');
  const safetyShort = ((await page.getByTestId('restore-safety-id').getAttribute('data-id')) ?? '').slice(0, 12);
  // Folded into the restore's row (ours, not Hermes'), and reached from it.
  await showStateBeforeRestore(page, safetyShort);
  await expect(page.getByTestId('safety-note')).toBeVisible();
  await expect(page.getByTestId('checkpoint-item').filter({ has: page.locator('.badge-restore') }).first().getByTestId('hermes-badge')).toHaveCount(0);
  expect(storeFingerprint(hermes.home)).toBe(before);
});
