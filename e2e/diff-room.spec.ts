// Issue 42, room to read: the diff gets the window's width (columns measured
// with a 120-column file at three window sizes in both themes), its editor
// fills its host on a first run, and the flows that used to throw in the page
// do not. Through the real CLI, the real browser host and a real Chromium.
import type { Page } from '@playwright/test';
import { artifact, expect, openApp, test, threeCheckpoints, type TempWorkspace } from './fixtures.js';

/** A line of exactly `n` characters: a readable prefix, then digits that say which column ends where. */
function lineOf(n: number, tag: string): string {
  let s = `const ${tag} = "`;
  while (s.length < n - 2) s += String((s.length + 1) % 10);
  return `${s}";`;
}

/**
 * A file whose lines are 120 columns wide, in three checkpoints: added with a small file, both edited
 * (the file list stays beside the diff), then only the wide one edited (the newest: one changed file).
 */
async function wideFile(ws: TempWorkspace): Promise<void> {
  const lines = (tag: string) => Array.from({ length: 60 }, (_, i) => lineOf(120, `${tag}${String(i).padStart(2, '0')}`)).join('\n') + '\n';
  await ws.write('src/wide.ts', lines('a'));
  await ws.write('src/small.ts', 'export const small = 1;\n');
  await ws.snapshot('wide file');
  await ws.write('src/wide.ts', lines('b'));
  await ws.write('src/small.ts', 'export const small = 2;\n');
  await ws.snapshot('two files edited');
  await ws.write('src/wide.ts', lines('c'));
  await ws.snapshot('one file edited');
}

interface DiffRoom {
  sideBySide: boolean;
  /** Columns of code visible in the modified side (the one that shows when inline). */
  columns: number;
  /** Lines of the modified side visible. */
  lines: number;
  hostHeight: number;
  editorHeight: number;
}

/** What the diff editor shows now: measured from Monaco's own DOM (its text area's width over a character's). */
async function measureDiff(page: Page): Promise<DiffRoom> {
  await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines').first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('diff-view')).toHaveAttribute('data-preview', 'false', { timeout: 60_000 });
  return page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('.monaco-diff-editor')!;
    const modified = root.querySelector<HTMLElement>('.editor.modified')!;
    // Monaco's own mark of its split view (it switches to inline by itself below our breakpoint).
    const sideBySide = root.classList.contains('side-by-side');
    // The scrollable text area of the modified editor, and one character's width in its font.
    const lines = modified.querySelector<HTMLElement>('.lines-content')!.parentElement!;
    const probe = document.createElement('span');
    const line = modified.querySelector<HTMLElement>('.view-line')!;
    probe.style.font = getComputedStyle(line).font;
    probe.style.position = 'absolute';
    probe.style.whiteSpace = 'pre';
    probe.textContent = '0'.repeat(100);
    document.body.append(probe);
    const charWidth = probe.getBoundingClientRect().width / 100;
    probe.remove();
    const lineHeight = line.getBoundingClientRect().height;
    const host = root.closest<HTMLElement>('.monaco-host')!;
    const text = lines.getBoundingClientRect();
    return {
      sideBySide,
      columns: Math.floor(text.width / charWidth),
      lines: Math.floor(text.height / lineHeight),
      hostHeight: host.getBoundingClientRect().height,
      editorHeight: root.getBoundingClientRect().height,
    };
  });
}

/** The diff on screen is what a restore does: the disk now (`removes`) → the checkpoint (`keeps`), under the restore's strip. */
async function expectRestoreDiff(page: Page, keeps: string, removes: string): Promise<void> {
  await expect(page.getByTestId('restore-diff-strip')).toBeVisible();
  await expect(page.getByTestId('diff-view')).toHaveAttribute('data-reverse', 'true');
  const modified = page.locator('.monaco-diff-editor .editor.modified').first();
  // The editor's own lines (a direct child of its content), not the deleted lines drawn in its view zones.
  await expect(modified.locator('.lines-content > .view-lines')).toContainText(keeps, { timeout: 60_000 });
  await expect(modified.locator('.lines-content > .view-lines')).not.toContainText(removes);
  const inline = !(await page.locator('.monaco-diff-editor').first().evaluate((el) => el.classList.contains('side-by-side')));
  // What the restore removes: inline, the deleted lines drawn in the modified editor's view zones; split, the left side.
  const removed = inline ? modified.locator('.view-zones') : page.locator('.monaco-diff-editor .editor.original .lines-content > .view-lines');
  await expect(removed).toContainText(removes);
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
] as const;

