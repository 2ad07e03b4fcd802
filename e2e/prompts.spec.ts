// Prompts in the app (issue 41): a history made through the real Claude Code
// hook process with real payloads (UserPromptSubmit, PreToolUse, PostToolUse,
// PostToolUseFailure), so the prompts, their checkpoints and the failed call
// come from the product's own path. The list groups the checkpoints under
// their prompts; a prompt header selects the prompt's whole change and offers
// "Restore to before this prompt"; the details say why; the timeline marks
// the failed call; search finds the prompt's words and never a row for the
// call it was only taken before; "Open conversation" reads the messages around
// a call from the transcript the hook named.
import { spawnSync } from 'node:child_process';
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { CLI, expect, openApp, test, type TempWorkspace } from './fixtures.js';

const SESSION = 'sess-prompts-e2e';
const REFACTOR = 'Refactor the storage to use JWT sessions\nKeep the old adapter until the flaky tests pass, then remove it.';
const CHANGELOG = 'Add a changelog entry for the storage work';

const INTENT = 'Now I will move the store to the v2 tokens the new sessions need.';

let toolUse = 0;
/** Claude Code's transcript of the session (JSON Lines), as it grows: the hook reads the assistant's words before a call from it. */
const transcript = (ws: TempWorkspace): string => join(ws.home, 'transcript.jsonl');
async function say(ws: TempWorkspace, entry: Record<string, unknown>): Promise<void> {
  await appendFile(transcript(ws), `${JSON.stringify({ isSidechain: false, sessionId: SESSION, ...entry })}\n`);
}

function hook(ws: TempWorkspace, payload: Record<string, unknown>): void {
  const full = { session_id: SESSION, transcript_path: transcript(ws), cwd: ws.dir, permission_mode: 'default', ...payload };
  const r = spawnSync(process.execPath, [CLI, 'hook', 'claude-code'], { input: JSON.stringify(full), cwd: ws.dir, env: { ...ws.env, CHRONOSCOPE_DAEMON: '0' }, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

async function prompt(ws: TempWorkspace, text: string): Promise<void> {
  await say(ws, { type: 'user', message: { role: 'user', content: text } });
  hook(ws, { hook_event_name: 'UserPromptSubmit', prompt: text });
}

/** One tool call as Claude Code reports it: before, the change itself, then its end (or its failure). */
async function toolCall(ws: TempWorkspace, tool: string, input: Record<string, unknown>, change: () => Promise<void>, failure?: string, intent = `Calling ${tool}.`): Promise<void> {
  toolUse += 1;
  const id = `toolu_prompts_${toolUse}`;
  await say(ws, { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: intent }, { type: 'tool_use', id, name: tool, input }] } });
  hook(ws, { hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: id });
  await change();
  await say(ws, { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: failure ?? 'ok' }] } });
  if (failure !== undefined) {
    hook(ws, { hook_event_name: 'PostToolUseFailure', tool_name: tool, tool_input: input, tool_use_id: id, error: failure, is_interrupt: false, duration_ms: 900 });
    return;
  }
  const response = tool === 'Bash' ? { stdout: '', stderr: '', interrupted: false, isImage: false } : { filePath: input['file_path'] };
  hook(ws, { hook_event_name: 'PostToolUse', tool_name: tool, tool_input: input, tool_use_id: id, tool_response: response });
}

