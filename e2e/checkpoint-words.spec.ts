// What a person reads matches what a checkpoint holds (issue 31): titles
// against diffs in a history the real hook process made, restore and undo told
// in words, and a skipped file named when a person asks for a checkpoint.
import { spawnSync } from 'node:child_process';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, expect, openApp, test, type TempWorkspace } from './fixtures.js';

let call = 0;
function hookEvent(ws: TempWorkspace, event: string, tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
  const payload = { session_id: 'sess-e2e', transcript_path: join(ws.dir, '..', 'transcript.jsonl'), cwd: ws.dir, hook_event_name: event, tool_name: tool, tool_input: input, tool_use_id: `toolu_e2e_${call}`, permission_mode: 'default', ...extra };
  const r = spawnSync(process.execPath, [CLI, 'hook', 'claude-code'], { input: JSON.stringify(payload), cwd: ws.dir, env: { ...ws.env, CHRONOSCOPE_DAEMON: '0' }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

function preToolUse(ws: TempWorkspace, tool: string, input: Record<string, unknown>): void {
  call += 1;
  hookEvent(ws, 'PreToolUse', tool, input);
}

/** The same call's end (PostToolUse), as Claude Code sends it after the tool ran. */
function postToolUse(ws: TempWorkspace, tool: string, input: Record<string, unknown>): void {
  hookEvent(ws, 'PostToolUse', tool, input, { tool_response: tool === 'Bash' ? { stdout: '', stderr: '', interrupted: false, isImage: false } : { filePath: input['file_path'] } });
}

test('each hook checkpoint is titled by the change its diff shows; the call it precedes is the note', async ({ page, workspace, serve }) => {
  await workspace.write('CHANGELOG.md', '# Changes\n');
  await workspace.write('src/lib/time.ts', 'export const now = () => Date.now();\n');
  await workspace.write('src/legacy-adapter.ts', 'export {};\n');
  await workspace.write('src/models/note.ts', 'export interface Note { text: string }\n');
  preToolUse(workspace, 'Edit', { file_path: join(workspace.dir, 'CHANGELOG.md'), old_string: '# Changes', new_string: '# Changes\n- clock' });
  await workspace.write('CHANGELOG.md', '# Changes\n- clock\n');
  preToolUse(workspace, 'Bash', { command: 'rm src/legacy-adapter.ts' });
  await rm(join(workspace.dir, 'src/legacy-adapter.ts'));
  preToolUse(workspace, 'Bash', { command: 'git mv src/lib/time.ts src/lib/clock.ts' });
  await mkdir(join(workspace.dir, 'src/lib'), { recursive: true });
  await rename(join(workspace.dir, 'src/lib/time.ts'), join(workspace.dir, 'src/lib/clock.ts'));
  preToolUse(workspace, 'Edit', { file_path: join(workspace.dir, 'src/models/note.ts'), old_string: 'text', new_string: 'body' });

  const served = await serve(['--no-watch']);
  await openApp(page, served, 4);
  const titles = page.getByTestId('checkpoint-title');
  await expect(titles).toHaveText([
    "git mv src/lib/time.ts src/lib/clock.ts — by Claude Code's Bash",
    "rm src/legacy-adapter.ts — by Claude Code's Bash",
    "Edit CHANGELOG.md — by Claude Code's Edit",
    'The workspace as first seen',
  ]);
  // Each title names what its diff shows; the details pane and the slider's label say the same words.
  const cases: [string, string, string][] = [
    ["Edit CHANGELOG.md — by Claude Code's Edit", 'CHANGELOG.md', 'before: Bash rm src/legacy-adapter.ts'],
    ["rm src/legacy-adapter.ts — by Claude Code's Bash", 'legacy-adapter.ts', 'before: Bash git mv src/lib/time.ts src/lib/clock.ts'],
    ["git mv src/lib/time.ts src/lib/clock.ts — by Claude Code's Bash", 'clock.ts', 'before: Edit src/models/note.ts'],
  ];
  for (const [title, file, note] of cases) {
    await page.getByTestId('checkpoint-item').filter({ has: page.getByTestId('checkpoint-title').getByText(title, { exact: true }) }).click();
    await expect(page.getByTestId('details-title')).toHaveText(title);
    await expect(page.getByTestId('details-note')).toHaveText(note);
    await expect(page.getByTestId('timeline-readout')).toContainText(title);
    await expect(page.getByTestId('file-list-item')).toHaveCount(1);
    await expect(page.getByTestId('file-list-item')).toContainText(file);
  }
  // One count: the rename's row and its file list both say one file, renamed (issue 42: a rename is one file).
  const renameRow = page.getByTestId('checkpoint-item').filter({ hasText: 'git mv' });
  await expect(renameRow).toContainText('1 file');
  await expect(page.getByTestId('file-list-count')).toHaveText('1 changed file · 1 rename');
  // Time structure: a day header above, the time of day on each row (not "… ago").
  await expect(page.getByTestId('day-header').first()).toHaveText('Today');
  await expect(renameRow.locator('time')).toHaveText(/^\d{1,2}:\d{2}/);
});

test("with the service running, a call's end takes the checkpoint of its change, and a person's edit between calls is nobody's call", async ({ page, workspace, serve }) => {
  // The watcher's own checkpoints would wait for a quiet they never get here: every change below is a hook's to record.
  await mkdir(workspace.home, { recursive: true });
  await writeFile(join(workspace.home, 'config.json'), JSON.stringify({ watcher: { quiet_ms: 600_000, max_wait_ms: 3_600_000 } }));
  await workspace.write('CHANGELOG.md', '# Changes\n');
  await workspace.write('src/app.ts', 'export const answer = 41;\n');
  await workspace.snapshot('start');
  const served = await serve();
  await openApp(page, served, 1);

  const changelog = { file_path: join(workspace.dir, 'CHANGELOG.md'), old_string: '# Changes', new_string: '# Changes\n- clock' };
  preToolUse(workspace, 'Edit', changelog);
  await workspace.write('CHANGELOG.md', '# Changes\n- clock\n');
  postToolUse(workspace, 'Edit', changelog);
  await workspace.write('src/app.ts', 'export const answer = 42; // by hand\n');
  await page.waitForTimeout(500); // the person's edit reaches the service's watcher
  preToolUse(workspace, 'Bash', { command: 'npm test' });
  postToolUse(workspace, 'Bash', { command: 'npm test' });

  const titles = page.getByTestId('checkpoint-title');
  await expect(titles).toHaveText(['src/app.ts changed, not by a recorded call', "Edit CHANGELOG.md — by Claude Code's Edit", 'start']);
  const cases: [string, string, string | null][] = [
    ["Edit CHANGELOG.md — by Claude Code's Edit", 'CHANGELOG.md', null],
    ['src/app.ts changed, not by a recorded call', 'app.ts', 'before: Bash npm test'],
  ];
  for (const [title, file, note] of cases) {
    await page.getByTestId('checkpoint-item').filter({ has: page.getByTestId('checkpoint-title').getByText(title, { exact: true }) }).click();
    await expect(page.getByTestId('details-title')).toHaveText(title);
    if (note === null) await expect(page.getByTestId('details-note')).toHaveCount(0);
    else await expect(page.getByTestId('details-note')).toHaveText(note);
    await expect(page.getByTestId('file-list-item')).toHaveCount(1);
    await expect(page.getByTestId('file-list-item')).toContainText(file);
  }
});

test('a restore and its undo are told in words, never by hashes', async ({ page, workspace, serve }) => {
  await workspace.write('notes.txt', 'first\n');
  await workspace.snapshot('working login');
  await workspace.write('notes.txt', 'second\n');
  await workspace.snapshot('broken login');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  await page.getByTestId('checkpoint-item').filter({ hasText: 'working login' }).click();
  await page.getByTestId('restore-button').click();
  await expect(page.getByTestId('restore-preview')).toContainText('Restore the workspace to ‘working login’ (');
  await page.getByRole('button', { name: 'Confirm restore' }).click();
  await expect(page.getByTestId('restore-result-words')).toHaveText(/^Restored the workspace to ‘working login’ \(/);
  await expect.poll(() => workspace.read('notes.txt')).toBe('first\n');
  const titles = page.getByTestId('checkpoint-title');
  await expect(titles.filter({ hasText: /^Restored the workspace to ‘working login’/ })).toHaveCount(1);
  // The safety checkpoint folds into the restore's row; shown from it, it is told in words too.
  await expect(titles.filter({ hasText: /^Before restoring to ‘working login’/ })).toHaveCount(0);
  await page.getByTestId('checkpoint-item').first().click();
  await page.getByTestId('before-restore').click();
  await expect(page.getByTestId('details-title')).toHaveText(/^Before restoring to ‘working login’/);

  await page.getByRole('button', { name: 'Undo restore…' }).click();
  await page.getByRole('button', { name: 'Confirm restore' }).click();
  await expect.poll(() => workspace.read('notes.txt')).toBe('second\n');
  await expect(page.getByTestId('restore-result-words')).toHaveText(/^Undid the restore of ‘working login’$/);
  await expect(titles.filter({ hasText: /^Undid the restore of ‘working login’/ })).toHaveCount(1);
  await expect(titles.filter({ hasText: /^Before undoing the restore of ‘working login’/ })).toHaveCount(0);
  await page.getByTestId('checkpoint-item').first().click();
  await page.getByTestId('before-restore').click();
  await expect(page.getByTestId('details-title')).toHaveText(/^Before undoing the restore of ‘working login’/);
  // No title is a hash.
  for (const text of await titles.allInnerTexts()) expect(text).not.toMatch(/\b[0-9a-f]{8,}\b/);
});

test('Take checkpoint now with a new 60 MB file as the only change takes a checkpoint that names it', async ({ page, workspace, serve }) => {
  await workspace.write('a.txt', 'a\n');
  await workspace.snapshot('start');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 1);
  await writeFile(join(workspace.dir, 'dump.bin'), Buffer.alloc(60 * 1024 * 1024));
  const reason = page.getByRole('textbox', { name: 'Reason for the checkpoint (optional)' });
  await reason.fill('with the dump');
  await page.getByRole('button', { name: 'Take checkpoint now' }).click();
  await expect(page.locator('.toast')).toContainText('dump.bin, 60 MB, over the 50 MB limit — raise it in Settings or exclude it');
  await expect(reason).toHaveValue('');
  await expect(page.getByTestId('checkpoint-item')).toHaveCount(2);
  // The newest is on screen: no "1 newer →" that would lead nowhere.
  await expect(page.getByTestId('timeline-readout')).toContainText('with the dump');
  await expect(page.getByTestId('newer-button')).toHaveCount(0);
  // The row and the slider's label say what was left out, not only the details.
  const dumpRow = page.getByTestId('checkpoint-item').filter({ hasText: 'with the dump' });
  await expect(dumpRow.getByTestId('row-left-out')).toHaveText('Left out: dump.bin, 60 MB');
  await expect(page.getByTestId('readout-left-out')).toHaveText('Left out: dump.bin, 60 MB');
  await dumpRow.click();
  // The diff says what happened, not "Nothing changed": the one change is a file the checkpoint could not take in.
  await expect(page.getByTestId('file-list-count').or(page.locator('.file-list'))).toContainText('Left out: dump.bin, 60 MB');
  await expect(page.getByTestId('diff-area')).toContainText('dump.bin, 60 MB');
  await expect(page.getByTestId('diff-area')).not.toContainText('Nothing changed');
  await expect(page.getByTestId('checkpoint-skipped')).toContainText('dump.bin');
  await expect(page.getByTestId('checkpoint-skipped')).toContainText('over the 50 MB limit — raise it in Settings or exclude it');

  // Asked again with nothing new: nothing taken, and the typed reason stays.
  await reason.fill('again');
  await page.getByRole('button', { name: 'Take checkpoint now' }).click();
  await expect(page.locator('.toast').filter({ hasText: 'Nothing to record' })).toBeVisible();
  await expect(reason).toHaveValue('again');
  await expect(page.getByTestId('checkpoint-item')).toHaveCount(2);
});
