// Issue 31, room and manners: panes that resize and fold (remembered), names
// never cut to a letter, the restore preview at 900x700, segmented controls,
// the effects panel, keyboard paths and axe-core in both themes. All through
// the real CLI, the real browser host and a real Chromium.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, git, openApp, showCheckpointList, test, threeCheckpoints, type TempWorkspace } from './fixtures.js';

/** Whether the element's box lies inside the viewport (and inside every scrolled ancestor). */
async function fullyInView(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) return false;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (!/(auto|scroll|hidden)/.test(style.overflowY)) continue;
      const b = p.getBoundingClientRect();
      if (r.top < b.top - 1 || r.bottom > b.bottom + 1) return false;
    }
    return true;
  });
}

async function selectedId(page: Page): Promise<string> {
  return (await page.locator('[data-testid="checkpoint-item"][aria-selected="true"]').getAttribute('data-checkpoint-id')) ?? '';
}

/** A history whose newest checkpoint renamed a folder of long-named files. */
async function renamedFolder(ws: TempWorkspace): Promise<void> {
  const names = ['memory-adapter-implementation.ts', 'local-storage-persistence-layer.ts', 'legacy-time-conversion-helpers.ts'];
  for (const n of names) await ws.write(`src/lib/storage/${n}`, `export const name = '${n}';\n`);
  await ws.snapshot('before the move');
  for (const n of names) await ws.write(`src/persistence/adapters/${n}`, `export const name = '${n}';\n`);
  await rm(join(ws.dir, 'src/lib'), { recursive: true });
  await ws.snapshot('move the storage folder');
}

test('room for the diff: panes resize and fold, remembered across a reload; the sidebar folds by itself when narrow; names keep their extension', async ({ page, workspace, serve }) => {
  await renamedFolder(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  // The file list at its narrowest: every name keeps its extension and more than a letter.
  const splitter = page.getByTestId('splitter-filesWidth');
  const s = (await splitter.boundingBox())!;
  await page.mouse.move(s.x + 2, s.y + 40);
  await page.mouse.down();
  await page.mouse.move(s.x - 300, s.y + 40, { steps: 4 });
  await page.mouse.up();
  const items = page.getByTestId('file-list-item');
  await expect(items).toHaveCount(3);
  for (const item of await items.all()) {
    const base = item.locator('.file-base');
    const tail = base.locator('.mid-tail');
    await expect(tail).toHaveText(/\.ts$/);
    const box = (await base.boundingBox())!;
    const itemBox = (await item.boundingBox())!;
    expect(box.width).toBeGreaterThan(50);
    const tailBox = (await tail.boundingBox())!;
    expect(tailBox.x + tailBox.width).toBeLessThanOrEqual(itemBox.x + itemBox.width);
    expect(await base.getAttribute('title')).toMatch(/^src\//);
  }

  // Fold the checkpoint list; reload: the narrow file list and the fold are remembered.
  const filesWidth = (await page.locator('.file-list').boundingBox())!.width;
  await page.getByTestId('fold-list').click();
  await expect(page.locator('.checkpoint-pane')).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('file-list-item').first()).toBeVisible();
  await expect(page.locator('.checkpoint-pane')).toBeHidden();
  expect(Math.abs((await page.locator('.file-list').boundingBox())!.width - filesWidth)).toBeLessThan(3);
  await page.getByTestId('fold-list').click();
  await expect(page.locator('.checkpoint-pane')).toBeVisible();

  // Narrow: the sidebar folds by itself; the toolbar button shows it; wide again, it is back as it was.
  await expect(page.locator('.sidebar')).toBeVisible();
  await page.setViewportSize({ width: 900, height: 700 });
  await expect(page.locator('.sidebar')).toBeHidden();
  await page.getByTestId('fold-sidebar').click();
  await expect(page.locator('.sidebar')).toBeVisible();
  await page.getByTestId('fold-sidebar').click();
  await expect(page.locator('.sidebar')).toBeHidden();
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.locator('.sidebar')).toBeVisible();
});

