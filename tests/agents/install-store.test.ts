// Issue 39, item 6: the store a hook writes to is the one CHRONOSCOPE_HOME named when it was installed,
// also when the agent runs it without the variable; `hooks status` warns when an installed hook
// writes to another store than the CLI uses now. Real processes: the installed command run through
// a shell as the agent runs it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIT_ENV } from '../effects/git-helpers.js';
import { baseEnv, listCheckpoints, runCli } from './run-cli.js';

let dir: string;
let ws: string;
let home: string;
let storeA: string;
let storeB: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-install-store-'));
  ws = join(dir, 'ws');
  home = join(dir, 'home');
  storeA = join(dir, 'store-a');
  storeB = join(dir, 'store-b');
  await mkdir(ws);
  await mkdir(home);
  await writeFile(join(ws, 'app.ts'), 'export const answer = 41;\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const envWith = (store: string) => baseEnv(store, { HOME: home, XDG_CONFIG_HOME: '', CODEX_HOME: '', COPILOT_HOME: '' });

/** Runs `command` through a shell as an agent does: its own environment, with no CHRONOSCOPE_HOME. */
function runAsAgent(command: string, input: string): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...GIT_ENV, HOME: home, PATH: process.env['PATH'] ?? '/usr/bin:/bin', CHRONOSCOPE_DAEMON: '0', CHRONOSCOPE_HOOK_BUDGET_MS: '120000' };
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: ws, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(input);
  });
}

describe('the store named at install time', () => {
  it('claude-code: the installed hook, run without CHRONOSCOPE_HOME, takes its checkpoint in the store set at install', async () => {
    expect((await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env: envWith(storeA) })).code).toBe(0);
    const settings = JSON.parse(await readFile(join(ws, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const command = settings.hooks['PreToolUse']![0]!.hooks[0]!.command;
    const payload = { session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, 'app.ts'), old_string: '41', new_string: '42' }, tool_use_id: 't1' };
    const r = await runAsAgent(command, JSON.stringify(payload));
    expect(r).toEqual({ code: 0, stderr: '' });
    const list = await listCheckpoints(storeA, ws);
    expect(list.map((c) => c.tool_use_id)).toContain('t1');
    // No second store where a hook without the variable would have made one.
    expect(existsSync(join(home, '.config', 'Chronoscope'))).toBe(false);
  });

  for (const agent of ['claude-code', 'codex', 'gemini', 'copilot', 'opencode']) {
    it(`${agent}: hooks status warns when the installed hook writes to another store than this CLI uses`, async () => {
      expect((await runCli(['hooks', 'install', agent, '--project', '--workspace', ws], { env: envWith(storeA) })).code).toBe(0);
      const same = await runCli(['hooks', 'status', agent, '--workspace', ws], { env: envWith(storeA) });
      expect(same.code).toBe(0);
      expect(same.stdout).not.toContain('this CLI uses');
      const other = await runCli(['hooks', 'status', agent, '--workspace', ws], { env: envWith(storeB) });
      expect(other.code).toBe(0);
      expect(other.stdout).toContain(`→ this hook writes to the store ${storeA}, but this CLI uses ${storeB}`);
      const json = JSON.parse((await runCli(['hooks', 'status', agent, '--json', '--workspace', ws], { env: envWith(storeB) })).stdout) as unknown;
      expect(JSON.stringify(json)).toContain(storeA);
    });
  }

  it('hermes: the plugin names the store, and status warns from another one', async () => {
    const hermesHome = join(dir, 'hermes');
    expect((await runCli(['hooks', 'install', 'hermes', '--hermes-home', hermesHome], { env: envWith(storeA) })).code).toBe(0);
    expect(await readFile(join(hermesHome, 'plugins', 'chronoscope', '__init__.py'), 'utf8')).toContain(`"CHRONOSCOPE_HOME":${JSON.stringify(storeA)}`);
    const other = await runCli(['hooks', 'status', 'hermes', '--hermes-home', hermesHome], { env: envWith(storeB) });
    expect(other.stdout).toContain(`→ this hook writes to the store ${storeA}, but this CLI uses ${storeB}`);
  });
});
