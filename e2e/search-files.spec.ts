// The checkpoint list's search box finds files (issue 26, item 5): people type
// the file they lost, not the reason it was changed under.
import { expect, openApp, test } from './fixtures.js';

test('typing a file name into the search box finds the checkpoint that changed it', async ({ page, workspace, serve }) => {
  await workspace.write('README.md', 'hello\n');
  await workspace.snapshot('initial import');
  await workspace.write('src/deep/target.txt', 'the file that went missing\n');
  await workspace.snapshot('agent tidies up');
  await workspace.write('README.md', 'hello again\n');
  await workspace.snapshot('docs');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);

  const search = page.getByTestId('filter-text');
  await search.fill('target.txt');
  const rows = page.getByTestId('checkpoint-item');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('agent tidies up');
  await expect(page.getByTestId('checkpoint-count')).toHaveText('1 of 3');
  // The box says it searches files.
  await expect(search).toHaveAttribute('placeholder', /files/);

  // Part of a path and a glob find it too; reason words still work.
  await search.fill('deep/targ');
  await expect(rows).toHaveCount(1);
  await search.fill('src/*/*.txt');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('agent tidies up');
  await search.fill('docs');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('docs');
});
