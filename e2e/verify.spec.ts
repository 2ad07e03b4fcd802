// Verification, bisect and agents' restore requests in the real app: the
// verifier the person set runs from the details pane, results become
// green/red marks on the slider, "find where it broke" names the first failing
// checkpoint, and a restore an agent asks for over MCP happens only when the
// person approves it in the window.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { artifact, CLI, expect, openApp, test, type TempWorkspace } from './fixtures.js';

/** Six checkpoints; the verifier passes while value.txt is below 4, so the fifth is the first failing one. */
async function sixSteps(workspace: TempWorkspace): Promise<string[]> {
  for (let i = 0; i < 6; i++) {
    await workspace.write('value.txt', String(i));
    await workspace.snapshot(`step ${i}`);
  }
  const listed = JSON.parse(await workspace.cli(['list', '--json', '--workspace', workspace.dir])) as Array<{ id: string }>;
  return listed.map((c) => c.id).reverse(); // oldest first
}

const VERIFIER = `node -e "process.exit(Number(require('fs').readFileSync('value.txt','utf8')) < 4 ? 0 : 1)"`;

test('verify from the details pane, marks on the slider, and find where it broke', async ({ page, workspace, serve }) => {
  const ids = await sixSteps(workspace);
  const served = await serve(['--no-watch']);
  await openApp(page, served, 6);
  const items = page.getByTestId('checkpoint-item');

  // The person sets the workspace's verifier in the app; it lands in the store's config.json.
  // With no verifier and no result the panel takes no line above the diff; Verify… opens it.
  await items.first().click();
  await expect(page.getByTestId('verifier-setting')).toHaveCount(0);
  await page.getByTestId('verify-button').click();
  await expect(page.getByTestId('verifier-setting')).toHaveText('Verifier: none — set one');
  await page.getByTestId('verifier-edit').click();
  await page.getByTestId('verifier-input').fill(VERIFIER);
  await page.getByTestId('verifier-save').click();
  await expect(page.getByTestId('verifier-setting')).toContainText(VERIFIER);
  const config = JSON.parse(await readFile(join(workspace.home, 'config.json'), 'utf8')) as { verifier: Record<string, string> };
  expect(config.verifier).toEqual({ [realpathSync(workspace.dir)]: VERIFIER });

  await items.first().click(); // newest: fails
  await page.getByTestId('verify-button').click();
  await expect(page.getByTestId('verify-status')).toContainText('Failed (exit 1)');
  await expect(page.getByTestId('verify-mark-fail')).toHaveCount(1);
  await expect(page.getByTestId('bisect-button')).toBeDisabled(); // no passing checkpoint known yet

  await items.last().click(); // oldest: passes
  await page.getByTestId('verify-button').click();
  await expect(page.getByTestId('verify-status')).toContainText('Passed');
  await expect(page.getByTestId('verify-mark-pass')).toHaveCount(1);

  await items.first().click();
  await page.getByTestId('bisect-button').click();
  const result = page.getByTestId('bisect-result');
  // By title and time, the id second.
  await expect(result).toContainText(new RegExp(`It broke at “step 4” \\([^,]+, ${ids[4]?.slice(0, 8)}\\)`));
  await expect(result).toContainText(new RegExp(`last passing checkpoint is “step 3” \\([^,]+, ${ids[3]?.slice(0, 8)}\\)`));
  // Every run of the search left its mark: the two ends plus steps 2, 3 and 4, which halving verifies.
  await expect(result).toContainText('(3 verifier runs)');
  await expect(page.getByTestId('verify-mark-fail').or(page.getByTestId('verify-mark-pass'))).toHaveCount(5);
  await expect(page.getByTestId('bisect-restore-good')).toBeVisible();
  await page.screenshot({ path: artifact('verify-bisect.png') });
});

test('an agent asks over MCP to restore; nothing changes until the person approves in the window', async ({ page, workspace, serve }) => {
  await workspace.write('app.txt', 'good\n');
  await workspace.snapshot('good');
  await workspace.write('app.txt', 'broken by the agent\n');
  await workspace.snapshot('broken');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  const client = new Client({ name: 'e2e-agent', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--workspace', workspace.dir], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', CHRONOSCOPE_HOME: workspace.home }, stderr: 'pipe' }));
  try {
    const answer = client.callTool({ name: 'request_restore', arguments: { id: '2', timeout_s: 90 } }, undefined, { timeout: 120_000 });
    const card = page.getByTestId('approval-request');
    await expect(card).toContainText('e2e-agent asks to restore');
    await expect(page.getByTestId('approval-preview')).toContainText('1 overwritten: app.txt');
    await page.screenshot({ path: artifact('approval-request.png') });
    expect(await workspace.read('app.txt')).toBe('broken by the agent\n');
    await page.getByTestId('approval-approve').click();
    const outcome = await answer;
    const body = JSON.parse((outcome.content as Array<{ text: string }>)[0]?.text ?? '{}') as { status: string };
    expect(body.status).toBe('approved');
    expect(await workspace.read('app.txt')).toBe('good\n');
    await expect(card).toHaveCount(0);
  } finally {
    await client.close();
  }
});