for (const scheme of ['light', 'dark'] as const) {
  test(`the diff gets the room: ≥ 100 columns inline or ≥ 80 per side, at three window sizes (${scheme} theme)`, async ({ page, workspace, serve }) => {
    // Six measures of a cold Monaco at three sizes: a limit for a loaded machine, not a claim about speed.
    test.setTimeout(360_000);
    await wideFile(workspace);
    const served = await serve(['--no-watch']);
    await page.emulateMedia({ colorScheme: scheme });
    const check = (room: DiffRoom, label: string) => {
      const text = `${label}: ${JSON.stringify(room)}`;
      // The figures docs/design.md quotes ("Room for the diff").
      console.log(`${scheme} ${text}`);
      if (room.sideBySide) expect(room.columns, text).toBeGreaterThanOrEqual(80);
      else expect(room.columns, text).toBeGreaterThanOrEqual(100);
      // The editor fills its host (not a sliver inside it).
      expect(Math.abs(room.editorHeight - room.hostHeight), text).toBeLessThan(2);
    };
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await openApp(page, served, 3);
      // The newest checkpoint changed one file: its list is one line.
      await expect(page.locator('.details-body')).toHaveClass(/single-file/);
      const one = await measureDiff(page);
      await page.screenshot({ path: artifact(`diff-room-${size.width}x${size.height}-${scheme}.png`) });
      check(one, `${size.width}×${size.height}, one file`);
      if (size.width === 900) expect(one.lines, `900×700: ${JSON.stringify(one)}`).toBeGreaterThanOrEqual(20);
      // Two changed files: the file list beside the diff (above it below 1400 px).
      const row = page.getByTestId('checkpoint-item').filter({ hasText: 'two files edited' });
      // The checkpoint list folds by itself in a narrow window: there the slider steps back instead.
      if (await row.isVisible()) await row.click();
      else await page.locator('#timeline [role="slider"]').first().press('ArrowLeft');
      await expect(page.getByTestId('file-list-item')).toHaveCount(2);
      await page.getByTestId('file-list-item').filter({ hasText: 'wide.ts' }).click();
      check(await measureDiff(page), `${size.width}×${size.height}, two files`);
      await page.screenshot({ path: artifact(`diff-room-${size.width}x${size.height}-${scheme}-two-files.png`) });
    }
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`900×700, a checkpoint that changed two files: the diff gets at least 20 lines (${scheme} theme)`, async ({ page, workspace, serve }) => {
    await wideFile(workspace);
    const served = await serve(['--no-watch']);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 900, height: 700 });
    await openApp(page, served, 3);
    // The checkpoint list folds by itself at this width: the slider steps back to the two-file checkpoint.
    await page.locator('#timeline [role="slider"]').first().press('ArrowLeft');
    await expect(page.getByTestId('file-list-item')).toHaveCount(2);
    await page.getByTestId('file-list-item').filter({ hasText: 'wide.ts' }).click();
    const room = await measureDiff(page);
    console.log(`${scheme} 900×700, two files: ${JSON.stringify(room)}`);
    await page.screenshot({ path: artifact(`diff-room-900x700-${scheme}-two-files-lines.png`) });
    expect(room.lines, JSON.stringify(room)).toBeGreaterThanOrEqual(20);
    // Both names stay reachable: the other file is one click away.
    await page.getByTestId('file-list-item').filter({ hasText: 'small.ts' }).click();
    await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines:not(.line-delete)').first()).toContainText('small = 2', { timeout: 60_000 });
  });
}

test('a first run: a workspace with no history, a checkpoint arrives, the diff fills its pane', async ({ page, workspace, serve }) => {
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await workspace.write('notes.txt', 'one\ntwo\n');
  await workspace.snapshot('first files');
  await expect(page.getByTestId('checkpoint-item').filter({ hasText: 'first files' })).toHaveCount(1);
  await workspace.write('notes.txt', 'one\ntwo, edited\nthree\n');
  await workspace.snapshot('an edit');
  await page.getByTestId('checkpoint-item').filter({ hasText: 'an edit' }).click();
  const room = await measureDiff(page);
  expect(room.hostHeight).toBeGreaterThan(100);
  expect(Math.abs(room.editorHeight - room.hostHeight), JSON.stringify(room)).toBeLessThan(2);
});

