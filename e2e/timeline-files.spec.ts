// Issue 11's leftovers end to end, in a real Chromium against the real browser
// host, with checkpoints taken by the real CLI, the real watcher and the real
// Claude Code hook process: image previews, a large text file shown on
// request, whitespace / line-ending / mode flags in the file list, lanes
// labelled with the prompt, and watcher reasons that agree with the stats.
import { execFile } from 'node:child_process';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, expect, openApp, test } from './fixtures.js';

// Real git, a real server and a cold Monaco on a shared 2-core machine: generous limits (not speed assertions).
test.setTimeout(240_000);
const MONACO_TIMEOUT = { timeout: 60_000 };

/** A solid-colour PNG of w×h pixels (uncompressed deflate blocks: no image library needed). */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.concat(Array.from({ length: h }, () => Buffer.from([0, ...Array.from({ length: w }, () => rgb).flat()])));
  // zlib stream of one stored block (raw is small), then its Adler-32.
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const stored = Buffer.concat([Buffer.from([0x78, 0x01, 1, raw.length & 0xff, raw.length >> 8, ~raw.length & 0xff, (~raw.length >> 8) & 0xff]), raw, Buffer.from([b >> 8, b & 0xff, a >> 8, a & 0xff])]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', stored), chunk('IEND', Buffer.alloc(0))]);
}

test('a changed image is previewed side by side (PNG from the store as data, SVG beside its text diff)', async ({ page, workspace, serve }) => {
  await mkdir(join(workspace.dir, 'img'), { recursive: true });
  await writeFile(join(workspace.dir, 'img', 'logo.png'), png(4, 3, [200, 30, 30]));
  await workspace.write('img/icon.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>\n');
  await workspace.snapshot('images');
  await writeFile(join(workspace.dir, 'img', 'logo.png'), png(8, 6, [30, 30, 200]));
  await workspace.write('img/icon.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="blue"/></svg>\n');
  await workspace.snapshot('images changed');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  await page.getByTestId('file-list-item').filter({ hasText: 'logo.png' }).click();
  const diff = page.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-kind', 'image');
  // Both sides decoded by the browser, at their own sizes: the old 4×3 and the new 8×6.
  const size = (which: string) => page.getByTestId(`image-${which}`).locator('img').evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`);
  await expect.poll(() => size('before')).toBe('4x3');
  await expect.poll(() => size('after')).toBe('8x6');

  await page.getByTestId('file-list-item').filter({ hasText: 'icon.svg' }).click();
  await expect(page.getByTestId('image-preview')).toBeVisible();
  await expect.poll(() => size('after')).toBe('10x10');
  await expect(diff.locator('.monaco-diff-editor')).toBeVisible(MONACO_TIMEOUT);
});

test('a text file over the viewer limit is shown on request (the limits are stated)', async ({ page, workspace, serve }) => {
  const line = (i: number) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(40)}`;
  const lines = Array.from({ length: 60_000 }, (_, i) => line(i)); // ~3 MB
  await workspace.write('big.log', `${lines.join('\n')}\n`);
  await workspace.snapshot('big file');
  lines[59_990] = 'the one line that changed';
  await workspace.write('big.log', `${lines.join('\n')}\n`);
  await workspace.snapshot('big file edited');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  const diff = page.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-kind', 'notice');
  await expect(diff).toContainText('too large');
  const ask = page.getByTestId('show-large');
  await expect(ask).toContainText('16.0 MB');
  await ask.click();
  await expect(diff).toHaveAttribute('data-kind', 'text');
  await expect(diff.locator('.monaco-diff-editor .modified .view-lines:not(.line-delete)')).toContainText('the one line that changed', MONACO_TIMEOUT);
  // Too long to colour without holding up the page: shown as plain text, and said so.
  await expect(page.getByTestId('plain-large')).toContainText('without syntax colours');
});

