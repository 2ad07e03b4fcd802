// Issue 39, item 6: `hooks uninstall` gives every agent's config back byte for byte — 2 or 4 spaces,
// tabs, CRLF — and where install created a file (or a folder, or a key of ~/.claude.json) it is gone
// again, not left as `{}`. Real CLI processes (`node dist/electron/cli/bin.cjs hooks …`), a temp HOME.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from './run-cli.js';

type Format = '2 spaces' | '4 spaces' | 'tabs' | 'CRLF' | 'absent';
const FORMATS: Format[] = ['2 spaces', '4 spaces', 'tabs', 'CRLF', 'absent'];

let dir: string;
let ws: string;
let home: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-install-bytes-'));
  ws = join(dir, 'ws');
  home = join(dir, 'home');
  await mkdir(ws);
  await mkdir(home);
  env = baseEnv(join(dir, 'store'), { HOME: home, XDG_CONFIG_HOME: '', CODEX_HOME: '', COPILOT_HOME: '', HERMES_HOME: '' });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function lines(text: string, format: Format): string {
  return format === 'CRLF' ? text.replace(/\n/g, '\r\n') : text;
}

function json(value: unknown, format: Format): string {
  return lines(`${JSON.stringify(value, null, format === '4 spaces' ? 4 : format === 'tabs' ? '\t' : 2)}\n`, format);
}

function indent(format: Format): string {
  return format === '4 spaces' ? '    ' : format === 'tabs' ? '\t' : '  ';
}

function toml(format: Format): string {
  const i = indent(format);
  return lines(`# my settings\nmodel = "o3"\n\n[profiles.fast]\n${i}model = "o4-mini"\n${i}approval_policy = "never"\n`, format);
}

function yaml(format: Format): string {
  const i = indent(format);
  return lines(`# my Hermes\nmodel:\n${i}provider: openrouter   # the one I pay for\nplugins:\n${i}enabled:\n${i}${i}- other\n`, format);
}

const HOOKS = { Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }] };

interface Case {
  name: string;
  args: string[];
  /** The person's files before install (relative to the temp folder), for a format. */
  files: (format: Format) => Record<string, string>;
  formats?: Format[];
}

const CASES: Case[] = [
  { name: 'claude-code --project --mcp', args: ['claude-code', '--project', '--mcp', '--workspace', 'WS'], files: (f) => ({ 'ws/.claude/settings.json': json({ model: 'opus', permissions: { allow: ['Bash(npm test)'] }, hooks: HOOKS }, f), 'ws/.mcp.json': json({ mcpServers: { other: { type: 'stdio', command: 'x', args: [] } } }, f) }) },
  { name: 'claude-code --user --mcp', args: ['claude-code', '--user', '--mcp'], files: (f) => ({ 'home/.claude/settings.json': json({ model: 'opus', hooks: HOOKS }, f), 'home/.claude.json': json({ numStartups: 3, projects: {} }, f) }) },
  { name: 'codex --project', args: ['codex', '--project', '--workspace', 'WS'], files: (f) => ({ 'ws/.codex/config.toml': toml(f) }) },
  { name: 'codex --user --mcp', args: ['codex', '--user', '--mcp'], files: (f) => ({ 'home/.codex/config.toml': toml(f) }) },
  { name: 'gemini --project --mcp', args: ['gemini', '--project', '--mcp', '--workspace', 'WS'], files: (f) => ({ 'ws/.gemini/settings.json': json({ theme: 'Dracula', hooks: { AfterAgent: HOOKS.Stop } }, f) }) },
  { name: 'gemini --user', args: ['gemini', '--user'], files: (f) => ({ 'home/.gemini/settings.json': json({ theme: 'Dracula', mcpServers: { other: { command: 'x' } } }, f) }) },
  { name: 'copilot --user --mcp', args: ['copilot', '--user', '--mcp'], files: (f) => ({ 'home/.copilot/settings.json': json({ model: 'gpt-5', hooks: { Stop: [{ type: 'command', bash: 'true' }] } }, f), 'home/.copilot/mcp-config.json': json({ mcpServers: { other: { type: 'local', command: 'x', args: [] } } }, f) }) },
  // The project hooks file is a file of our own: there is only the case without it.
  { name: 'copilot --project', args: ['copilot', '--project', '--workspace', 'WS'], files: () => ({}), formats: ['absent'] },
  { name: 'opencode --project --mcp', args: ['opencode', '--project', '--mcp', '--workspace', 'WS'], files: (f) => ({ 'ws/opencode.json': json({ $schema: 'https://opencode.ai/config.json', model: 'anthropic/claude-sonnet-4' }, f) }) },
  { name: 'opencode --user --mcp', args: ['opencode', '--user', '--mcp'], files: (f) => ({ 'home/.config/opencode/opencode.json': json({ $schema: 'https://opencode.ai/config.json', theme: 'tokyonight' }, f) }) },
  // YAML allows no tabs in indentation.
  { name: 'hermes', args: ['hermes', '--hermes-home', 'HOME/.hermes'], files: (f) => ({ 'home/.hermes/config.yaml': yaml(f) }), formats: ['2 spaces', '4 spaces', 'CRLF', 'absent'] },
];

