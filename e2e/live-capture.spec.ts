// Issue 4 end to end: what happens without anyone pressing a button. A push
// made with plain git in an open workspace (to a real local bare remote)
// appears in the effects panel and on the slider; saving a file gives an
// auto-checkpoint. Both through the real browser host with its watcher and
// push monitor running.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { artifact, expect, git, openApp, test, threeCheckpoints, type TempWorkspace } from './fixtures.js';


async function repoWithRemote(ws: TempWorkspace, remote: string): Promise<void> {
  await git(remote, ['init', '--bare', '--quiet', '--initial-branch=main']);
  await git(ws.dir, ['init', '--quiet', '--initial-branch=main']);
  await git(ws.dir, ['remote', 'add', 'origin', remote]);
  await git(ws.dir, ['add', '-A']);
  await git(ws.dir, ['commit', '--quiet', '-m', 'first']);
  await git(ws.dir, ['push', '--quiet', '-u', 'origin', 'main']);
}

test('a push made in the open workspace appears in the effects panel and on the slider', async ({ page, workspace, serve }) => {
  const remoteBase = await mkdtemp(join(tmpdir(), 'chronoscope-e2e-remote-'));
  try {
    await threeCheckpoints(workspace);
    await repoWithRemote(workspace, remoteBase);
    const served = await serve();
    await openApp(page, served);
    await expect(page.getByTestId('checkpoint-item').first()).toBeVisible();
    const panel = page.getByTestId('effects-panel');
    await expect(panel).toHaveCount(0);
    const before = Number((await page.getByTestId('effects-badge').getAttribute('aria-label'))?.replace(/\D+/g, '') ?? '0');

    await workspace.write('notes.txt', 'pushed change\n');
    await git(workspace.dir, ['commit', '--quiet', '-am', 'second']);
    const { stdout: head } = await git(workspace.dir, ['rev-parse', 'HEAD']);
    await git(workspace.dir, ['push', '--quiet', 'origin', 'main']);

    // The badge counts it; the notice opens the panel: the push, with its compensation command naming the new commit.
    await expect(page.getByTestId('effects-badge')).toHaveAccessibleName(`Irreversible effects: ${before + 1}`);
    await page.getByTestId('toast-show-effects').first().click();
    await expect(panel).toContainText('origin');
    await expect(panel).toContainText('--force-with-lease');
    await expect(panel).toContainText(head.trim().slice(0, 7));
    await expect(page.getByTestId('effect-marker').first()).toBeVisible();
    await page.screenshot({ path: artifact('effects.png') });
  } finally {
    await rm(remoteBase, { recursive: true, force: true });
  }
});

test('saving a file in the open workspace makes an auto-checkpoint that appears on the timeline', async ({ page, workspace, serve }) => {
  await threeCheckpoints(workspace);
  const served = await serve();
  await openApp(page, served, 3);

  await workspace.write('notes.txt', 'saved by the editor\n');
  const items = page.getByTestId('checkpoint-item');
  await expect(items).toHaveCount(4);
  await expect(items.first()).toContainText(/auto/i);
});