test('at 900x700 the restore preview shows what it deletes and what stays true outside before Confirm can be pressed', async ({ page, workspace, serve }) => {
  const remote = await mkdtemp(join(tmpdir(), 'chronoscope-e2e-remote-'));
  try {
    await threeCheckpoints(workspace);
    await git(remote, ['init', '--bare', '--quiet', '--initial-branch=main']);
    await git(workspace.dir, ['init', '--quiet', '--initial-branch=main']);
    await git(workspace.dir, ['remote', 'add', 'origin', remote]);
    await git(workspace.dir, ['add', '-A']);
    await git(workspace.dir, ['commit', '--quiet', '-m', 'first']);
    await git(workspace.dir, ['push', '--quiet', '-u', 'origin', 'main']);
    for (let i = 0; i < 13; i++) await workspace.write(`src/new/module-${i}.ts`, `export const n = ${i};\n`);
    for (let i = 0; i < 8; i++) await workspace.write(`docs/page-${i}.md`, `# page ${i}\n`);
    await workspace.write('notes.txt', 'rewritten\n');
    await workspace.snapshot('add modules');
    await page.setViewportSize({ width: 900, height: 700 });
    const served = await serve(['--no-watch']);
    await openApp(page, served, 4);

    await git(workspace.dir, ['add', '-A']);
    await git(workspace.dir, ['commit', '--quiet', '-m', 'second']);
    await git(workspace.dir, ['push', '--quiet', 'origin', 'main']);
    await page.getByTestId('effects-badge').click();
    await expect(page.getByTestId('effects-panel')).toContainText('--force-with-lease');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('effects-panel')).toHaveCount(0);

    await showCheckpointList(page);
    await page.getByTestId('checkpoint-item').filter({ hasText: 'initial import' }).click();
    await page.getByTestId('restore-button').click();
    const preview = page.getByTestId('restore-preview');
    await expect(preview.getByTestId('restore-summary')).toContainText('Deleted 21');
    await expect(preview.getByTestId('restore-summary')).toContainText(/stays? true outside/);
    // The one-line count of what is lost is on screen at once; Confirm waits until the lists themselves were.
    expect(await fullyInView(preview.getByTestId('restore-summary'))).toBe(true);
    const confirm = page.getByTestId('restore-confirm');
    await expect(confirm).toBeDisabled();
    await expect(confirm).toHaveAttribute('data-waits-for', 'preview');
    await page.screenshot({ path: join('e2e', 'artifacts', 'restore-900x700.png') });
    await preview.getByTestId('restore-warnings-end').scrollIntoViewIfNeeded();
    await expect(confirm).toBeEnabled();
    await expect(preview.getByTestId('restore-effects-since')).toContainText('--force-with-lease');
  } finally {
    await rm(remote, { recursive: true, force: true });
  }
});

test('Confirm waits while the warnings are out of view, and is enabled once they are scrolled to', async ({ page, workspace, serve }) => {
  await workspace.write('keep.txt', 'one\n');
  await workspace.snapshot('small');
  for (let i = 0; i < 40; i++) await workspace.write(`gen/file-${i}.ts`, `export const n = ${i};\n`);
  await workspace.snapshot('many files');
  // A window so short the preview's warnings cannot all show at once.
  await page.setViewportSize({ width: 900, height: 420 });
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);
  await showCheckpointList(page);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'small' }).click();
  await page.getByTestId('restore-button').click();
  const preview = page.getByTestId('restore-preview');
  const mark = preview.getByTestId('restore-warnings-end');
  const confirm = page.getByTestId('restore-confirm');
  await expect(confirm).toHaveAttribute('data-waits-for', 'preview');
  await expect(confirm).toBeDisabled();
  await mark.scrollIntoViewIfNeeded();
  await expect(confirm).toBeEnabled();
});

