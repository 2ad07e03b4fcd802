// The timeline worth scrubbing (issue 11), in a real Chromium against the
// real browser host: a long history over days (seeded in the store's own
// format by one git fast-import, see scripts/bench-ui/seed-history.ts) for
// the time axis, lanes, the drag and one file's story; real CLI snapshots for
// renames, line endings and modes. Screenshots of the main views (light,
// dark, narrow) go to docs/screenshots/ for the README.
import { chmod, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, monacoText, openApp, REPO_ROOT, test, type TempWorkspace, showStateBeforeRestore } from './fixtures.js';
import { fileName, seedHistory, type SeededCheckpoint } from '../dist/scripts/bench-ui/seed-history.js';

const DOCS = join(REPO_ROOT, 'docs', 'screenshots');
const COUNT = 300;

// Real git, a real server and a cold Monaco on a shared 2-core machine: generous limits (not speed assertions).
test.setTimeout(300_000);

/** Ends at 03:00 yesterday, so the ~10 hours of history cross a midnight (a day boundary) and leave a long gap to now. */
async function seeded(workspace: TempWorkspace): Promise<SeededCheckpoint[]> {
  const end = new Date();
  end.setHours(3, 0, 0, 0);
  end.setDate(end.getDate() - 1);
  return seedHistory({ home: workspace.home, dir: workspace.dir, count: COUNT, files: 24, endMs: end.getTime() });
}

/** Monaco's first load is a few MB of script: on a busy 2-core machine it can take a while. */
const MONACO_TIMEOUT = { timeout: 60_000 };

/** Short id of the selected checkpoint, from its list row. */
async function selectedShort(page: import('@playwright/test').Page): Promise<string> {
  const id = await page.locator('[data-testid="checkpoint-item"][aria-selected="true"]').getAttribute('data-checkpoint-id');
  return (id ?? '').slice(0, 8);
}

test('time reads like time: idle gaps are marked breaks, days are labelled, the wheel zooms around the pointer and the overview follows', async ({ page, workspace, serve }) => {
  await seeded(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await expect(page.getByTestId('checkpoint-count')).toHaveText(String(COUNT));
  // The seeded history has a night and long breaks: each is a marked break, not empty track.
  await expect.poll(() => page.getByTestId('axis-break').count()).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('axis-day').first()).toBeVisible();
  await expect(page.getByTestId('now-marker')).toBeVisible();

  const slider = page.getByTestId('timeline-slider');
  await expect(slider).toHaveAttribute('data-view', '0.0000-1.0000');
  const box = (await slider.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -240);
  const view = await slider.getAttribute('data-view');
  const [start, end] = view!.split('-').map(Number) as [number, number];
  expect(end - start).toBeLessThan(0.5);
  // Zoomed around the pointer: the point under it (30 % of the track) is still inside the view.
  expect(start).toBeLessThan(0.3);
  expect(end).toBeGreaterThan(0.3);
  const windowBox = (await page.getByTestId('overview-window').boundingBox())!;
  expect(windowBox.width).toBeLessThan(box.width * 0.5);

  // Zoomed in, a click lands on the checkpoint under the pointer; keys still reach the ends.
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
  const clicked = Number(await slider.getAttribute('aria-valuenow'));
  expect(clicked).toBeGreaterThan(0);
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute('aria-valuenow', '0');
  // The view moved with the selection (kept in view), and 0 shows everything again.
  expect(Number((await slider.getAttribute('data-view'))!.split('-')[0])).toBeLessThan(start + 0.001);
  await page.keyboard.press('0');
  await expect(slider).toHaveAttribute('data-view', '0.0000-1.0000');
  await page.keyboard.press('+');
  await expect(slider).not.toHaveAttribute('data-view', '0.0000-1.0000');

  // Every checkpoint is reachable by keyboard: each arrow moves exactly one, whatever the zoom.
  await page.keyboard.press('Home');
  for (let i = 1; i <= 20; i++) {
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuenow', String(i));
  }
  await page.keyboard.press('End');
  await expect(slider).toHaveAttribute('aria-valuenow', String(COUNT - 1));
});

