// `node dist/scripts/bench-why.js [--versions 200] [--lines 2000] [--prompts 2000]`
// (after `npm run build:node`): what `chronoscope why` and `list --prompts`
// cost, each beside a baseline measured in the same run on the same store.
//  - why: a file of --lines lines with --versions versions (a few lines edited
//    in each, one prompt per version), among as many checkpoints of another
//    file. Baseline: the file's path history (one cat-file batch over every
//    checkpoint's tree), which why does first and then reads and diffs.
//  - list --prompts: --prompts prompts each with one checkpoint. Baseline: the
//    checkpoint listing alone (what the join adds is the ledger read and one
//    diff-tree --stdin for "files changed").
// Each figure is the median of 5 warm runs in this process; the CLI rows are
// one whole process each (cold start included). It measures; it never fails on speed.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../electron/engine/index.js';
import { setFsyncForMeasurement } from '../electron/engine/git/git-env.js';
import { PromptLedger } from '../electron/prompts/ledger.js';
import { listPrompts } from '../electron/prompts/listing.js';
import { whyFile, whyLine } from '../electron/prompts/why.js';

const { values } = parseArgs({ options: { versions: { type: 'string', default: '200' }, lines: { type: 'string', default: '2000' }, prompts: { type: 'string', default: '2000' } } });
const VERSIONS = Number(values.versions);
const LINES = Number(values.lines);
const PROMPTS = Number(values.prompts);

async function median(fn: () => Promise<unknown>, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? 0;
}

function cliMs(home: string, cwd: string, args: string[]): number {
  const t = performance.now();
  execFileSync(process.execPath, [join(import.meta.dirname, '..', 'electron', 'cli', 'bin.cjs'), ...args], { cwd, env: { ...process.env, CHRONOSCOPE_HOME: home }, stdio: 'ignore' });
  return performance.now() - t;
}

const row = (what: string, ms: number, baseline: string, baseMs: number): string =>
  `${what.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms   ${baseline.padEnd(30)} ${baseMs.toFixed(0).padStart(7)} ms   ×${(ms / baseMs).toFixed(1)}`;

async function main(): Promise<void> {
  setFsyncForMeasurement(false); // the setup's thousands of snapshots; nothing measured writes
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'chronoscope-bench-why-')));
  const home = join(base, 'home');
  try {
    // why: one file, VERSIONS versions, as many checkpoints of another file in between.
    const ws1 = join(base, 'why');
    mkdirSync(join(ws1, 'src'), { recursive: true });
    const store = await openStore({ home });
    const w1 = await store.workspace(ws1);
    const ledger1 = new PromptLedger(home, w1.meta.id);
    const lines = Array.from({ length: LINES }, (_, i) => `const line${i} = ${i};`);
    let before: string | null = null;
    for (let v = 0; v < VERSIONS; v++) {
      const prompt = await ledger1.appendPrompt({ text: `prompt ${v}`, agent: 'bench', session: 's', before });
      for (let k = 0; k < 3; k++) lines[(v * 37 + k * 401) % LINES] = `const edited${v}_${k} = ${v};`;
      writeFileSync(join(ws1, 'src', 'big.ts'), `${lines.join('\n')}\n`);
      await w1.snapshot({ trigger: 'hook', agent: 'bench', tool: 'Edit', reason: `Edit big.ts ${v}`, prompt_id: prompt.id });
      writeFileSync(join(ws1, 'other.txt'), `other ${v}\n`);
      before = (await w1.snapshot({ trigger: 'manual', reason: `other ${v}` })).id;
    }
    const history = await median(() => w1.pathHistory('src/big.ts'));
    const line = await median(() => whyLine(home, w1, 'src/big.ts', 1));
    const file = await median(() => whyFile(home, w1, 'src/big.ts'));
    console.log(`why: src/big.ts, ${LINES} lines, ${VERSIONS} versions, ${VERSIONS * 2} checkpoints`);
    console.log(row('why src/big.ts:1 (in process)', line, 'path history (in process)', history));
    console.log(row('why src/big.ts (in process)', file, 'path history (in process)', history));
    console.log(row('chronoscope why src/big.ts:1', cliMs(home, ws1, ['why', 'src/big.ts:1']), 'chronoscope list -n 1', cliMs(home, ws1, ['list', '-n', '1'])));

    // list --prompts: PROMPTS prompts, one checkpoint each.
    const ws2 = join(base, 'prompts');
    mkdirSync(ws2);
    const w2 = await store.workspace(ws2);
    const ledger2 = new PromptLedger(home, w2.meta.id);
    before = null;
    for (let p = 0; p < PROMPTS; p++) {
      const prompt = await ledger2.appendPrompt({ text: `prompt ${p}`, agent: 'bench', session: 's', before });
      writeFileSync(join(ws2, `f${p % 50}.txt`), `${p}\n`);
      before = (await w2.snapshot({ trigger: 'hook', agent: 'bench', tool: 'Edit', reason: `p${p}`, prompt_id: prompt.id })).id;
    }
    const listing = await median(() => w2.list());
    const prompts = await median(() => listPrompts(home, w2));
    console.log(`list --prompts: ${PROMPTS} prompts, ${PROMPTS} checkpoints`);
    console.log(row('listPrompts (in process)', prompts, 'checkpoint list (in process)', listing));
    console.log(row('chronoscope list --prompts --all', cliMs(home, ws2, ['list', '--prompts', '--all', '--json']), 'chronoscope list --all', cliMs(home, ws2, ['list', '--all', '--json'])));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
