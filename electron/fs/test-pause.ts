// A test seam for moments that are otherwise a matter of timing (a Ctrl-C
// while the service scans, writes or answers). Only when the environment names
// a folder (CHRONOSCOPE_TEST_PAUSE_DIR, set by tests alone): reaching a named
// point appends its name to `reached` there, and while `<name>.hold` exists
// there, the process waits. Unset, it costs one variable lookup.
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const POLL_MS = 20;

export async function testPause(name: string): Promise<void> {
  const dir = process.env['CHRONOSCOPE_TEST_PAUSE_DIR'];
  if (dir === undefined || dir === '') return;
  appendFileSync(join(dir, 'reached'), `${name}\n`);
  while (existsSync(join(dir, `${name}.hold`))) await new Promise((r) => setTimeout(r, POLL_MS));
}