test('lanes: the slider shows who made each run of checkpoints and the list groups them under labelled headers', async ({ page, workspace, serve }) => {
  await seeded(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await expect.poll(() => page.getByTestId('lane-bands').locator('rect').count()).toBeGreaterThan(3);
  const headers = page.getByTestId('lane-header');
  await expect(headers.first()).toBeVisible();
  const labels = await headers.allInnerTexts();
  expect(labels.join(' ')).toMatch(/Claude Code · session|Hermes · session|File watcher|You \(manual/);
  await expect(page.getByTestId('timeline-readout').locator('.lane-chip')).toBeVisible();
});

test('the diff follows the handle: a drag never blanks the diff, and where it stops is what is shown', async ({ page, workspace, serve }) => {
  await seeded(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  const diff = page.getByTestId('diff-view');
  await expect(diff.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)')).toBeVisible(MONACO_TIMEOUT);

  // The checkpoints whose details the window asks for (checkpoints:show over the socket).
  const asked: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { channel?: string; payload?: { id?: string } };
      if (message.channel === 'checkpoints:show' && message.payload?.id) asked.push(message.payload.id);
    }),
  );
  await page.reload();
  await expect(diff.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)')).toBeVisible(MONACO_TIMEOUT);
  await expect.poll(() => asked.length).toBeGreaterThan(1); // the newest and, at rest, its neighbours
  const slider = page.getByTestId('timeline-slider');
  const box = (await slider.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 4, y);
  await page.mouse.down();
  const askedBefore = asked.length;
  const visited = new Set<string>();
  let blank = 0;
  const shown = new Set<string>();
  let previewed = 0;
  for (let i = 0; i < 30; i++) {
    await page.mouse.move(box.x + box.width * (1 - (i + 1) / 40), y);
    visited.add((await slider.getAttribute('aria-valuenow')) ?? '');
    await page.waitForTimeout(40);
    // Every step: a diff is on screen (the last one, marked stale, until the new one is here).
    const onScreen = await page.locator('[data-testid="diff-view"] .monaco-diff-editor, [data-testid="scrub-preview"], [data-testid="diff-view"] .monaco-editor').count();
    if (onScreen === 0) blank++;
    // While the handle moves, each step's diff is drawn in the light preview (Monaco keeps its text until the stop).
    if ((await diff.getAttribute('data-preview')) === 'true' && (await page.getByTestId('scrub-preview').count()) === 1) previewed++;
    shown.add((await diff.getAttribute('data-to')) ?? '');
  }
  expect(blank).toBe(0);
  // The diff followed the handle: many checkpoints' diffs were on screen during the drag, not only the last one.
  expect(shown.size).toBeGreaterThanOrEqual(5);
  expect(previewed).toBeGreaterThan(0);
  // While the handle is held only the checkpoints under it are asked for, never their neighbours
  // (a drag's next step lands anywhere): at most one request per place the handle visited.
  const askedWhileHeld = new Set(asked.slice(askedBefore));
  expect(askedWhileHeld.size).toBeGreaterThan(0);
  expect(askedWhileHeld.size).toBeLessThanOrEqual(visited.size);
  const heldCount = asked.length;
  await page.mouse.up();
  // Released: the neighbours of where it stopped are fetched ahead, for the arrow keys.
  await expect.poll(() => asked.slice(heldCount).filter((id) => !askedWhileHeld.has(id)).length).toBeGreaterThan(0);
  // The list catches up with the handle on release, and the details and the diff show that checkpoint.
  const body = page.getByTestId('details-body');
  const agreed = async (): Promise<boolean> => {
    const target = await selectedShort(page);
    return target !== '' && (await body.getAttribute('data-shows')) === target && (await body.getAttribute('data-stale')) === 'false' && (await diff.getAttribute('data-to')) === target;
  };
  await expect.poll(agreed).toBe(true);
  // Released: Monaco takes over with the same diff, and the preview goes.
  await expect(diff).toHaveAttribute('data-preview', 'false');
  await expect(page.getByTestId('scrub-preview')).toHaveCount(0);
  await expect(page.locator('[data-testid="diff-view"] .monaco-layer:not([aria-hidden="true"]) .monaco-editor').first()).toBeVisible();
});

