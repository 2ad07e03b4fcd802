// Issue 40, finding 1: `hooks install|uninstall <agent> --project` never writes outside the workspace
// through a config folder (or file) that is a symbolic link to somewhere else. Real CLI processes.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let ws: string;
let elsewhere: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chronoscope-install-links-'));
  ws = join(dir, 'ws');
  elsewhere = join(dir, 'elsewhere');
  await mkdir(ws);
  await mkdir(join(dir, 'home'));
  env = baseEnv(join(dir, 'store'), { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config') });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every file under `root`, with its bytes. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (name.isFile()) out[join(name.parentPath, name.name)] = await readFile(join(name.parentPath, name.name), 'utf8');
  }
  return out;
}

/** Each agent's project config folders, outermost first, and the extra flags that write more files. */
const CASES: { agent: string; link: string; flags?: string[] }[] = [
  { agent: 'claude-code', link: '.claude' },
  { agent: 'claude-code', link: '.mcp.json', flags: ['--mcp'] },
  { agent: 'codex', link: '.codex' },
  { agent: 'gemini', link: '.gemini' },
  { agent: 'copilot', link: '.github' },
  { agent: 'copilot', link: '.github/hooks' },
  { agent: 'opencode', link: '.opencode' },
  { agent: 'opencode', link: '.opencode/plugin' },
  { agent: 'opencode', link: 'opencode.json', flags: ['--mcp'] },
];

describe('hooks install|uninstall --project with a config folder linked out of the workspace', () => {
  for (const { agent, link, flags = [] } of CASES) {
    it(`${agent}${flags.length > 0 ? ` ${flags.join(' ')}` : ''}: ${link} → elsewhere is refused, naming the link; nothing written there`, async () => {
      const isFile = link.endsWith('.json');
      // The link target holds the person's own settings (as a cloned repository's link would point at).
      if (isFile) {
        await mkdir(elsewhere);
        await writeFile(join(elsewhere, 'theirs.json'), '{\n    "theirs": true\n}\n');
      } else {
        await mkdir(elsewhere);
        await writeFile(join(elsewhere, 'settings.json'), '{\n    "theirs": true\n}\n');
      }
      await mkdir(dirname(join(ws, link)), { recursive: true });
      await symlink(isFile ? join(elsewhere, 'theirs.json') : elsewhere, join(ws, link));
      const before = await snapshot(elsewhere);

      const r = await runCli(['hooks', 'install', agent, '--project', ...flags, '--workspace', ws], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`${join(ws, link)} is a symbolic link that leads outside the workspace`);
      expect(await snapshot(elsewhere)).toEqual(before);

      // Uninstall through the same link: refused too, the target untouched.
      const u = await runCli(['hooks', 'uninstall', agent, '--project', ...flags, '--workspace', ws], { env });
      expect(u.code).toBe(1);
      expect(u.stderr).toContain(`${join(ws, link)} is a symbolic link that leads outside the workspace`);
      expect(await snapshot(elsewhere)).toEqual(before);
    });
  }

  for (const { agent, link } of CASES.filter((c) => c.flags === undefined)) {
    it(`${agent}: an install moved out and linked back (${link}) is not uninstalled through the link`, async () => {
      // Installed in a real folder, which is then moved away and linked in its place.
      const install = await runCli(['hooks', 'install', agent, '--project', '--workspace', ws], { env });
      expect(install.code).toBe(0);
      await cp(join(ws, link), elsewhere, { recursive: true });
      await rm(join(ws, link), { recursive: true });
      await symlink(elsewhere, join(ws, link));
      const before = await snapshot(elsewhere);
      const u = await runCli(['hooks', 'uninstall', agent, '--project', '--workspace', ws], { env });
      expect(u.code).toBe(1);
      expect(u.stderr).toContain(`${join(ws, link)} is a symbolic link that leads outside the workspace`);
      expect(await snapshot(elsewhere)).toEqual(before);
    });
  }
});