/** Two prompts: a refactor (an Edit, a failing `npm test`, an `rm`, an Edit) and a changelog entry (a Write). */
async function session(ws: TempWorkspace): Promise<void> {
  await ws.write('src/storage.ts', 'export const store = "cookies";\n');
  await ws.write('src/legacy-adapter.ts', 'export const legacy = true;\n');
  await ws.snapshot('start');
  await prompt(ws, REFACTOR);
  const storage = join(ws.dir, 'src', 'storage.ts');
  await toolCall(ws, 'Edit', { file_path: storage, old_string: 'cookies', new_string: 'jwt' }, () => ws.write('src/storage.ts', 'export const store = "jwt";\n'));
  await toolCall(ws, 'Bash', { command: 'npm test' }, async () => undefined, 'Exit code 1\nFAIL tests/flaky.test.ts\n  expected 200, got 401');
  await toolCall(ws, 'Bash', { command: 'rm src/legacy-adapter.ts' }, () => rm(join(ws.dir, 'src', 'legacy-adapter.ts')));
  await toolCall(ws, 'Edit', { file_path: storage, old_string: 'jwt', new_string: 'jwt-v2' }, () => ws.write('src/storage.ts', 'export const store = "jwt-v2";\n'), undefined, INTENT);
  await prompt(ws, CHANGELOG);
  const changelog = join(ws.dir, 'CHANGELOG.md');
  await toolCall(ws, 'Write', { file_path: changelog, content: '# Changes\n- JWT sessions\n' }, () => ws.write('CHANGELOG.md', '# Changes\n- JWT sessions\n'));
}

async function open(page: Page, ws: TempWorkspace, serve: (args?: string[]) => Promise<{ url: string }>): Promise<void> {
  await session(ws);
  const served = await serve(['--no-watch']);
  await openApp(page, served as Parameters<typeof openApp>[1]);
  await expect(page.getByTestId('prompt-header').filter({ hasText: 'Refactor the storage' }).and(page.locator('[data-prompt-id]'))).toBeVisible();
}

const header = (page: Page, words: string) => page.getByTestId('prompt-header').filter({ hasText: words }).first();

test('the list groups checkpoints under their prompts; a prompt header selects its whole change, with the whole prompt', async ({ page, workspace, serve }) => {
  await open(page, workspace, serve);
  await expect(header(page, CHANGELOG)).toContainText('Claude Code');

  await header(page, 'Refactor the storage').click();
  await expect(header(page, 'Refactor the storage')).toHaveAttribute('aria-selected', 'true');
  const change = page.getByTestId('prompt-change');
  await expect(change).toBeVisible();
  await expect(page.getByTestId('prompt-change-title')).toHaveText('“Refactor the storage to use JWT sessions”');
  // The whole change: the state before the prompt → its last checkpoint, both files it touched.
  await expect(page.getByTestId('file-list-item')).toHaveCount(2);
  await expect(page.getByTestId('file-list-item').filter({ hasText: 'storage.ts' })).toHaveCount(1);
  await expect(page.getByTestId('file-list-item').filter({ hasText: 'legacy-adapter.ts' })).toHaveAttribute('data-status', 'D');
  await page.getByTestId('prompt-change-whole').click();
  await expect(page.getByTestId('prompt-change-text')).toContainText('then remove it.');
  await expect(page.getByTestId('prompt-change-failed')).toContainText('1 failed call');

  // A checkpoint of it on its own: why it exists, beside its diff.
  await page.getByTestId('checkpoint-item').filter({ hasText: 'storage.ts' }).first().click();
  await expect(change).toHaveCount(0);
  await expect(page.getByTestId('why-line-prompt')).toHaveText('“Refactor the storage to use JWT sessions”');
  await page.getByTestId('why-toggle').click();
  await expect(page.getByTestId('why-prompt-text')).toHaveText(REFACTOR);
  await expect(page.getByTestId('why-prompt')).toContainText('Claude Code · session sess-pro');
  // The call that made the change, and how it ended.
  await expect(page.getByTestId('why-call')).toContainText('Edit src/storage.ts');
  await expect(page.getByTestId('why-call-outcome')).toHaveText('succeeded');
  // What the assistant said it would do, read from its transcript as the call ended.
  await expect(page.getByTestId('why-intent')).toContainText(INTENT);
});

