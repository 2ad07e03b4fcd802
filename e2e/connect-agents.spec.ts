// The connect-an-agent page installs an agent's hooks at a click: the real
// browser host, the real installers, a temporary HOME and project. The file
// the page names is the one written, and it runs our hook with this Node.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, openApp } from './fixtures.js';

test('"Install hooks" writes the agent\'s settings and says where', async ({ page, workspace, serve }) => {
  const home = join(workspace.home, '..', 'person');
  await mkdir(home, { recursive: true });
  workspace.env['HOME'] = home;
  const served = await serve(['--no-watch']);
  await openApp(page, served);
  const connect = page.getByTestId('connect-agents');
  await expect(connect).toBeVisible();

  // Claude Code's hooks go into the open workspace's .claude/settings.json.
  const claude = connect.locator('[data-agent="claude-code"]');
  await claude.getByRole('button', { name: "Install Claude Code's hooks" }).click();
  const claudeFile = join(workspace.dir, '.claude', 'settings.json');
  await expect(claude.getByTestId('connect-install-result')).toHaveText(`Installed in ${claudeFile}`, { timeout: 30_000 });
  const claudeSettings = await readFile(claudeFile, 'utf8');
  expect(claudeSettings).toContain(process.execPath);
  expect(claudeSettings).toMatch(/bin\.cjs'? hook claude-code/);

  // Gemini CLI's go into the person's ~/.gemini/settings.json (the temporary HOME).
  const gemini = connect.locator('[data-agent="gemini"]');
  await gemini.getByRole('button', { name: "Install Gemini CLI's hooks" }).click();
  const geminiFile = join(home, '.gemini', 'settings.json');
  await expect(gemini.getByTestId('connect-install-result')).toHaveText(`Installed in ${geminiFile}`, { timeout: 30_000 });
  expect(await readFile(geminiFile, 'utf8')).toMatch(/hook gemini/);

  // A second press finds them there and says so, changing nothing.
  await claude.getByRole('button', { name: "Install Claude Code's hooks" }).click();
  await expect(claude.getByTestId('connect-install-result')).toHaveText(`Already installed in ${claudeFile}`, { timeout: 30_000 });
  expect(await readFile(claudeFile, 'utf8')).toBe(claudeSettings);
});
