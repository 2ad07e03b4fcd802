// A checkpoint found damaged by `chronoscope check` is marked on the slider
// and a banner names the command; the intact ones carry no mark. Real CLI,
// real store damage (one blob taken away), real browser host and Chromium.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { artifact, CLI, expect, openApp, test } from './fixtures.js';
import { fileName, seedHistory } from '../dist/scripts/bench-ui/seed-history.js';

test('a damaged checkpoint shows a mark on the slider and a banner that names chronoscope check', async ({ page, workspace, serve }) => {
  await workspace.write('a.txt', 'one\n');
  await workspace.write('deep/er/x.txt', 'first version\n');
  await workspace.snapshot('start');
  await workspace.write('deep/er/x.txt', 'second version\n');
  await workspace.snapshot('edit the deep file');
  await workspace.write('deep/er/x.txt', 'third version\n');
  await workspace.snapshot('edit it again');

  // Every object loose, then the second version's blob gone: only the middle checkpoint needs it.
  const gitDir = join(workspace.home, 'git');
  const git = (args: string[], input?: Buffer): string => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', ...(input ? { input } : {}) });
  const packDir = join(gitDir, 'objects', 'pack');
  for (const name of readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
    const moved = join(workspace.home, name);
    renameSync(join(packDir, name), moved);
    rmSync(join(packDir, name.replace(/\.pack$/, '.idx')));
    git(['unpack-objects', '-q'], readFileSync(moved));
    rmSync(moved);
  }
  const blob = execFileSync('git', ['hash-object', '--stdin'], { input: 'second version\n', encoding: 'utf8' }).trim();
  rmSync(join(gitDir, 'objects', blob.slice(0, 2), blob.slice(2)));
  const checked = spawnSync(process.execPath, [CLI, 'check', '--workspace', workspace.dir], { env: workspace.env, encoding: 'utf8' });
  expect(checked.status).toBe(3);
  expect(checked.stdout).toContain('lost: deep/er/x.txt');

  const served = await serve(['--no-watch']);
  await openApp(page, served, 3);
  const banner = page.getByTestId('damage-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('1 checkpoint is damaged');
  await expect(banner.getByTestId('damage-files')).toHaveText('Affected: deep/er/x.txt.');
  await expect(banner).toContainText('Run chronoscope check for what each one lost');
  // One mark, for the one damaged checkpoint (the other two are intact).
  const marks = page.getByTestId('damaged-marker');
  await expect(marks).toHaveCount(1);
  await expect(marks).toHaveAttribute('data-count', '1');
  await expect(marks).toHaveAttribute('data-tip', /Damaged: edit the deep file/);
  await page.screenshot({ path: artifact('check-damage.png') });

  // Dismissed: gone, and still gone after a reload (the same findings).
  await banner.getByTestId('damage-dismiss').click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('damaged-marker')).toHaveCount(1);
  await expect(page.getByTestId('damage-banner')).toHaveCount(0);

  // The blob put back (as a backup would): "Check again" from a fresh banner clears the marks.
  execFileSync('git', ['--git-dir', gitDir, 'hash-object', '-w', '--stdin'], { input: 'second version\n' });
  const again = spawnSync(process.execPath, [CLI, 'check', '--workspace', workspace.dir], { env: workspace.env, encoding: 'utf8' });
  expect(again.status).toBe(0);
  rmSync(join(gitDir, 'objects', blob.slice(0, 2), blob.slice(2)));
  const third = spawnSync(process.execPath, [CLI, 'check', '--workspace', workspace.dir], { env: workspace.env, encoding: 'utf8' });
  expect(third.status).toBe(3);
  await page.reload();
  // A newer check found it again: the dismissal was for the older findings.
  await expect(page.getByTestId('damage-banner')).toBeVisible();
  execFileSync('git', ['--git-dir', gitDir, 'hash-object', '-w', '--stdin'], { input: 'second version\n' });
  await page.getByTestId('damage-check-again').click();
  await expect(page.getByTestId('damage-banner')).toContainText('Checked again: no damage found');
  await expect(page.getByTestId('damaged-marker')).toHaveCount(0);
});

test('damage in hundreds of checkpoints is one band on the timeline, not a badge per checkpoint', async ({ page, workspace, serve }) => {
  test.setTimeout(300_000);
  const seeded = await seedHistory({ home: workspace.home, dir: workspace.dir, count: 400, files: 200 });
  // A file first changed late: its first version is in every checkpoint before that.
  const late = Array.from({ length: 200 }, (_, f) => fileName(f)).find((name) => {
    const first = seeded.findIndex((c, i) => i > 0 && c.changed.includes(name));
    return first > 150 && first < 350;
  })!;
  const firstChange = seeded.findIndex((c, i) => i > 0 && c.changed.includes(late));
  const gitDir = join(workspace.home, 'git');
  const git = (args: string[], input?: string): string => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, ...(input !== undefined ? { input } : {}) });
  const oldest = git(['for-each-ref', '--sort=refname', '--count=1', '--format=%(objectname)', 'refs/chronoscope/']).trim();
  const blob = git(['rev-parse', `${oldest}:${late}`]).trim();
  // The store rewritten without that one blob (as a disk would lose it).
  const keep = git(['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).split('\n').filter((id) => id && id !== blob);
  const packDir = join(gitDir, 'objects', 'pack');
  const old = readdirSync(packDir);
  git(['pack-objects', '-q', join(packDir, 'pack')], `${keep.join('\n')}\n`);
  for (const name of old) rmSync(join(packDir, name), { force: true });
  const checked = spawnSync(process.execPath, [CLI, 'check', '--workspace', workspace.dir], { env: workspace.env, encoding: 'utf8' });
  expect(checked.status).toBe(3);
  expect(checked.stdout).toContain(`${firstChange} of 400 checkpoints damaged`);

  const served = await serve(['--no-watch']);
  await openApp(page, served);
  await expect(page.getByTestId('checkpoint-count')).toHaveText('400');
  await expect(page.getByTestId('damage-banner')).toContainText(`${firstChange} checkpoints are damaged`);
  await expect(page.getByTestId('damage-files')).toContainText(late);
  const bands = page.getByTestId('damaged-marker');
  // A few bands at most (the history's long pauses may split it), that together count every damaged checkpoint; no count badges.
  const n = await bands.count();
  expect(n).toBeGreaterThanOrEqual(1);
  expect(n).toBeLessThanOrEqual(5);
  const counts = await bands.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(firstChange);
  await expect(page.locator('[data-testid="damaged-marker"] .marker-count')).toHaveCount(0);
  await page.screenshot({ path: artifact('check-damage-band.png') });
});
