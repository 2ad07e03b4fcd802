// What runs is visible: the app lists every folder the service watches (one
// watched for an agent's hooks too, marked, and removing it stops watching),
// a CLI snapshot handed to the service adds no watch, and `daemon --status`
// (the service's status answer) says the same as the app's list.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { agentSocketPath } from '../../electron/agents/core/delegate-socket.js';
import { askService } from '../../electron/agents/core/service-control.js';
import { createRouter } from '../../electron/router/index.js';
import { tempDirs, waitFor, type TempDirs } from './helpers.js';
import { baseEnv, runCli } from '../agents/run-cli.js';

let dirs: TempDirs;
let app: AppService | null = null;

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-watched-');
  await mkdir(join(dirs.workspace, 'src'), { recursive: true });
  await writeFile(join(dirs.workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
});
afterEach(async () => {
  await app?.dispose();
  app = null;
  await dirs.cleanup();
});

async function statusWorkspaces(): Promise<string[]> {
  return (await askService(agentSocketPath(dirs.home), { control: 'status' }, 10_000))?.workspaces ?? [];
}

describe("the app's workspace list and `daemon --status`", () => {
  it('agree after a CLI snapshot (no watch added) and after an agent\'s hook (watched, shown, stoppable)', async () => {
    app = await createAppService({ home: dirs.home, host: 'browser', version: 'test', watch: true, pollMs: 100 });
    const router = createRouter(app);
    const list = async (): Promise<{ path: string; for_agents?: true }[]> => {
      const r = await router.invoke('workspaces:list', {});
      if (!r.ok) throw new Error(r.error.message);
      return r.value as { path: string; for_agents?: true }[];
    };

    const snap = await runCli(['snapshot', '-m', 'by hand', '-w', dirs.workspace], { env: { ...process.env, ...baseEnv(dirs.home) }, cwd: dirs.workspace });
    expect(snap.code, snap.stderr).toBe(0);
    expect(snap.stdout).toMatch(/^checkpoint /);
    expect(await list()).toEqual([]);
    expect(await statusWorkspaces()).toEqual([]);

    const hook = await runCli(['hook', 'claude-code'], {
      input: JSON.stringify({ session_id: 's', cwd: dirs.workspace, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(dirs.workspace, 'src', 'app.ts') }, tool_use_id: 't1' }),
      env: { ...process.env, ...baseEnv(dirs.home) },
      cwd: dirs.workspace,
    });
    expect(hook.code, hook.stderr).toBe(0);
    const shown = await waitFor('the agent\'s workspace in the list', async () => ((await list()).length > 0 ? list() : undefined));
    expect(shown).toMatchObject([{ path: dirs.workspace, for_agents: true }]);
    expect(await statusWorkspaces()).toEqual([dirs.workspace]);

    // "Stop watching": the list and the status both drop it.
    const removed = await router.invoke('workspaces:remove', { workspace: dirs.workspace });
    expect(removed).toMatchObject({ ok: true, value: { removed: true } });
    expect(await list()).toEqual([]);
    expect(await statusWorkspaces()).toEqual([]);
  });
});
