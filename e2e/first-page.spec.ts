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
  expect(await page.evaluate(() => (window as unknown as { __falseEmpty: string[] }).__falseEmpty)).toEqual([]);
});