test('segmented controls: the active option does nothing, arrows move, one tab stop; the compare mode belongs to its workspace', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const otherBase = await mkdtemp(join(tmpdir(), 'chronoscope-e2e-other-'));
  try {
    const other = join(otherBase, 'other');
    await mkdir(other, { recursive: true });
    await workspace.cli(['snapshot', '--workspace', other, '--reason', 'empty start']);
    const served = await serve(['--no-watch', '--workspace', other]);
    await openApp(page, served);
    await page.locator('[data-testid="rail-workspace"][title$="/project"]').click();
    await expect(page.getByTestId('checkpoint-item')).toHaveCount(3);

    const mode = page.getByTestId('diff-mode-toggle');
    await expect(mode).toHaveAttribute('role', 'radiogroup');
    await expect(mode.getByRole('radio')).toHaveCount(2);
    await expect(mode.locator('[tabindex="0"]')).toHaveCount(1);
    const previous = mode.getByRole('radio', { name: 'vs previous' });
    await expect(previous).toHaveAttribute('aria-checked', 'true');
    await previous.click();
    await previous.click();
    await expect(mode).toHaveAttribute('data-value', 'previous');
    await previous.press('ArrowRight');
    await expect(mode).toHaveAttribute('data-value', 'workspace');
    await expect(mode.getByRole('radio', { name: 'vs workspace now' })).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(mode).toHaveAttribute('data-value', 'previous');
    await page.keyboard.press('End');
    await expect(mode).toHaveAttribute('data-value', 'workspace');

    const layout = page.getByTestId('diff-layout-toggle');
    const split = layout.getByRole('radio', { name: 'Split' });
    await expect(split).toHaveAttribute('aria-checked', 'true');
    await split.click();
    await expect(layout).toHaveAttribute('data-value', 'side');
    await split.press('ArrowRight');
    await expect(layout).toHaveAttribute('data-value', 'inline');
    await layout.getByRole('radio', { name: 'Split' }).click();
    await expect(layout).toHaveAttribute('data-value', 'side');

    // The other workspace opens on its own mode (vs previous), not on "Nothing to compare."
    await page.locator('[data-testid="rail-workspace"][title$="/other"]').click();
    await expect(page.getByTestId('checkpoint-item')).toHaveCount(1);
    await expect(mode).toHaveAttribute('data-value', 'previous');
    await page.locator('[data-testid="rail-workspace"][title$="/project"]').click();
    await expect(page.getByTestId('checkpoint-item')).toHaveCount(3);
    await expect(mode).toHaveAttribute('data-value', 'workspace');
  } finally {
    await rm(otherBase, { recursive: true, force: true });
  }
});

