import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let ws: string;
let userHome: string;
let env: NodeJS.ProcessEnv;

const OTHERS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'python3 .claude/hooks/guard.py', timeout: 10 }] },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-install-'));
  ws = join(dir, 'project');
  userHome = join(dir, 'user');
  await mkdir(ws, { recursive: true });
  await mkdir(userHome, { recursive: true });
  env = baseEnv(join(dir, 'store'), { HOME: userHome });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const settingsFile = () => join(ws, '.claude', 'settings.json');
const read = async (path = settingsFile()) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('chronoscope hooks install/uninstall claude-code', () => {
  it('merges our hooks into the project settings, idempotently, keeping everything else', async () => {
    await mkdir(join(ws, '.claude'));
    await writeFile(settingsFile(), JSON.stringify(OTHERS, null, 4));

    const first = await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    expect(first.code).toBe(0);
    const once = await readFile(settingsFile(), 'utf8');
    const second = await runCli(['hooks', 'install', 'claude-code', '--project', '--workspace', ws], { env });
    expect(second.code).toBe(0);
    expect(await readFile(settingsFile(), 'utf8')).toBe(once);

    const settings = await read();
    expect(settings['model']).toBe('opus');
    expect(settings['permissions']).toEqual(OTHERS.permissions);
    const hooks = settings['hooks'] as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    expect(hooks['Stop']).toEqual(OTHERS.hooks.Stop);
    const command = `node ${CLI_PATH} hook claude-code`;
    for (const event of ['PreToolUse', 'PostToolUse']) {
      const ours = hooks[event]!.filter((g) => g.hooks.some((h) => h.command === command));
      expect(ours).toHaveLength(1);
      expect(ours[0]!.matcher).toBe('Write|Edit|MultiEdit|NotebookEdit|Bash');
    }
    expect(hooks['PreToolUse']![0]).toEqual(OTHERS.hooks.PreToolUse[0]);

    const removed = await runCli(['hooks', 'uninstall', 'claude-code', '--workspace', ws], { env });
    expect(removed.code).toBe(0);
    expect(await read()).toEqual(OTHERS);
    // Uninstalling again changes nothing, byte for byte.
    const after = await readFile(settingsFile(), 'utf8');
    await runCli(['hooks', 'uninstall', 'claude-code', '--workspace', ws], { env });
    expect(await readFile(settingsFile(), 'utf8')).toBe(after);
  });

  it('the installed command runs the hook', async () => {
    await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    const settings = await read();
    const command = (settings['hooks'] as Record<string, { hooks: { command: string }[] }[]>)['PreToolUse']![0]!.hooks[0]!.command;
    const [node, script, ...args] = command.split(' ');
    expect(node).toBe('node');
    expect(script).toBe(CLI_PATH);
    const r = await runCli(args, {
      env,
      input: JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm publish' }, tool_use_id: 't' }),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
  });

  it('--user writes ~/.claude/settings.json', async () => {
    const r = await runCli(['hooks', 'install', 'claude-code', '--user'], { env, cwd: ws });
    expect(r.code).toBe(0);
    const settings = await read(join(userHome, '.claude', 'settings.json'));
    expect(Object.keys(settings['hooks'] as object).sort()).toEqual(['PostToolUse', 'PreToolUse']);
    await runCli(['hooks', 'uninstall', 'claude-code', '--user'], { env, cwd: ws });
    expect(await read(join(userHome, '.claude', 'settings.json'))).toEqual({});
  });

  it('leaves a malformed settings file untouched, with one clear line', async () => {
    await mkdir(join(ws, '.claude'));
    const broken = '{ "hooks": { "PreToolUse": [ }';
    await writeFile(settingsFile(), broken);
    for (const verb of ['install', 'uninstall']) {
      const r = await runCli(['hooks', verb, 'claude-code', '--workspace', ws], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('not valid JSON');
      expect(await readFile(settingsFile(), 'utf8')).toBe(broken);
    }
    await writeFile(settingsFile(), '{"hooks": []}');
    const r = await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    expect(r.code).toBe(1);
    expect(await readFile(settingsFile(), 'utf8')).toBe('{"hooks": []}');
  });

  it('refuses an agent it does not know', async () => {
    const r = await runCli(['hooks', 'install', 'cursor', '--workspace', ws], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown agent');
  });
});
