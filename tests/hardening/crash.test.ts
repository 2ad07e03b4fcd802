// Crash cases with real processes killed by SIGKILL: what a killed writer
// leaves behind must neither lose a reported checkpoint nor block the next one.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import type { Checkpoint } from '../../shared/model.js';
import { openStore } from '../../electron/engine/index.js';
import { storeGit } from '../engine/helpers.js';
import { REPO_ROOT } from '../paths.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import { killHard, startUntil } from './processes.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-crash-', { 'a.txt': 'one\n' }));
});
afterEach(() => removeTempProject(dir));

const HOLD_LOCK = join(REPO_ROOT, 'tests', 'hardening', 'fixtures', 'hold-lock.mjs');

async function list(): Promise<Checkpoint[]> {
  const r = await runCli(['list', '--json', '--all', '-w', ws], { env: baseEnv(home) });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Checkpoint[];
}

describe('a writer killed while it holds the workspace lock', () => {
  it('does not cost the next agent hook its checkpoint: the dead holder is seen at once, within the hook budget', async () => {
    expect((await runCli(['snapshot', '-w', ws], { env: baseEnv(home) })).code).toBe(0);
    const workspace = await (await openStore({ home })).workspace(ws);
    const target = join(home, 'workspaces', workspace.meta.id, 'writer.lock');
    const holder = await startUntil([HOLD_LOCK, target], 'locked');
    await killHard(holder.child);

    await writeFile(join(ws, 'a.txt'), 'two\n');
    const payload = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.txt') }, tool_use_id: 't1' });
    // 2 s: far below the 10 s mtime staleness the lock used to rely on alone.
    const r = await runCli(['hook', 'claude-code'], { input: payload, env: baseEnv(home, { CHRONOSCOPE_HOOK_BUDGET_MS: '2000' }), cwd: ws });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).not.toContain('gave up');
    const [latest] = await list();
    expect(latest).toMatchObject({ trigger: 'hook', tool_use_id: 't1' });
  });

  it('a live holder still blocks: the hook gives up within its budget and takes no checkpoint', async () => {
    expect((await runCli(['snapshot', '-w', ws], { env: baseEnv(home) })).code).toBe(0);
    const workspace = await (await openStore({ home })).workspace(ws);
    const target = join(home, 'workspaces', workspace.meta.id, 'writer.lock');
    const holder = await startUntil([HOLD_LOCK, target], 'locked');
    try {
      await writeFile(join(ws, 'a.txt'), 'two\n');
      const payload = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, 'a.txt') }, tool_use_id: 't1' });
      const r = await runCli(['hook', 'claude-code'], { input: payload, env: baseEnv(home, { CHRONOSCOPE_HOOK_BUDGET_MS: '800' }), cwd: ws });
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expect(r.stderr).toContain('gave up');
      expect((await list()).map((c) => c.trigger)).toEqual(['manual']);
    } finally {
      await killHard(holder.child);
    }
  });
});

const SNAPSHOT_FOREVER = join(REPO_ROOT, 'tests', 'hardening', 'fixtures', 'snapshot-forever.mjs');
const ENGINE = join(REPO_ROOT, 'dist', 'electron', 'engine', 'index.js');
const KILLS = 12;

describe('writers SIGKILLed mid-snapshot, again and again', () => {
  it(`${KILLS} kills at random moments: every reported checkpoint is there, prune and fsck pass, the next writer goes on`, async () => {
    const env = baseEnv(home);
    expect((await runCli(['snapshot', '-w', ws], { env })).code).toBe(0);
    const reported = new Set<string>();
    for (let round = 0; round < KILLS; round++) {
      const child = await startUntil([SNAPSHOT_FOREVER, ENGINE, home, ws, `w${round}`], 'ready', { ...process.env, HOME: dir });
      await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 900)));
      await killHard(child.child);
      for (const m of child.output().matchAll(/^id ([0-9a-f]{40})$/gm)) reported.add(m[1] as string);
    }
    const listed = new Set((await list()).map((c) => c.id));
    for (const id of reported) expect(listed.has(id), id).toBe(true);
    expect(reported.size).toBeGreaterThan(0);
    // What the kills left behind blocks nobody: a snapshot, a prune that compacts, a clean fsck.
    await writeFile(join(ws, 'after.txt'), 'after the kills\n');
    expect((await runCli(['snapshot', '-w', ws], { env })).code).toBe(0);
    const pruned = await runCli(['prune', '--yes', '--compact', '-w', ws], { env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(storeGit(home, ['fsck', '--strict', '--no-dangling'])).toBe('');
  }, 300_000);
});
