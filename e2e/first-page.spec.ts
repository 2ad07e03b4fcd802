// The first page after `serve` starts never says a workspace is empty before
// its list has arrived (issue 31): a MutationObserver installed before the
// app's first script watches every text the page ever shows, from the first
// paint until the list is in.
import { expect, openApp, test } from './fixtures.js';
import { seedHistory } from '../dist/scripts/bench-ui/seed-history.js';

const COUNT = 2000;

test('a workspace with checkpoints is never shown as empty while its list loads', async ({ page, workspace, serve }) => {
  await seedHistory({ home: workspace.home, dir: workspace.dir, count: COUNT, files: 24, endMs: Date.now() - 3_600_000 });
  const served = await serve(['--no-watch']);
  await page.addInitScript(() => {
    const w = window as unknown as { __falseEmpty: string[] };
    w.__falseEmpty = [];
    const look = (): void => {
      const text = document.body?.innerText ?? '';
      for (const [words, pattern] of [['No checkpoints yet', /No checkpoints yet/], ['0 checkpoints', /(^|[^\d,.])0 checkpoints/]] as const) {
        if (!pattern.test(text)) continue;
        // Where it was said, to find it when this fails.
        const at = [...document.querySelectorAll('body *')].reverse().find((el) => pattern.test((el as HTMLElement).innerText ?? ''));
        const where = `${words} in ${at?.className ?? '?'}: ${(at as HTMLElement | undefined)?.innerText?.slice(0, 80) ?? ''}`;
        if (!w.__falseEmpty.includes(where)) w.__falseEmpty.push(where);
      }
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await openApp(page, served);
  await expect(page.getByTestId('checkpoint-count')).toHaveText(String(COUNT), { timeout: 60_000 });
  await expect(page.getByTestId('header-count')).toHaveText(`${COUNT} checkpoints`);
  // One file's history, read through the whole list: "… of 2000" while it is read, never an empty list.
  await page.getByTestId('file-history-button').click();
  await expect(page.getByTestId('checkpoint-count')).toHaveText(new RegExp(`^\\d+ of ${COUNT}$`), { timeout: 60_000 });
  expect(await page.evaluate(() => (window as unknown as { __falseEmpty: string[] }).__falseEmpty)).toEqual([]);
});

test('the first diff is drawn as soon as its text is here, and the editor takes over once it has drawn it', async ({ page, workspace, serve }) => {
  await seedHistory({ home: workspace.home, dir: workspace.dir, count: 50, files: 8, endMs: Date.now() - 3_600_000 });
  const served = await serve(['--no-watch']);
  // From the first paint: was the newest diff's text on screen in the preview before Monaco had drawn any line of it?
  await page.addInitScript(() => {
    const w = window as unknown as { __first: { preview: string | null; monacoBefore: boolean } };
    w.__first = { preview: null, monacoBefore: false };
    new MutationObserver(() => {
      if (w.__first.preview !== null) return;
      const added = document.querySelector('[data-testid="diff-view"] [data-testid="scrub-preview"] .scrub-added .scrub-text');
      if (!added) return;
      w.__first.preview = added.textContent;
      w.__first.monacoBefore = document.querySelector('[data-testid="diff-view"] .monaco-diff-editor .view-line') !== null;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  // The socket early-socket.js opens before the app's script loads is the one the app uses: one per page.
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));
  await openApp(page, served);
  const diff = page.getByTestId('diff-view');
  // Handed over: the preview gone, Monaco's diff holding the same added line, next/previous change driving it.
  // The diff's text first: before it is here there is no preview either (data-preview is 'false' while it loads).
  await expect(diff).toHaveAttribute('data-kind', 'text', { timeout: 30_000 });
  await expect(diff).toHaveAttribute('data-preview', 'false', { timeout: 30_000 });
  await expect(page.getByTestId('scrub-preview')).toHaveCount(0);
  const first = await page.evaluate(() => (window as unknown as { __first: { preview: string | null; monacoBefore: boolean } }).__first);
  expect(first.preview, 'the preview drew the newest diff first').not.toBeNull();
  expect(first.monacoBefore).toBe(false);
  await expect(diff.locator('.monaco-diff-editor .editor.modified .view-lines:not(.line-delete)')).toContainText(first.preview!.trim(), { timeout: 30_000 });
  expect(sockets).toHaveLength(1);
});
