// Hostile input: a FIFO or /dev/zero where .git/HEAD, .git/config,
// package.json or the store's config.json should be. Every command and the
// hook must finish (or fail with one line) within a deadline and never read
// without a bound; a served workspace must still serve.
import { execFileSync, spawn } from 'node:child_process';
import { symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from '../agents/run-cli.js';
import { startUntil, killHard } from './processes.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-special-', { '.git/': '', 'a.txt': 'one\n' }));
});
afterEach(() => removeTempProject(dir));

const fifo = (file: string): void => void execFileSync('mkfifo', [file]);
const DEADLINE_MS = 20_000;

/** Runs the CLI and kills it at the deadline: a hang shows as a null exit code. */
function cli(args: string[], input = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: ws, env: baseEnv(home, { CHRONOSCOPE_HOOK_BUDGET_MS: '3000' }), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

const push = (): string =>
  JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push origin main && npm publish' }, tool_use_id: 't' });

describe('special files where small files should be', () => {
  for (const kind of ['fifo', '/dev/zero'] as const) {
    it(`${kind} as .git/HEAD, .git/config and package.json: hook, status, effects finish`, async () => {
      for (const rel of ['.git/HEAD', '.git/config', 'package.json']) {
        if (kind === 'fifo') fifo(join(ws, rel));
        else await symlink('/dev/zero', join(ws, rel));
      }
      const hook = await cli(['hook', 'claude-code'], push());
      expect(hook.code).toBe(0);
      // Still an "ask": the push and the publish are recognised even without their details.
      expect(hook.stdout).toContain('"ask"');
      for (const args of [['status'], ['effects'], ['list']]) {
        const r = await cli([...args, '-w', ws]);
        expect(r.code, `${args[0]}: ${r.stderr}`).toBe(0);
      }
    });
  }

  it("a FIFO as the store's config.json: one clear line, no hang; serve refuses instead of hanging", async () => {
    expect((await cli(['snapshot', '-w', ws])).code).toBe(0);
    await unlink(join(home, 'config.json')).catch(() => undefined);
    fifo(join(home, 'config.json'));
    for (const args of [['status', '-w', ws], ['effects', '-w', ws], ['serve', '-w', ws, '--no-watch', '--port', '0']]) {
      const r = await cli(args);
      expect(r.code, args[0]).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('not a regular file');
    }
  });

  it('/dev/zero as the store\'s config.json: refused within a bound, not read', async () => {
    expect((await cli(['snapshot', '-w', ws])).code).toBe(0);
    await symlink('/dev/zero', join(home, 'config.json'));
    const r = await cli(['status', '-w', ws]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not a regular file');
  });

  it('a workspace with a FIFO package.json is served (the URL comes), and SIGTERM stops the server', async () => {
    fifo(join(ws, 'package.json'));
    fifo(join(ws, '.git', 'HEAD'));
    const served = await startUntil([CLI_PATH, 'serve', '-w', ws, '--port', '0', '--no-watch'], 'http://127.0.0.1:', baseEnv(home), DEADLINE_MS);
    const exited = new Promise<number | null>((resolve) => served.child.once('exit', (code) => resolve(code)));
    served.child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), DEADLINE_MS))]);
    if (code === 'hung') await killHard(served.child);
    expect(code).toBe(0);
  });
});