test('arrow keys move the list with the handle, row by row, not only when the keys pause', async ({ page, workspace, serve }) => {
  await seeded(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await expect(page.getByTestId('diff-view').locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)')).toBeVisible(MONACO_TIMEOUT);
  const slider = page.getByTestId('timeline-slider');
  await slider.focus();
  await page.keyboard.press('End');
  await expect.poll(() => selectedShort(page)).not.toBe('');
  // Four presses in quick succession (a scrub), each read at once: a list that trailed
  // the keys (as it trails a dragged handle) would still show the row of a press before.
  const seen = await slider.evaluate(async (el) => {
    const read = () => [el.getAttribute('aria-valuenow'), document.querySelector('[data-testid="checkpoint-item"][aria-selected="true"]')?.getAttribute('data-checkpoint-id') ?? ''];
    const out = [read()];
    for (let i = 0; i < 4; i++) {
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      out.push(read());
    }
    return out;
  });
  expect(new Set(seen.map(([position]) => position)).size).toBe(5);
  expect(new Set(seen.map(([, row]) => row)).size).toBe(5);
});

test('the Split/Inline toggle reaches the editor on screen, not only the next file', async ({ page, workspace, serve }) => {
  await seeded(workspace);
  const served = await serve(['--no-watch']);
  // Side by side only where each side gets 80 columns: a window wide enough for that.
  await page.setViewportSize({ width: 2560, height: 900 });
  await openApp(page, served);
  const editor = page.locator('[data-testid="diff-view"] .monaco-layer:not([aria-hidden="true"]) .monaco-diff-editor');
  await expect(editor.locator('.modified .view-lines:not(.line-delete)')).toBeVisible(MONACO_TIMEOUT);
  await expect(editor).toHaveClass(/side-by-side/);
  await page.getByTestId('diff-layout-toggle').getByRole('radio', { name: 'Inline' }).click();
  await expect(editor).not.toHaveClass(/side-by-side/);
  await page.getByTestId('diff-layout-toggle').getByRole('radio', { name: 'Split' }).click();
  await expect(editor).toHaveClass(/side-by-side/);
});

test("one file's story: History shows only the checkpoints that changed it, the slider dims the rest, a reload keeps it", async ({ page, workspace, serve }) => {
  const history = await seeded(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  // Open the first changed file of the newest checkpoint, then its history.
  const file = history[history.length - 1]!.changed[0]!;
  await page.getByTestId('file-list-item').filter({ hasText: file.split('/').pop()! }).first().click();
  await page.getByTestId('file-history-button').click();

  const touching = history.filter((c) => c.changed.includes(file)).length;
  await expect(page.getByTestId('checkpoint-count')).toHaveText(`${touching} of ${COUNT}`);
  await expect(page.getByTestId('checkpoint-item').first()).toBeVisible();
  expect(await page.getByTestId('filter-path').inputValue()).toBe(file);
  expect(decodeURIComponent(new URL(page.url()).hash)).toContain(`path=${file}`);
  // The others are dimmed on the slider.
  await expect.poll(async () => ((await page.locator('.slider-ticks .tick-dim').getAttribute('d')) ?? '').length).toBeGreaterThan(0);

  // Stepping goes through the file's checkpoints only, and the diff shows that file each time.
  const slider = page.getByTestId('timeline-slider');
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  const short = await selectedShort(page);
  await expect(page.getByTestId('diff-view')).toHaveAttribute('data-to', short);
  await expect(page.getByTestId('diff-file')).toContainText(file.split('/').pop()!);
  await expect.poll(async () => monacoText(await page.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)').innerText())).toContain('export const version');

  await page.reload();
  await expect(page.getByTestId('checkpoint-count')).toHaveText(`${touching} of ${COUNT}`);
  await page.getByTestId('filter-clear').click();
  await expect(page.getByTestId('checkpoint-count')).toHaveText(String(COUNT));
});

test('search and filters: reason words, trigger, who and pinned narrow the list; a glob path too', async ({ page, workspace, serve }) => {
  const history = await seeded(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await page.getByTestId('filter-text').fill('module-3.ts');
  // The box matches the visible title and the paths a checkpoint changed (issue 41), never the call a
  // checkpoint only precedes. A title names the change the row holds, which for a hook checkpoint is the
  // call before it: so every row that changed the file matches, and none beyond those or a title's call.
  const has = (c: SeededCheckpoint) => c.changed.some((f) => f.includes('module-3.ts'));
  const changedIt = history.filter(has).length;
  const atMost = history.filter((c, i) => has(c) || c.reason.includes('module-3.ts') || (history[i - 1]?.reason.includes('module-3.ts') ?? false) || (history[i + 1]?.reason.includes('module-3.ts') ?? false)).length;
  await expect(page.getByTestId('checkpoint-count')).toHaveText(new RegExp(` of ${COUNT}$`));
  await expect.poll(async () => Number(((await page.getByTestId('checkpoint-count').textContent()) ?? '').split(' ')[0])).toBeGreaterThanOrEqual(changedIt);
  const shown = Number(((await page.getByTestId('checkpoint-count').textContent()) ?? '').split(' ')[0]);
  expect(shown, `between ${changedIt} and ${atMost}`).toBeLessThanOrEqual(atMost);
  await page.getByTestId('filter-text').fill('');

  await page.getByTestId('filter-more').click();
  await page.getByTestId('filter-trigger').selectOption('manual');
  await expect(page.getByTestId('checkpoint-item').first()).toContainText('manual');
  await page.getByTestId('filter-trigger').selectOption('');

  await page.getByTestId('filter-path').fill('src/**/module-1?.ts');
  const glob = history.filter((c) => c.changed.some((f) => /^src\/module-1\d\.ts$/.test(f))).length;
  await expect(page.getByTestId('checkpoint-count')).toHaveText(`${glob} of ${COUNT}`);
  await page.getByTestId('filter-path').fill('');

  await page.getByTestId('filter-pinned').check();
  await expect(page.getByTestId('filter-empty')).toBeVisible();
  await page.getByTestId('filter-pinned').uncheck();
  await expect(page.getByTestId('checkpoint-count')).toHaveText(String(COUNT));
  expect(fileName(0)).toBe('src/module-1.ts');
});

test('diffs hide nothing: a rename shows as a rename with its edit, line endings and modes are flagged, next/previous change', async ({ page, workspace, serve }) => {
  const lines = Array.from({ length: 120 }, (_, i) => `line ${i}`);
  await workspace.write('lib/old-name.txt', `${lines.join('\n')}\n`);
  await workspace.write('crlf.txt', 'one\ntwo\n');
  await workspace.write('run.sh', 'echo hi\n');
  await workspace.snapshot('before');
  await mkdir(join(workspace.dir, 'src'), { recursive: true });
  await rename(join(workspace.dir, 'lib/old-name.txt'), join(workspace.dir, 'src/new-name.txt'));
  const edited = lines.slice();
  edited[90] = 'line ninety, edited';
  await workspace.write('src/new-name.txt', `${edited.join('\n')}\n`);
  await workspace.write('crlf.txt', 'one\r\ntwo\r\n');
  await chmod(join(workspace.dir, 'run.sh'), 0o755);
  await workspace.write('notes/added.md', '# added\nfirst line\n');
  await workspace.snapshot('rename, CRLF and chmod');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  const renamed = page.getByTestId('file-list-item').filter({ hasText: 'new-name.txt' });
  await expect(renamed).toHaveAttribute('data-status', 'R');
  await expect(renamed).toContainText('from old-name.txt');
  await renamed.click();
  await expect(page.getByTestId('rename-chip')).toContainText('lib/old-name.txt');
  // A diff with both sides, not "New file": the old side is read where the file was.
  const diff = page.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-kind', 'text');
  await expect(diff).not.toHaveAttribute('data-change', 'added');
  await expect.poll(async () => monacoText(await diff.locator('.monaco-diff-editor .original .view-lines').innerText())).toContain('line 8');
  // Opened at the first change (line 90 of 120), not at line 1.
  await expect.poll(async () => monacoText(await diff.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)').innerText())).toContain('line ninety, edited');
  await expect(page.getByTestId('change-count')).toHaveText('1 change');
  await page.getByTestId('next-change').click();
  await page.getByTestId('prev-change').click();

  // An added file: its one-sided editor (kept, like the diff editor, not re-created), and no change
  // navigation for the diff editor hidden behind it; back on the rename, both come back.
  await page.getByTestId('file-list-item').filter({ hasText: 'added.md' }).click();
  await expect(diff).toHaveAttribute('data-change', 'added');
  await expect(diff.locator('.monaco-layer:not([aria-hidden="true"]) .monaco-editor .view-lines')).toContainText('first line', MONACO_TIMEOUT);
  await expect(diff.locator('.monaco-diff-editor')).toBeHidden();
  await expect(page.getByTestId('change-nav')).toHaveCount(0);
  await renamed.click();
  await expect(diff.locator('.monaco-diff-editor')).toBeVisible();
  await expect(diff.locator('.monaco-diff-editor')).toHaveCount(1);
  await expect(page.getByTestId('change-count')).toHaveText('1 change');

  await page.getByTestId('file-list-item').filter({ hasText: 'crlf.txt' }).click();
  await expect(page.getByTestId('hidden-change')).toContainText('line endings');

  const script = page.getByTestId('file-list-item').filter({ hasText: 'run.sh' });
  await expect(script).toContainText('+x');
  await script.click();
  await expect(page.getByTestId('mode-chip')).toContainText('executable');
});

test('layout: panes resize and fold (remembered), full-width diff, the shortcut map, toasts clear of the diff; screenshots', async ({ page, workspace, serve }) => {
  await seeded(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await expect(page.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)')).toBeVisible(MONACO_TIMEOUT);
  // The diff computed (its change count shown), so the screenshots show its markers, not the texts alone.
  await expect(page.getByTestId('change-count')).toBeVisible(MONACO_TIMEOUT);
  await mkdir(DOCS, { recursive: true });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: join(DOCS, 'timeline-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(DOCS, 'timeline-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });

  const list = page.locator('.checkpoint-pane');
  const before = (await list.boundingBox())!.width;
  const splitter = page.getByTestId('splitter-listWidth');
  const s = (await splitter.boundingBox())!;
  await page.mouse.move(s.x + 2, s.y + 100);
  await page.mouse.down();
  await page.mouse.move(s.x + 102, s.y + 100, { steps: 4 });
  await page.mouse.up();
  const after = (await list.boundingBox())!.width;
  expect(after).toBeGreaterThan(before + 60);
  await page.reload();
  await expect(page.getByTestId('checkpoint-item').first()).toBeVisible();
  expect(Math.abs((await list.boundingBox())!.width - after)).toBeLessThan(3);

  await page.getByTestId('full-diff').click();
  await expect(page.locator('.file-list')).toBeHidden();
  await expect(page.locator('.checkpoint-pane')).toBeHidden();
  await page.screenshot({ path: join(DOCS, 'full-width-diff.png') });
  await page.keyboard.press('f');
  await expect(page.locator('.file-list')).toBeVisible();

  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcut-map')).toBeVisible();
  await expect(page.getByTestId('shortcut-map')).toContainText('Next change in the diff');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcut-map')).toBeHidden();

  // Narrow: the effects count stays clear of its bell, titles keep the file name.
  await page.setViewportSize({ width: 900, height: 700 });
  await expect(page.getByTestId('diff-file').locator('.diff-file-base')).toBeVisible();
  await page.screenshot({ path: join(DOCS, 'timeline-narrow.png') });
});

test('a safety checkpoint says what it protects, and a restore confirmation waits for the person', async ({ page, workspace, serve }) => {
  await workspace.write('a.txt', 'one\n');
  await workspace.write('b.txt', 'one\n');
  await workspace.snapshot('first');
  await workspace.write('a.txt', 'two\n');
  await workspace.write('b.txt', 'two\n');
  await workspace.snapshot('second');
  const list = JSON.parse(await workspace.cli(['list', '--workspace', workspace.dir, '--json'])) as { id: string; reason: string }[];
  const first = list.find((c) => c.reason === 'first')!.id;
  await workspace.cli(['restore', first, '--workspace', workspace.dir, '--yes']);
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  // Folded into its restore's row, reached from it; told in words, by what it restored, never by a hash.
  const safetyId = (JSON.parse(await workspace.cli(['list', '--workspace', workspace.dir, '--json'])) as { id: string; trigger: string }[]).find((c) => c.trigger === 'safety')!.id;
  await showStateBeforeRestore(page, safetyId);
  await expect(page.getByTestId('details-title')).toHaveText(/^Before restoring to ‘first’ \(/);
  await expect(page.getByTestId('safety-note')).toContainText('before that restore');
  await expect(page.getByTestId('safety-note')).not.toContainText(first.slice(0, 8));
  await expect(page.getByTestId('safety-note')).toContainText('2 files differ');

  await page.getByTestId('checkpoint-item').filter({ hasText: 'second' }).click();
  await page.getByTestId('restore-button').click();
  const confirm = page.getByTestId('restore-confirm');
  await expect(confirm).toBeVisible();
  // Longer than the old 6-second window: still there, waiting.
  await page.waitForTimeout(8000);
  await expect(confirm).toBeVisible();
});