test('a restore in two steps, then a snapshot from the CLI: no error in the page (the diff models outlive their diff)', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'initial import' }).click();
  await page.getByTestId('restore-button').click();
  const confirm = page.getByTestId('restore-confirm');
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByTestId('restore-result')).toBeVisible();
  await expect.poll(() => workspace.read('notes.txt')).toBe('first line\n');
  await workspace.write('notes.txt', 'first line\nafter the restore\n');
  await workspace.snapshot('after the restore');
  await expect(page.getByTestId('checkpoint-item').filter({ hasText: 'after the restore' })).toHaveCount(1);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'after the restore' }).click();
  await expect(page.locator('.monaco-diff-editor .editor.modified .view-lines').first()).toContainText('after the restore', { timeout: 60_000 });
  // The page-error check itself is the fixture's (fixtures.ts), after the test.
});

test('the restore preview shows what the restore does, file by file, and why Confirm waits; Cancel whole at 1300 px', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  // Edited on disk after the last checkpoint: the restore overwrites this, so the preview must show it.
  await workspace.write('notes.txt', 'edited on disk, not checkpointed\n');
  await page.setViewportSize({ width: 1300, height: 800 });
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'initial import' }).click();
  await page.getByTestId('restore-button').click();
  await expect(page.getByTestId('restore-preview')).toBeVisible();

  // The file list and the diff below are the restore's: from the disk now to the checkpoint.
  await expect(page.getByTestId('file-list-count')).toHaveText('The restore changes 2 files');
  await page.getByTestId('file-list-item').filter({ hasText: 'notes.txt' }).click();
  await expectRestoreDiff(page, 'first line', 'edited on disk');

  // Confirm's reason is written beside it while it waits, and Cancel is whole.
  const confirm = page.getByTestId('restore-confirm');
  if (await confirm.isDisabled()) await expect(page.getByTestId('restore-confirm-reason')).toBeVisible();
  const cancel = page.getByTestId('restore-confirm-cancel');
  await expect(cancel).toBeVisible();
  const whole = await cancel.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || r.right > window.innerWidth) return false;
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowX === 'visible') continue;
      const b = p.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1) return false;
    }
    return true;
  });
  expect(whole, 'Cancel is drawn whole').toBe(true);
  await page.screenshot({ path: artifact('restore-preview-1300.png') });
  await cancel.click();
  await expect(page.getByTestId('restore-diff-strip')).toHaveCount(0);
});

test('restore this file: the diff below is what the restore does to that file (disk now → checkpoint), and why Confirm waits is written', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  await workspace.write('notes.txt', 'edited on disk, not checkpointed\n');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'add a second line' }).click();
  await page.getByTestId('file-list-item').filter({ hasText: 'notes.txt' }).click();
  // Before arming: the checkpoint's own change (its previous → it).
  await expect(page.getByTestId('diff-view')).toHaveAttribute('data-reverse', 'false');
  await page.getByTestId('restore-file-button').click();
  await expect(page.getByTestId('restore-file-preview')).toBeVisible();
  await expect(page.getByTestId('diff-view')).toHaveAttribute('data-to', 'workspace');
  await expectRestoreDiff(page, 'second line', 'edited on disk');
  // Confirm's reason beside it whenever it waits; once enabled, none is needed.
  const confirm = page.getByTestId('restore-file-confirm');
  await expect.poll(async () => (await confirm.isEnabled()) || (await page.getByTestId('restore-file-confirm-reason').isVisible())).toBe(true);
  await page.screenshot({ path: artifact('restore-file-preview.png') });
  // Cancelled: the checkpoint's own change again.
  await page.getByTestId('restore-file-confirm-cancel').click();
  await expect(page.getByTestId('diff-view')).toHaveAttribute('data-reverse', 'false');
  await expect(page.getByTestId('restore-diff-strip')).toHaveCount(0);
});

test('a diff editor created while its pane has no height yet fills the pane once it grows (the 5 px diff)', async ({ page, workspace, serve }) => {
  await workspace.write('notes.txt', 'one\ntwo\n');
  await workspace.snapshot('first files');
  await workspace.write('notes.txt', 'one\ntwo, edited\nthree\n');
  await workspace.snapshot('an edit');
  // So short a window that the lines above the diff take all of it: the editor is created in a pane 0 px tall.
  await page.setViewportSize({ width: 1440, height: 260 });
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);
  await expect(page.locator('.monaco-diff-editor')).toBeAttached({ timeout: 60_000 });
  await expect(page.getByTestId('change-count')).toBeAttached({ timeout: 60_000 });
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect.poll(async () => {
    const room = await measureDiff(page);
    return room.hostHeight > 100 && Math.abs(room.editorHeight - room.hostHeight) < 2;
  }).toBe(true);
});
