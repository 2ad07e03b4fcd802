// An axis a person can read (issue 31), in a real Chromium against the real
// browser host: label boxes never overlap at three zoom levels, nothing is
// drawn past the track, a legend and a hover card. (Damage at scale, one band
// not a mark each, is check-damage.spec.ts.)
import type { Page } from '@playwright/test';
import { artifact, expect, openApp, test } from './fixtures.js';
import { seedHistory } from '../dist/scripts/bench-ui/seed-history.js';

const COUNT = 2000;

// Real git, a real server and a cold page on a shared 2-core machine: generous limits (not speed assertions).
test.setTimeout(300_000);

interface Box {
  x: number;
  width: number;
  text: string;
}

/** Boxes of every axis label and both end labels, left to right. */
async function labelBoxes(page: Page): Promise<Box[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.slider-axis > span')]
      .map((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.left, width: r.width, text: el.textContent ?? '' };
      })
      .filter((b) => b.width > 0)
      .sort((a, b) => a.x - b.x),
  );
}

async function expectReadableAxis(page: Page): Promise<Box[]> {
  const boxes = await labelBoxes(page);
  for (let i = 1; i < boxes.length; i++) {
    const a = boxes[i - 1]!;
    const b = boxes[i]!;
    expect(b.x, `"${a.text}" and "${b.text}" overlap`).toBeGreaterThanOrEqual(a.x + a.width);
  }
  const rail = (await page.locator('.slider-rail').boundingBox())!;
  // Everything the track draws stays inside it (not over the sidebar): ticks, breaks, marks.
  const inside = await page.evaluate(() =>
    [...document.querySelectorAll('.slider-ticks, .axis-break, .marker, .slider-lanes, .damage-band-run')].map((el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right, cls: el.getAttribute('class') ?? '' };
    }),
  );
  for (const r of inside) {
    // A mark is centred on its moment (half its 10-12 px outside at most).
    const slack = r.cls.includes('marker') ? 7 : 0.5;
    expect(r.left, r.cls).toBeGreaterThanOrEqual(rail.x - slack);
    expect(r.right, r.cls).toBeLessThanOrEqual(rail.x + rail.width + slack);
  }
  return boxes;
}

test('the axis reads at three zooms: labels apart, finer when zoomed in, nothing past the track; a legend and a hover card', async ({ page, workspace, serve }) => {
  const end = new Date();
  end.setHours(3, 0, 0, 0);
  end.setDate(end.getDate() - 1);
  await seedHistory({ home: workspace.home, dir: workspace.dir, count: COUNT, files: 24, endMs: end.getTime() });
  const served = await serve(['--no-watch']);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, served);
  await expect(page.getByTestId('checkpoint-count')).toHaveText(String(COUNT), { timeout: 60_000 });
  const slider = page.getByTestId('timeline-slider');
  await expect(slider).toHaveAttribute('data-view', '0.0000-1.0000');

  const whole = await expectReadableAxis(page);
  expect(whole.length).toBeGreaterThanOrEqual(3);
  await page.screenshot({ path: artifact('axis-whole.png') });

  // Zoom in around the middle twice: the labels stay apart and get finer.
  const box = (await slider.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
  for (let i = 0; i < 8; i++) await page.mouse.wheel(0, -240);
  await expect.poll(async () => Number((await slider.getAttribute('data-view'))!.split('-').map(Number).reduce((a, b) => b - a))).toBeLessThan(0.2);
  await expectReadableAxis(page);
  await page.screenshot({ path: artifact('axis-zoomed.png') });
  for (let i = 0; i < 12; i++) await page.mouse.wheel(0, -240);
  await expect.poll(async () => Number((await slider.getAttribute('data-view'))!.split('-').map(Number).reduce((a, b) => b - a))).toBeLessThan(0.01);
  const near = await expectReadableAxis(page);
  // Zoomed far in: hour or minute labels between the ends, not only the two end times.
  expect(near.filter((b) => /\d\d?:\d\d/.test(b.text) && !b.text.includes(",")).length).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: artifact('axis-near.png') });

  // The legend says what the colours and marks mean.
  await page.getByTestId('timeline-legend').locator('summary').click();
  await expect(page.getByTestId('timeline-legend')).toContainText('a restore');
  await expect(page.getByTestId('timeline-legend')).toContainText('an effect outside the workspace');

  // Hovering the selected (newest) checkpoint's tick shows its card: time, who, what, files.
  await slider.focus();
  await page.keyboard.press('End');
  // The newest may lie outside the zoomed window (End on the checkpoint already selected moves
  // nothing): see the whole history, so its tick is on the track.
  await page.keyboard.press('0');
  await expect(slider).toHaveAttribute('data-view', '0.0000-1.0000');
  const reason = (await page.locator('.readout-reason').textContent())!;
  const thumbX = Number(await page.locator('.slider-thumb').getAttribute('data-x'));
  const rail = (await page.locator('.slider-rail').boundingBox())!;
  await page.mouse.move(rail.x + thumbX * rail.width, rail.y + rail.height / 2);
  const card = page.getByTestId('hover-card');
  await expect(card).toBeVisible();
  await expect(card).toContainText(reason);
  await expect(card).toContainText(/\d+ files?/);
  await page.mouse.move(rail.x + thumbX * rail.width, rail.y + 200);
  await expect(card).toHaveCount(0);
});