/** Every folder and file under the workspace and HOME, files with their bytes. */
async function tree(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const top of [ws, home]) {
    for (const e of await readdir(top, { recursive: true, withFileTypes: true })) {
      const p = join(e.parentPath, e.name);
      out[relative(dir, p)] = e.isDirectory() ? '<folder>' : await readFile(p, 'latin1');
    }
  }
  return out;
}

function argsFor(c: Case): string[] {
  return c.args.map((a) => (a === 'WS' ? ws : a.startsWith('HOME/') ? join(home, a.slice(5)) : a));
}

describe('hooks install then uninstall gives every config back byte for byte', () => {
  for (const c of CASES) {
    for (const format of c.formats ?? FORMATS) {
      it(`${c.name}, ${format}`, async () => {
        if (format !== 'absent') {
          for (const [rel, text] of Object.entries(c.files(format))) {
            await mkdir(dirname(join(dir, rel)), { recursive: true });
            await writeFile(join(dir, rel), text);
          }
        }
        const before = await tree();
        const install = await runCli(['hooks', 'install', ...argsFor(c)], { env, cwd: ws });
        expect(install.stderr).toBe('');
        expect(install.code).toBe(0);
        expect(await tree()).not.toEqual(before);
        const uninstall = await runCli(['hooks', 'uninstall', ...argsFor(c)], { env, cwd: ws });
        expect(uninstall.stderr).toBe('');
        expect(uninstall.code).toBe(0);
        expect(await tree()).toEqual(before);
      });
    }
  }
});

describe('a config the agent rewrote since install', () => {
  for (const format of ['2 spaces', '4 spaces', 'tabs', 'CRLF'] as Format[]) {
    it(`~/.claude.json (${format}): uninstall --mcp takes out our server and the mcpServers key install added, keeping the rest in its own format`, async () => {
      const file = join(home, '.claude.json');
      await writeFile(file, json({ numStartups: 3 }, format));
      expect((await runCli(['hooks', 'install', 'claude-code', '--user', '--mcp'], { env, cwd: ws })).code).toBe(0);
      // Claude Code rewrites its state file as it runs.
      const state = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      await writeFile(file, json({ ...state, numStartups: 4 }, format));
      const r = await runCli(['hooks', 'uninstall', 'claude-code', '--user', '--mcp'], { env, cwd: ws });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`MCP server removed: ${file}`);
      expect(await readFile(file, 'utf8')).toBe(json({ numStartups: 4 }, format));
    });
  }

  it('~/.claude.json created by install and rewritten by Claude Code since: our key goes, theirs stay', async () => {
    const file = join(home, '.claude.json');
    expect((await runCli(['hooks', 'install', 'claude-code', '--user', '--mcp'], { env, cwd: ws })).code).toBe(0);
    const state = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, json({ ...state, numStartups: 1 }, '2 spaces'));
    expect((await runCli(['hooks', 'uninstall', 'claude-code', '--user', '--mcp'], { env, cwd: ws })).code).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ numStartups: 1 });
  });
});
