// Issue 42, counts agree everywhere: a folder of 6 files moved is "6 files
// +0 −0" in the checkpoint's row, the slider's readout, the file list, the
// diff and the CLI's `list` and `show`; a pure rename shows "Renamed, content
// identical" instead of two equal texts. The real CLI, host and browser.
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, openApp, test, type TempWorkspace } from './fixtures.js';

async function movedFolder(ws: TempWorkspace): Promise<void> {
  for (let i = 1; i <= 6; i++) {
    const lines = Array.from({ length: 20 }, (_, n) => `export const line${n} = 'module ${i}, line ${n}';`).join('\n');
    await ws.write(`src/old/module-${i}.ts`, `${lines}\n`);
  }
  await ws.snapshot('six modules');
  await rename(join(ws.dir, 'src/old'), join(ws.dir, 'src/new'));
  await ws.snapshot('move the folder');
}

test('a folder rename of 6 files is 6 files +0 −0 in the row, the readout, the file list, the diff, list and show', async ({ page, workspace, serve }) => {
  await movedFolder(workspace);
  // The CLI first: the stored stats (list) and the diff (show) say the same.
  const list = JSON.parse(await workspace.cli(['list', '-n', '1', '--json'])) as { id: string; stats: { files: number; insertions: number; deletions: number } }[];
  expect(list[0]!.stats).toEqual({ files: 6, insertions: 0, deletions: 0 });
  expect(await workspace.cli(['show', list[0]!.id])).toContain('6 files changed, 0 insertions, 0 deletions');

  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);
  const row = page.getByTestId('checkpoint-item').filter({ hasText: 'move the folder' });
  await expect(row.locator('.row-meta')).toContainText('6 files');
  await expect(row.locator('.row-meta')).toContainText('+0');
  await expect(row.locator('.row-meta')).toContainText('−0');
  await row.click();
  const readout = page.getByTestId('timeline-readout');
  await expect(readout.locator('.readout-files')).toHaveText('6 files');
  await expect(page.getByTestId('file-list-count')).toHaveText('6 changed files · 6 renames');
  const items = page.getByTestId('file-list-item');
  await expect(items).toHaveCount(6);
  for (const item of await items.all()) await expect(item).toHaveAttribute('data-status', 'R');
  // Each file: the words, not two equal texts side by side.
  await items.first().click();
  await expect(page.getByTestId('pure-rename')).toContainText('Renamed, content identical');
  await expect(page.getByTestId('pure-rename')).toContainText('src/old/module-1.ts → src/new/module-1.ts');
  await expect(page.locator('.monaco-diff-editor')).toBeHidden();
});

test('a rename with an edit shows its line changes, counted once', async ({ page, workspace, serve }) => {
  await workspace.write('src/one.ts', Array.from({ length: 20 }, (_, n) => `export const a${n} = ${n};`).join('\n') + '\n');
  await workspace.snapshot('one file');
  await rename(join(workspace.dir, 'src/one.ts'), join(workspace.dir, 'src/two.ts'));
  await workspace.write('src/two.ts', `// moved\n${Array.from({ length: 20 }, (_, n) => `export const a${n} = ${n};`).join('\n')}\n`);
  await workspace.snapshot('move and edit');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);
  const row = page.getByTestId('checkpoint-item').filter({ hasText: 'move and edit' });
  await expect(row.locator('.row-meta')).toContainText('1 file');
  await expect(row.locator('.row-meta')).toContainText('+1');
  await row.click();
  await expect(page.getByTestId('file-list-count')).toHaveText('1 changed file · 1 rename');
  await expect(page.getByTestId('pure-rename')).toHaveCount(0);
  await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines:not(.line-delete)').first()).toContainText('// moved', { timeout: 60_000 });
});
