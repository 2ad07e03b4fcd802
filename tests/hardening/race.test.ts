// Race cases with real processes: a restore running while another process
// swaps a workspace folder for a symlink to an outside folder, many rounds.
// Nothing may land outside: no restored file, no temporary file, no removal.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { REPO_ROOT } from '../paths.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import { killHard, startUntil } from './processes.js';

let dir: string;
let home: string;
let ws: string;
let outside: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-race-', { 'sub/': '' }));
  outside = join(dir, 'outside');
  await mkdir(outside);
  await writeFile(join(outside, 'precious.txt'), 'not the workspace\'s\n');
});
afterEach(() => removeTempProject(dir));

const SWAP_LOOP = join(REPO_ROOT, 'tests', 'hardening', 'fixtures', 'swap-loop.mjs');
const ROUNDS = 12;

async function fill(content: string): Promise<void> {
  await Promise.all(Array.from({ length: 30 }, (_, i) => writeFile(join(ws, 'sub', `f${i}.txt`), `${content} ${i}\n`)));
}

describe('restore beside a folder-for-symlink swap loop', () => {
  it(`writes nothing outside the workspace in ${ROUNDS} rounds`, async () => {
    const env = baseEnv(home);
    await fill('first');
    const one = JSON.parse((await runCli(['snapshot', '--json', '-w', ws], { env })).stdout) as { id: string };
    await fill('second');
    const two = JSON.parse((await runCli(['snapshot', '--json', '-w', ws], { env })).stdout) as { id: string };
    const loop = await startUntil([SWAP_LOOP, join(ws, 'sub'), outside], 'swapping');
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const r = await runCli(['restore', round % 2 === 0 ? one.id : two.id, '--yes', '-w', ws], { env });
        // A restore may stop or skip writes when the folder moves under it; it must never write outside.
        expect([0, 1]).toContain(r.code);
        expect((await readdir(outside)).sort(), `round ${round}: ${r.stdout}${r.stderr}`).toEqual(['precious.txt']);
      }
    } finally {
      await killHard(loop.child);
    }
    expect(await readdir(outside)).toEqual(['precious.txt']);
  }, 300_000);
});
