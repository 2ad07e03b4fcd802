// Append-only JSON Lines files (the effect ledger, verification results):
// every append is one write() of one whole line on an O_APPEND descriptor and
// an fsync, so concurrent writers never interleave and a crash can at worst
// tear the last line, which reading skips.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readTextBounded } from './bounded-read.js';

/** A ledger grows by one line per effect: 64 MB is years of them, and a bound against a swapped-in device. */
const JSON_LINES_MAX_BYTES = 64 * 1024 * 1024;

export async function appendJsonLine(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const handle = await open(file, 'a+', 0o600);
  try {
    // If a crash tore the last line, start ours on a fresh line so only the torn one is lost.
    const { size } = await handle.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    await handle.write(`${prefix}${JSON.stringify(value)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Every parsable line, in file order; a missing file is empty, torn lines are skipped. */
export async function readJsonLines(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readTextBounded(file, JSON_LINES_MAX_BYTES);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const values: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      // a torn line from a crash mid-append
    }
  }
  return values;
}
