import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_MAIN_PATH, CLI_PATH } from '../paths.js';
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
    // The person's own Stop hook is kept as it was; ours is beside it.
    expect(hooks['Stop']![0]).toEqual(OTHERS.hooks.Stop[0]);
    expect(hooks['Stop']).toHaveLength(2);
    // Absolute Node (the one that ran the installer) and CLI: works with any PATH. NODE_EXTRA_CA_CERTS
    // emptied: a certificate file read at every Node start (~40 ms) that a hook never uses. The store
    // (CHRONOSCOPE_HOME) set at install: the agent may run the hook without the variable.
    const command = `NODE_EXTRA_CA_CERTS= CHRONOSCOPE_HOME=${join(dir, 'store')} ${process.execPath} ${CLI_PATH} hook claude-code`;
    const matchers: Record<string, string | undefined> = {
      PreToolUse: 'Write|Edit|MultiEdit|NotebookEdit|Bash',
      // After a file tool too: with the service running, its end takes the checkpoint of what it changed.
      PostToolUse: 'Write|Edit|MultiEdit|NotebookEdit|Bash',
      PostToolUseFailure: 'Write|Edit|MultiEdit|NotebookEdit|Bash',
      PostToolBatch: undefined,
      UserPromptSubmit: undefined,
      SessionStart: undefined,
      // The turn's end: alone, the last shell call's change is checkpointed as that call's.
      Stop: undefined,
    };
    for (const [event, matcher] of Object.entries(matchers)) {
      const ours = hooks[event]!.filter((g) => g.hooks.some((h) => h.command === command));
      expect(ours).toHaveLength(1);
      expect(ours[0]!.matcher).toBe(matcher);
    }
    expect(first.stdout).toContain(`node: ${process.execPath}`);
    expect(hooks['PreToolUse']![0]).toEqual(OTHERS.hooks.PreToolUse[0]);

    const removed = await runCli(['hooks', 'uninstall', 'claude-code', '--workspace', ws], { env });
    expect(removed.code).toBe(0);
    expect(await read()).toEqual(OTHERS);
    // Uninstalling again changes nothing, byte for byte.
    const after = await readFile(settingsFile(), 'utf8');
    await runCli(['hooks', 'uninstall', 'claude-code', '--workspace', ws], { env });
    expect(await readFile(settingsFile(), 'utf8')).toBe(after);
  });

  it("status flags an earlier version's install (PostToolUse for Bash only), and installing again brings it up to date", async () => {
    await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    const current = await runCli(['hooks', 'status', 'claude-code', '--workspace', ws], { env });
    expect(current.stdout).not.toContain('earlier version');
    // What the version before registered: PostToolUse for Bash alone.
    const settings = await read();
    const post = (settings['hooks'] as Record<string, { matcher?: string }[]>)['PostToolUse']!;
    post[0]!.matcher = 'Bash';
    await writeFile(settingsFile(), JSON.stringify(settings, null, 2));
    const older = await runCli(['hooks', 'status', 'claude-code', '--workspace', ws], { env });
    expect(older.stdout).toContain(`PostToolUse[Bash]`);
    expect(older.stdout).toContain("→ installed by an earlier version: run 'chronoscope hooks install claude-code' again so each call's change is titled by that call");
    expect((await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env })).stdout).toMatch(/^installed: /);
    expect((await runCli(['hooks', 'status', 'claude-code', '--workspace', ws], { env })).stdout).not.toContain('earlier version');
  });

  it('the installed command runs the hook', async () => {
    await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    const settings = await read();
    const command = (settings['hooks'] as Record<string, { hooks: { command: string }[] }[]>)['PreToolUse']![0]!.hooks[0]!.command;
    // Run exactly that command line through a shell whose PATH has no node at all (as Claude Code's native binary may).
    const r = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', command], { env: { ...env, PATH: '/nonexistent' }, cwd: ws, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
      child.stdin.end(JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm publish' }, tool_use_id: 't' }));
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'ask' } });
  });

  it('--user writes ~/.claude/settings.json', async () => {
    const r = await runCli(['hooks', 'install', 'claude-code', '--user'], { env, cwd: ws });
    expect(r.code).toBe(0);
    const settings = await read(join(userHome, '.claude', 'settings.json'));
    expect(Object.keys(settings['hooks'] as object).sort()).toEqual(['PostToolBatch', 'PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    await runCli(['hooks', 'uninstall', 'claude-code', '--user'], { env, cwd: ws });
    // There was no settings file, nor a ~/.claude: uninstall removes both, not leaving `{}`.
    expect(existsSync(join(userHome, '.claude'))).toBe(false);
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

  it('replaces an older install (bare `node`, other events) instead of adding a second one', async () => {
    await mkdir(join(ws, '.claude'));
    const old = { hooks: { PreToolUse: [{ matcher: 'Write|Edit|MultiEdit|NotebookEdit|Bash', hooks: [{ type: 'command', command: `node ${CLI_PATH} hook claude-code`, timeout: 30 }] }], Stop: OTHERS.hooks.Stop } };
    await writeFile(settingsFile(), JSON.stringify(old));
    await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    const hooks = (await read())['hooks'] as Record<string, { hooks: { command: string }[] }[]>;
    expect(hooks['PreToolUse']).toHaveLength(1);
    expect(hooks['PreToolUse']![0]!.hooks[0]!.command.startsWith(`NODE_EXTRA_CA_CERTS= CHRONOSCOPE_HOME=${join(dir, 'store')} ${process.execPath} `)).toBe(true);
    // The person's own Stop hook is kept as it was; ours is beside it.
    expect(hooks['Stop']![0]).toEqual(OTHERS.hooks.Stop[0]);
    expect(hooks['Stop']).toHaveLength(2);
  });

  it('hooks status shows what is installed where, and what no longer exists', async () => {
    let r = await runCli(['hooks', 'status', 'claude-code', '--json', '--workspace', ws], { env });
    expect(r.code).toBe(0);
    let status = JSON.parse(r.stdout) as { agent: string; scope: string; path: string; hooks: { event: string; node: string; cli: string; node_exists: boolean; cli_exists: boolean }[] }[];
    expect(status.map((s) => [s.scope, s.path, s.hooks.length])).toEqual([
      ['project', settingsFile(), 0],
      ['user', join(userHome, '.claude', 'settings.json'), 0],
    ]);

    await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    r = await runCli(['hooks', 'status', 'claude-code', '--json', '--workspace', ws], { env });
    status = JSON.parse(r.stdout);
    expect(status[0]!.hooks.map((h) => h.event).sort()).toEqual(['PostToolBatch', 'PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    expect(status[0]!.hooks[0]).toMatchObject({ node: process.execPath, cli: CLI_PATH, node_exists: true, cli_exists: true });

    // An install whose CLI moved away (a path with a space, quoted) and a bare `node`.
    const gone = join(dir, 'old build', 'main.js');
    await writeFile(settingsFile(), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `node '${gone}' hook claude-code` }] }] } }));
    r = await runCli(['hooks', 'status', '--workspace', ws], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`cli:  ${gone} (MISSING)`);
    expect(r.stdout).toContain('depends on the PATH');
    expect(r.stdout).toContain("run 'chronoscope hooks install claude-code' again");

    // Installed before the CommonJS entry: it runs, and status says how to get the faster start.
    await writeFile(settingsFile(), JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `'${process.execPath}' '${CLI_MAIN_PATH}' hook claude-code` }] }] } }));
    r = await runCli(['hooks', 'status', '--workspace', ws], { env });
    expect(r.stdout).toContain(`cli:  ${CLI_MAIN_PATH} (exists)`);
    expect(r.stdout).toContain("an earlier entry point (main.js): run 'chronoscope hooks install claude-code' again");
    await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    r = await runCli(['hooks', 'status', '--workspace', ws], { env });
    expect(r.stdout).toContain(`cli:  ${CLI_PATH} (exists)`);
    expect(r.stdout).not.toContain('earlier entry point');
  });

  it('the installed command runs through a shell with NODE_EXTRA_CA_CERTS emptied: Node reads no certificate file at start', async () => {
    await runCli(['hooks', 'install', 'claude-code', '--workspace', ws], { env });
    const hooks = (await read())['hooks'] as Record<string, { hooks: { command: string }[] }[]>;
    const command = hooks['PreToolUse']![0]!.hooks[0]!.command;
    const payload = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: join(ws, 'a.txt') }, tool_use_id: 'r1' });
    // A file that is not there: Node warns at start-up when it tries to read it.
    const run = (line: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
        const child = spawn('sh', ['-c', line], { cwd: ws, env: { ...env, NODE_EXTRA_CA_CERTS: join(dir, 'no-such-ca.pem') }, stdio: ['pipe', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
        child.stdin.end(payload);
      });
    expect(await run(command)).toEqual({ code: 0, stderr: '' });
    // The same command without the assignment: the certificate file is read (and its absence warned about).
    expect((await run(command.replace(/^NODE_EXTRA_CA_CERTS= /, ''))).stderr).toContain('extra certs');
  });

  it('refuses an agent it does not know', async () => {
    const r = await runCli(['hooks', 'install', 'cursor', '--workspace', ws], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown agent');
  });
});
