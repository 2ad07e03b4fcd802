// Issue 42, names that keep their file: at three window sizes, a long file name
// deep in a long folder is drawn whole in the file list (the list and the
// one-line strip of a short window) and in the diff's header; the folder is
// what gives way, and the full path is on hover and for screen readers.
import type { Locator, Page } from '@playwright/test';
import { expect, openApp, test, type TempWorkspace } from './fixtures.js';

const DIR = 'src/features/persistence/storage-adapters/implementations';
const NAMES = ['memory-adapter-implementation.ts', 'memory-adapter-implementation.test.ts', 'local-storage-persistence-layer.ts'];

async function longNames(ws: TempWorkspace): Promise<void> {
  for (const n of NAMES) await ws.write(`${DIR}/${n}`, `export const name = '${n}';\n`);
  await ws.snapshot('long names');
  for (const n of NAMES) await ws.write(`${DIR}/${n}`, `export const name = '${n}', edited = true;\n`);
  await ws.snapshot('edit the long names');
}

/** The text drawn of `el` is all of it: not clipped by itself nor by any box around it, and inside the window. */
function drawnWhole(el: Locator): Promise<{ whole: boolean; text: string; why: string }> {
  return el.evaluate((node) => {
    const text = node.textContent ?? '';
    const r = node.getBoundingClientRect();
    if (r.width === 0) return { whole: false, text, why: 'not drawn' };
    const parts = [node, ...node.querySelectorAll<HTMLElement>('*')];
    for (const p of parts) if (p.scrollWidth > p.clientWidth + 1) return { whole: false, text, why: `${p.className} is cut (${p.scrollWidth} > ${p.clientWidth})` };
    if (r.right > window.innerWidth + 0.5 || r.left < -0.5) return { whole: false, text, why: 'outside the window' };
    for (let a = node.parentElement; a; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX === 'visible') continue;
      const b = a.getBoundingClientRect();
      // A scrolling strip may hold it out of view; it is whole once scrolled to.
      if (st.overflowX === 'auto' || st.overflowX === 'scroll') continue;
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5) return { whole: false, text, why: `clipped by ${a.className}` };
    }
    return { whole: true, text, why: '' };
  });
}

async function expectWhole(el: Locator, name: string, where: string): Promise<void> {
  await el.scrollIntoViewIfNeeded();
  const got = await drawnWhole(el);
  expect(got.text.replace(/\u00a0/g, ' '), `${where}: the name's text`).toBe(name);
  expect(got.whole, `${where}: ${name} drawn whole (${got.why})`).toBe(true);
}

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
  { width: 900, height: 700 },
] as const;

async function checkNames(page: Page, label: string): Promise<void> {
  const items = page.getByTestId('file-list-item');
  await expect(items).toHaveCount(NAMES.length);
  for (const name of NAMES) {
    const item = items.filter({ has: page.locator(`[data-path="${DIR}/${name}"]`) }).or(page.locator(`[data-testid="file-list-item"][data-path="${DIR}/${name}"]`));
    await expectWhole(item.locator('.file-base'), name, `${label}, file list`);
    // The full path on hover and for screen readers.
    await expect(item).toHaveAttribute('title', `${DIR}/${name}`);
    await expect(item.locator('.visually-hidden')).toHaveText(`${DIR}/${name}`);
    await item.click();
    const header = page.getByTestId('diff-file');
    await expect(header).toHaveAttribute('title', `${DIR}/${name}`);
    await expectWhole(header.locator('.diff-file-base'), name, `${label}, diff header`);
  }
}

for (const scheme of ['light', 'dark'] as const) {
  test(`names at three widths: the file name stays whole in the file list and the diff header (${scheme} theme)`, async ({ page, workspace, serve }) => {
    await longNames(workspace);
    const served = await serve(['--no-watch']);
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await openApp(page, served, 2);
      await checkNames(page, `${size.width}×${size.height}`);
    }
  });
}