test('whitespace-only, line-ending and mode changes are flagged in the file list', async ({ page, workspace, serve }) => {
  await workspace.write('crlf.txt', 'one\ntwo\n');
  await workspace.write('spaces.ts', 'const a = 1;\nconst b = 2;\n');
  await workspace.write('real.ts', 'export const x = 1;\n');
  await workspace.write('run.sh', 'echo hi\n');
  await workspace.snapshot('before');
  await workspace.write('crlf.txt', 'one\r\ntwo\r\n');
  await workspace.write('spaces.ts', 'const  a = 1;\n  const b = 2;\n');
  await workspace.write('real.ts', 'export const x = 2;\n');
  await chmod(join(workspace.dir, 'run.sh'), 0o755);
  await workspace.snapshot('flags');
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  const flagOf = (name: string) => page.getByTestId('file-list-item').filter({ hasText: name }).getByTestId('file-flag');
  await expect(flagOf('crlf.txt')).toHaveAttribute('data-flag', 'line-endings');
  await expect(flagOf('crlf.txt')).toHaveText('EOL');
  await expect(flagOf('spaces.ts')).toHaveAttribute('data-flag', 'whitespace');
  await expect(flagOf('run.sh')).toHaveAttribute('data-flag', 'mode');
  await expect(flagOf('real.ts')).toHaveCount(0);
});

test("lanes are labelled with the prompt the agent was given (recorded by the real Claude Code hook)", async ({ page, workspace, serve }) => {
  await workspace.write('src/app.ts', 'export const answer = 41;\n');
  await workspace.snapshot('start');
  const hook = (payload: Record<string, unknown>) =>
    new Promise<void>((resolve, reject) => {
      const child = execFile(process.execPath, [CLI, 'hook', 'claude-code'], { cwd: workspace.dir, env: workspace.env }, (err) => (err ? reject(err) : resolve()));
      child.stdin?.end(JSON.stringify({ session_id: 'e2e-session-1', transcript_path: join(workspace.home, 'no-transcript.jsonl'), cwd: workspace.dir, ...payload }));
    });
  await hook({ hook_event_name: 'UserPromptSubmit', prompt: 'Make the answer 42\nand explain why' });
  await workspace.write('src/app.ts', 'export const answer = 41; // touched\n');
  await hook({ hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(workspace.dir, 'src', 'app.ts'), old_string: '41', new_string: '42' }, tool_use_id: 'toolu_e2e' });
  const served = await serve(['--no-watch']);
  await openApp(page, served, 2);

  // The session's header, then a header of its own for the prompt (issue 41: session → prompt → checkpoints).
  await expect(page.getByTestId('lane-header').first()).toContainText('Claude Code · session e2e-sess');
  const header = page.getByTestId('prompt-header').first();
  await expect(header).toContainText('“Make the answer 42”');
  await expect(header).toContainText('Claude Code');
  await expect(page.getByTestId('readout-lane')).toContainText('Make the answer 42');
});

test('a watcher checkpoint of a new folder counts its files as the stats do', async ({ page, workspace, serve }) => {
  await workspace.write('README.md', 'hello\n');
  await workspace.snapshot('start');
  const served = await serve();
  await openApp(page, served, 1);
  // Made elsewhere and moved in whole: the watcher sees one path, the folder.
  const outside = join(workspace.home, 'newdir');
  await mkdir(outside, { recursive: true });
  for (const name of ['a.ts', 'b.ts', 'c.ts']) await writeFile(join(outside, name), `${name}\n`);
  await rename(outside, join(workspace.dir, 'newdir'));
  // The watcher's checkpoint (its badge says auto; its title no longer repeats it).
  const row = page.getByTestId('checkpoint-item').filter({ hasText: /3 files changed \((newdir|full scan)\)/ }).first();
  // "(full scan)" when the serve's catch-up scan, still in its quiet time, took the move in with it.
  await expect(row).toContainText(/3 files changed \((newdir|full scan)\)/, { timeout: 60_000 });
  await expect(row).toContainText('3 files');
  await row.click();
  await expect(page.getByTestId('file-list-item')).toHaveCount(3);
});