test('a prompt header clicked before the prompts are in selects its whole change as soon as they arrive', async ({ page, workspace, serve }) => {
  await session(workspace);
  const served = await serve(['--no-watch']);
  // The page's own WebSocket to the real host, with prompts:list held back until the header is clicked
  // (a long history: the prompts are asked for once the whole list is in).
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.routeWebSocket(/.*/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      if (typeof message === 'string' && message.includes('"prompts:list"')) {
        asked += 1;
        void held.then(() => server.send(message));
      } else server.send(message);
    });
  });
  await openApp(page, served as Parameters<typeof openApp>[1]);
  const refactor = header(page, 'Refactor the storage');
  await expect(refactor).toBeVisible();
  await expect(refactor).not.toHaveAttribute('data-prompt-id');
  await refactor.click();
  // Not expanded in the meantime: the click asked for the prompt's change.
  await expect(refactor).not.toHaveClass(/expanded/);
  await expect.poll(() => asked).toBeGreaterThan(0);
  release();
  await expect(refactor).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('prompt-change-title')).toHaveText('“Refactor the storage to use JWT sessions”');
  await expect(page.getByTestId('file-list-item')).toHaveCount(2);
});

test("without a pointer: Shift+P and the Why panel's button select the selected checkpoint's prompt, its whole change", async ({ page, workspace, serve }) => {
  await open(page, workspace, serve);
  const change = page.getByTestId('prompt-change');
  // The newest checkpoint is the changelog's Write: Shift+P from the list shows its prompt's change.
  await page.getByRole('listbox', { name: 'Checkpoints, newest first' }).focus();
  await page.keyboard.press('Shift+P');
  await expect(change).toBeVisible();
  await expect(page.getByTestId('prompt-change-title')).toHaveText(`“${CHANGELOG}”`);
  await expect(header(page, CHANGELOG)).toHaveAttribute('aria-selected', 'true');
  // One older (the refactor's last Edit), then the Why panel's button, reached by Tab and pressed with Enter.
  await page.getByRole('listbox', { name: 'Checkpoints, newest first' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(change).toHaveCount(0);
  await expect(page.getByTestId('why-line-prompt')).toHaveText('“Refactor the storage to use JWT sessions”');
  await page.getByTestId('why-toggle').press('Enter');
  const button = page.getByTestId('why-prompt-change');
  await button.focus();
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('prompt-change-title')).toHaveText('“Refactor the storage to use JWT sessions”');
  await expect(page.getByTestId('file-list-item')).toHaveCount(2);
});

test('Open conversation shows the messages around the call from the transcript, the call marked; Escape closes; a gone transcript says so', async ({ page, workspace, serve }) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await open(page, workspace, serve);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'storage.ts' }).first().click();
  await page.getByTestId('why-toggle').click();
  await expect(page.getByTestId('why-intent')).toContainText(INTENT);
  const opener = page.getByTestId('why-open-conversation');
  await opener.click();

  const dialog = page.getByRole('dialog', { name: 'Conversation around the call' });
  await expect(dialog).toBeVisible();
  const messages = dialog.getByTestId('conversation-message');
  // The call's own message: the assistant's words and the Edit it made, marked.
  const atCall = dialog.locator('[data-at-call="true"]');
  await expect(atCall).toHaveCount(1);
  await expect(atCall).toContainText(INTENT);
  await expect(atCall).toContainText('→ Edit');
  await expect(atCall).toContainText('this call');
  // Around it: the assistant's words before (the failing test run), the person's prompt, what came after.
  await expect(messages.filter({ hasText: 'Calling Bash.' }).first()).toBeVisible();
  await expect(messages.filter({ hasText: 'Refactor the storage to use JWT sessions' }).first()).toHaveAttribute('data-role', 'user');
  await expect(messages.filter({ hasText: 'Calling Write.' })).toHaveCount(1);

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();

  // The transcript gone: the dialog says so in one line, and nothing breaks.
  await rm(transcript(workspace));
  await opener.click();
  await expect(page.getByTestId('conversation-unavailable')).toHaveText(`the transcript is no longer there: ${transcript(workspace)}`);
  await page.getByRole('button', { name: 'Close conversation' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("an OpenCode call's conversation is read through OpenCode's own export, and where that cannot run the dialog says why in a line; a Hermes call's Why says its conversation cannot be opened and offers no button", async ({ page, workspace, serve }) => {
  await workspace.write('notes.txt', 'one\n');
  await workspace.snapshot('start');
  const file = join(workspace.dir, 'notes.txt');
  const hook = (agent: string, payload: Record<string, unknown>): void => {
    const r = spawnSync(process.execPath, [CLI, 'hook', agent], { input: JSON.stringify(payload), cwd: workspace.dir, env: { ...workspace.env, CHRONOSCOPE_DAEMON: '0' }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  };
  // The OpenCode plugin's payloads, as it hands them to `chronoscope hook opencode`.
  const opencode = { cwd: workspace.dir, session: 'ses_e2e', call_id: 'call_e2e', tool: 'write', args: { filePath: file, content: 'two\n' } };
  hook('opencode', { ...opencode, event: 'prompt', prompt: 'Write two in the notes' });
  hook('opencode', { ...opencode, event: 'before' });
  await workspace.write('notes.txt', 'two\n');
  hook('opencode', { ...opencode, event: 'after', output: 'Wrote file successfully.', exit: 0, intent: 'I will write two.' });
  // Hermes' plugin's, as it hands them to `chronoscope hook hermes`.
  const hermes = { cwd: workspace.dir, session_id: 'sess-h', tool_call_id: 'call_h', tool_name: 'write_file', args: { path: 'notes.txt', content: 'three\n' } };
  hook('hermes', { ...hermes, event: 'pre_llm_call', prompt: 'Write three in the notes', present: [] });
  hook('hermes', { ...hermes, event: 'pre_tool_call' });
  await workspace.write('notes.txt', 'three\n');
  hook('hermes', { ...hermes, event: 'post_tool_call', status: 'ok', result: 'ok', intent: 'I will write three.' });

  const served = await serve(['--no-watch']);
  await openApp(page, served as Parameters<typeof openApp>[1]);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'write notes.txt' }).first().click();
  await page.getByTestId('why-toggle').click();
  await expect(page.getByTestId('why-intent')).toContainText('I will write two.');
  await expect(page.getByTestId('why-conversation-unreadable')).toHaveCount(0);
  // No OpenCode has this session here (or none is on PATH): one line, and nothing breaks.
  await page.getByTestId('why-open-conversation').click();
  await expect(page.getByTestId('conversation-unavailable')).toHaveText(/^(OpenCode's command \(opencode\) is not on PATH|opencode export ses_e2e failed: )[^\n]+$/);
  await page.getByRole('button', { name: 'Close conversation' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByTestId('checkpoint-item').filter({ hasText: 'write_file notes.txt' }).first().click();
  await expect(page.getByTestId('why-intent')).toContainText('I will write three.');
  await expect(page.getByTestId('why-conversation-unreadable')).toHaveText(/^Hermes keeps its conversations in its own SQLite database/);
  await expect(page.getByTestId('why-open-conversation')).toHaveCount(0);
});

test('the failed call has its own mark on the timeline, with what failed and its output', async ({ page, workspace, serve }) => {
  await open(page, workspace, serve);
  const mark = page.getByTestId('failed-call-mark');
  await expect(mark).toHaveCount(1);
  await expect(mark).toHaveAttribute('data-tip', /Bash: npm test/);
  await expect(page.getByTestId('prompt-mark')).toHaveCount(2);
  await mark.dispatchEvent('pointerdown');
  const card = page.getByTestId('failed-call-card');
  await expect(card).toContainText('Bash: npm test');
  await expect(card).toContainText('Refactor the storage');
  await card.getByRole('button', { name: 'Close' }).click();
  await expect(card).toHaveCount(0);
});

test('search finds the words of a prompt and says where; it matches visible titles, never the call a row was taken before; the author filter lists every prompt', async ({ page, workspace, serve }) => {
  await open(page, workspace, serve);
  const total = await page.getByTestId('checkpoint-item').count();
  const search = page.getByTestId('filter-text');

  await search.fill('flaky');
  await expect(page.getByTestId('checkpoint-count')).toHaveText(/^[1-9]\d* of /);
  const rows = page.getByTestId('checkpoint-item');
  for (const row of await rows.all()) await expect(row.getByTestId('match-where')).toHaveText('in the prompt');

  // Every listed row shows the words, or says where they are.
  const titles = await page.getByTestId('checkpoint-title').allInnerTexts();
  await search.fill('');
  await expect(rows).toHaveCount(total);
  const all = await page.getByTestId('checkpoint-title').allInnerTexts();
  const rm = all.find((t) => t.startsWith('rm src/legacy-adapter.ts'));
  expect(rm, all.join('\n')).toBeDefined();
  await search.fill('rm src/legacy-adapter.ts');
  await expect(page.getByTestId('checkpoint-title').first()).toBeVisible();
  const found = await page.getByTestId('checkpoint-title').allInnerTexts();
  expect(found).toContain(rm);
  for (const t of found) expect(t, `listed for “rm src/legacy-adapter.ts”: ${t}`).toContain('rm src/legacy-adapter.ts');
  expect(titles.length).toBeGreaterThan(0);

  // The failing test run changed nothing and has no row: found at the state it ran on.
  await search.fill('npm test');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByTestId('match-where')).toHaveText('in a failed command');

  await page.getByTestId('filter-clear').click();
  await page.getByTestId('filter-more').click();
  const options = await page.getByTestId('filter-lane').locator('option').allInnerTexts();
  expect(options.some((o) => o.includes('Refactor the storage'))).toBe(true);
  expect(options.some((o) => o.includes('Add a changelog entry'))).toBe(true);
  const value = await page.getByTestId('filter-lane').locator('option', { hasText: 'Refactor the storage' }).getAttribute('value');
  await page.getByTestId('filter-lane').selectOption(value!);
  await expect(page.getByTestId('prompt-header')).toHaveCount(1);
  await expect(page.getByTestId('prompt-header')).toContainText('Refactor the storage');
});

test('restore to before a prompt: the two-step preview, then every file as it was before the prompt', async ({ page, workspace, serve }) => {
  await open(page, workspace, serve);
  await header(page, 'Refactor the storage').click();
  await page.getByTestId('restore-prompt-button').click();
  const preview = page.getByTestId('restore-prompt-preview');
  await expect(preview).toContainText('to before this prompt');
  await expect(preview).toContainText('legacy-adapter.ts');
  await expect(preview).toContainText('CHANGELOG.md');
  await page.getByTestId('restore-warnings-end').scrollIntoViewIfNeeded();
  const confirm = page.getByTestId('restore-prompt-confirm');
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByTestId('restore-result')).toBeVisible();
  await expect.poll(() => workspace.read('src/storage.ts')).toBe('export const store = "cookies";\n');
  expect(await workspace.read('src/legacy-adapter.ts')).toBe('export const legacy = true;\n');
  await expect(workspace.read('CHANGELOG.md')).rejects.toThrow();
  // The restore's row is named by the prompt, not by the checkpoint before it.
  await expect(page.getByTestId('checkpoint-item').filter({ hasText: 'Restored the workspace to before the prompt ‘Refactor the storage' })).toHaveCount(1);
});

test('axe-core finds no serious or critical violation with prompt headers listed, a prompt selected, Why open and its conversation open', async ({ page, workspace, serve }) => {
  await open(page, workspace, serve);
  const axe = async (): Promise<string[]> => {
    // As the layout spec does: with Monaco's editor drawn (not covered by the preview drawn while it loads).
    await expect(page.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)').first()).toBeVisible({ timeout: 60_000 });
    await expect(page.getByTestId('diff-view')).toHaveAttribute('data-preview', 'false', { timeout: 60_000 });
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')} — ${v.nodes[0]?.failureSummary ?? ''}`);
  };
  await header(page, 'Refactor the storage').click();
  await expect(page.getByTestId('prompt-change')).toBeVisible();
  const withPrompt = await axe();
  expect(withPrompt, withPrompt.join('\n')).toEqual([]);
  await page.getByTestId('checkpoint-item').filter({ hasText: 'storage.ts' }).first().click();
  await page.getByTestId('why-toggle').click();
  await expect(page.getByTestId('why-panel')).toBeVisible();
  const withWhy = await axe();
  expect(withWhy, withWhy.join('\n')).toEqual([]);
  await page.getByTestId('why-open-conversation').click();
  await expect(page.getByTestId('conversation-message').first()).toBeVisible();
  const withConversation = await axe();
  expect(withConversation, withConversation.join('\n')).toEqual([]);
});
