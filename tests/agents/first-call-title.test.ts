// A session's first call before the background service is up (issue 41, item
// 4): its PreToolUse works alone and starts the service; the call changes a
// file; the service comes up and catches up with one full scan. That scan's
// checkpoint holds the call's change and is titled by the call — never as a
// full-scan watcher entry. Real hook process, real daemon, real store.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import type { CheckpointWords } from '../../shared/checkpoint-words.js';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { waitFor } from '../app/helpers.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;
let daemon: ChildProcess | null = null;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-first-call-', { 'src/app.ts': 'export const answer = 41;\n' }));
});
afterEach(async () => {
  await runCli(['daemon', '--stop'], { env: baseEnv(home) }).catch(() => undefined);
  if (daemon !== null && daemon.exitCode === null && daemon.signalCode === null) daemon.kill('SIGKILL');
  daemon = null;
  await removeTempProject(dir);
});

type Described = Checkpoint & CheckpointWords;

async function list(): Promise<Described[]> {
  const r = await runCli(['list', '--json', '--all', '-w', ws], { env: baseEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Described[];
}

describe("a session's first call, before the service is up", () => {
  it('is titled by the call when the service catches up with a full scan, not as a full-scan watcher entry', async () => {
    const payload = { session_id: 's1', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm run gen' }, tool_use_id: 'toolu_1' };
    const pre = await runCli(['hook', 'claude-code'], { input: JSON.stringify(payload), env: baseEnv(home), cwd: ws });
    expect(pre.code, pre.stderr).toBe(0);
    // The call's change, made while nobody watches.
    await writeFile(join(ws, 'src', 'gen.ts'), 'export const generated = true;\n');
    // The service as the hook starts it (here after the change, so its start-up scan is sure to find it).
    daemon = spawn(process.execPath, [CLI_PATH, 'daemon', '--workspace', ws, '--started-by-hook'], { env: baseEnv(home, { CHRONOSCOPE_DAEMON: '1' }), stdio: 'ignore' });
    const rows = await waitFor('the catch-up checkpoint', async () => {
      const listed = await list();
      return listed.length >= 2 ? listed : undefined;
    }, 90_000);
    expect(rows.map((c) => [c.trigger, c.title])).toEqual([
      ['hook', "npm run gen — by Claude Code's Bash"],
      ['baseline', 'The workspace as first seen'],
    ]);
    expect(rows[0]).toMatchObject({ change_by: 'call', tool_use_id: 'toolu_1', paths: ['src/gen.ts'] });
  }, 150_000);
});