test('effects panel: the session and commits, the whole compensation command, and Show in timeline', async ({ page, workspace, serve }) => {
  const remote = await mkdtemp(join(tmpdir(), 'chronoscope-e2e-remote-'));
  try {
    await threeCheckpoints(workspace);
    await git(remote, ['init', '--bare', '--quiet', '--initial-branch=a-rather-long-branch-name-for-the-feature']);
    await git(workspace.dir, ['init', '--quiet', '--initial-branch=a-rather-long-branch-name-for-the-feature']);
    await git(workspace.dir, ['remote', 'add', 'origin', remote]);
    await git(workspace.dir, ['add', '-A']);
    await git(workspace.dir, ['commit', '--quiet', '-m', 'first']);
    await git(workspace.dir, ['push', '--quiet', '-u', 'origin', 'HEAD']);
    const served = await serve(['--no-watch']);
    await openApp(page, served, 3);
    const newest = await selectedId(page);

    await workspace.write('notes.txt', 'pushed change\n');
    await git(workspace.dir, ['commit', '--quiet', '-am', 'second']);
    const { stdout: head } = await git(workspace.dir, ['rev-parse', 'HEAD']);
    await git(workspace.dir, ['push', '--quiet', 'origin', 'HEAD']);

    // The effects leave the permanent sidebar: a panel opened by the header's badge, which carries the count.
    const panel = page.getByTestId('effects-panel');
    await expect(panel).toHaveCount(0);
    await expect(page.getByTestId('effects-badge')).toHaveAccessibleName(/^Irreversible effects: [1-9]/);
    await page.getByTestId('effects-badge').click();
    // The count and the list agree; polled together, since a push the reflog reveals late may join both meanwhile.
    await expect
      .poll(async () => `${(await page.getByTestId('effects-count').textContent()) ?? ''} = ${await panel.locator('.effect').count()}`)
      .toMatch(/^(\d+) = \1$/);
    const effect = panel.locator('.effect').first();
    await expect(effect).toContainText('--force-with-lease');
    await expect(effect.getByTestId('effect-show')).toBeVisible();
    const records = JSON.parse(await workspace.cli(['effects', '--workspace', workspace.dir, '--json'])) as { compensation: string; checkpoint: string }[];
    const record = records.find((r) => r.compensation?.includes('--force-with-lease'));
    const code = effect.getByTestId('effect-compensation').locator('code');
    await expect(code).toHaveText(record!.compensation);
    // Shown whole: nothing scrolled or clipped away.
    expect(await code.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    await expect(effect.getByTestId('effect-cause')).toContainText(head.trim().slice(0, 8));

    await page.getByTestId('checkpoint-item').filter({ hasText: 'initial import' }).click();
    expect(await selectedId(page)).not.toBe(record!.checkpoint);
    await effect.getByTestId('effect-show').click();
    await expect.poll(() => selectedId(page)).toBe(record!.checkpoint);
    expect(record!.checkpoint).toBe(newest);
  } finally {
    await rm(remote, { recursive: true, force: true });
  }
});

test('keyboard: a skip link to the timeline, one tab stop for the file list with arrows inside', async ({ page, workspace, serve }) => {
  await renamedFolder(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);
  await expect(page.getByTestId('file-list-item')).toHaveCount(3);
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('skip-link')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#timeline [role="slider"]').first()).toBeFocused();

  const items = page.getByTestId('file-list-item');
  await expect(items.and(page.locator('[tabindex="0"]'))).toHaveCount(1);
  const first = items.first();
  await first.focus();
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await expect(items.nth(1)).toHaveAttribute('aria-current', 'true');
  await page.keyboard.press('End');
  await expect(items.nth(2)).toBeFocused();
  // Tab leaves the list at once: the next stop is not another file.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).not.toBe('file-list-item');
});

test('an empty workspace says how to connect each agent and how to remove it', async ({ page, workspace, serve }) => {
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  const connect = page.getByTestId('connect-agents');
  await expect(connect).toBeVisible();
  for (const [id, name] of [
    ['claude-code', 'Claude Code'],
    ['hermes', 'Hermes Agent'],
    ['codex', 'Codex'],
    ['gemini', 'Gemini CLI'],
    ['copilot', 'GitHub Copilot CLI'],
    ['opencode', 'OpenCode'],
  ] as const) {
    const row = connect.locator(`[data-agent="${id}"]`);
    await expect(row).toContainText(name);
    await expect(row).toContainText(`chronoscope hooks install ${id}`);
    await expect(row).toContainText(`chronoscope hooks uninstall ${id}`);
  }
  await expect(connect.locator('[data-agent="mcp"]')).toContainText('chronoscope mcp');
  await expect(connect.locator('[data-agent="other"]')).toContainText('Aider');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe-core finds no serious or critical violation (${scheme} theme)`, async ({ page, workspace, serve }) => {
    await renamedFolder(workspace);
    // A text diff on screen (a pure rename shows words, not an editor): one moved file edited.
    await workspace.write('src/persistence/adapters/memory-adapter-implementation.ts', "export const name = 'edited';\n");
    await workspace.snapshot('edit one adapter');
    const served = await serve(['--no-watch']);
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page, served, 3);
    await expect(page.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)').first()).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    // Monaco's text areas included (issue 42: they had no name, axe "label", critical).
    await expect(page.locator('.monaco-editor textarea')).not.toHaveCount(0);
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')} — ${v.nodes[0]?.failureSummary ?? ''}`);
    expect(serious, serious.join('\n')).toEqual([]);
  });
}
