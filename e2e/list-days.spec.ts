// Issue 42, dates never go missing: deep in a long history, the day of the
// rows in view stays pinned at the top of the list (a row says only its time
// of day). 300 checkpoints written in the store's own format that cross a
// midnight (scripts/bench-ui/seed-history.ts), the real host and browser.
import { seedHistory } from '../dist/scripts/bench-ui/seed-history.js';
import { expect, openApp, test } from './fixtures.js';

test('the day of the rows in view stays pinned at the top of the list', async ({ page, workspace, serve }) => {
  test.setTimeout(300_000);
  // Ends at 03:00 yesterday: the ~10 hours of history cross a midnight.
  const end = new Date();
  end.setHours(3, 0, 0, 0);
  end.setDate(end.getDate() - 1);
  await seedHistory({ home: workspace.home, dir: workspace.dir, count: 300, files: 24, endMs: end.getTime() });
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await expect(page.getByTestId('checkpoint-count')).toHaveText('300');
  const scroller = page.locator('.checkpoint-scroller');
  // At the top the day's own header is in view: nothing is pinned over it.
  await expect(page.getByTestId('day-header').first()).toBeVisible();
  await expect(page.getByTestId('day-pinned')).toHaveCount(0);

  // Scrolled to the oldest rows, far below their day's header: the pinned header says their day.
  await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  const pinned = page.getByTestId('day-pinned');
  await expect(pinned).toBeVisible();
  // The oldest rows are from the day before yesterday: a date, not "Today" or "Yesterday".
  await expect(pinned).not.toHaveText(/^(Today|Yesterday)?$/);
  // Pinned at the top of the list, over the rows.
  const box = (await pinned.boundingBox())!;
  const list = (await scroller.boundingBox())!;
  expect(Math.abs(box.y - list.y)).toBeLessThan(2);

  // A few rows below the newest day's header (scrolled off): that day is pinned.
  await scroller.evaluate((el) => el.scrollTo(0, 300));
  await expect(pinned).toHaveText('Yesterday');
  // Back at the top, the header itself shows and nothing is pinned.
  await scroller.evaluate((el) => el.scrollTo(0, 0));
  await expect(pinned).toHaveCount(0);
});
