// Ctrl-C means cancel: SIGINT to the real CLI at five moments of a snapshot
// the real `chronoscope serve` takes for it never yields a checkpoint later,
// and the next snapshot keeps its own reason. Each moment is made exact by
// the test seam (electron/fs/test-pause.ts): a process that reaches a named
// point says so and waits while the test holds it there.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSocketPath, someoneListens } from '../../electron/agents/core/delegate-socket.js';
import { tempDirs, waitFor, type TempDirs } from '../app/helpers.js';
import { CLI_PATH } from '../paths.js';
import { startServe, type ServeProcess } from '../server/serve-process.js';

let dirs: TempDirs;
let pauses: string;
let server: ServeProcess;

function env(): NodeJS.ProcessEnv {
  return { ...process.env, CHRONOSCOPE_HOME: dirs.home, CHRONOSCOPE_TEST_PAUSE_DIR: pauses, NO_COLOR: '1' };
}

function cli(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI_PATH, ...args], { cwd: dirs.workspace, env: env(), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function reached(): string[] {
  const file = join(pauses, 'reached');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
}

function reasons(): string[] {
  const r = cli(['list', '--all', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { reason: string }[]).map((c) => c.reason);
}

beforeAll(async () => {
  dirs = await tempDirs('chronoscope-interrupt-');
  pauses = join(dirs.home, '..', 'pauses');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(pauses);
  writeFileSync(join(dirs.workspace, 'a.txt'), 'first\n');
  server = await startServe(['--port', '0'], { CHRONOSCOPE_HOME: dirs.home, CHRONOSCOPE_TEST_PAUSE_DIR: pauses });
  await waitFor('serve to take the agent socket', () => someoneListens(agentSocketPath(dirs.home)));
  const first = cli(['snapshot', '-m', 'start']);
  expect(first.code, first.stderr).toBe(0);
});

afterAll(async () => {
  server.child.kill('SIGINT');
  await server.exited;
  await dirs.cleanup();
});

// Who holds the moment: the CLI before it connects, the service after that.
// `answered`: past the last moment a withdrawal counts — the CLI waits for the answer and names the checkpoint.
const MOMENTS = [
  { point: 'cli:connecting', what: 'before connecting', answered: false },
  { point: 'service:received', what: 'after sending', answered: false },
  { point: 'snapshot:scanning', what: 'while the service scans', answered: false },
  { point: 'snapshot:writing', what: 'while the service writes (objects sealed, ref not yet)', answered: false },
  { point: 'service:answering', what: 'just before the answer', answered: true },
] as const;

describe('Ctrl-C during `chronoscope snapshot` while `serve` runs', () => {
  for (const [n, moment] of MOMENTS.entries()) {
    it(`${moment.what}: no checkpoint appears later, and the next snapshot keeps its reason`, async () => {
      writeFileSync(join(dirs.workspace, `f${n}.txt`), `change ${n}\n`);
      rmSync(join(pauses, 'reached'), { force: true });
      const hold = join(pauses, `${moment.point}.hold`);
      writeFileSync(hold, '');
      const child = spawn(process.execPath, [CLI_PATH, 'snapshot', '-m', `cancelled ${n}`], { cwd: dirs.workspace, env: env() });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      await waitFor(`the snapshot to reach ${moment.point}`, () => reached().includes(moment.point));
      child.kill('SIGINT');
      // A withdrawn request is answered at once, while the service is still held; an answered one needs the hold gone.
      if (moment.answered) rmSync(hold);
      const code = await exited;
      rmSync(hold, { force: true });
      expect(code, stderr).toBe(130);
      if (moment.point !== 'cli:connecting') await waitFor('the service to finish the request', () => reached().includes('service:done'));

      // Taken and named: the next snapshot needs a change of its own. Withdrawn: the change is still there for it.
      if (moment.answered) writeFileSync(join(dirs.workspace, `g${n}.txt`), 'after\n');
      const later = cli(['snapshot', '-m', `big first ${n}`]);
      expect(later.code, later.stderr).toBe(0);
      expect(later.stdout).toMatch(/^checkpoint [0-9a-f]{8}/);
      const all = reasons();
      expect(all[0]).toBe(`big first ${n}`);
      if (moment.answered) {
        // Written before the interrupt reached the service: the CLI named it, so nothing appears unannounced.
        expect(stdout).toMatch(/^checkpoint [0-9a-f]{8}/);
        expect(stderr).toContain('taken before the interrupt');
        expect(all.filter((r) => r === `cancelled ${n}`)).toHaveLength(1);
      } else {
        expect(stderr.trim()).toBe(moment.point === 'cli:connecting' ? '' : 'interrupted: no checkpoint taken');
        expect(all).not.toContain(`cancelled ${n}`);
      }
    });
  }
});
