// What a hook process loads. It starts for every tool call, so its start-up
// is the product's hottest path: alone (no app running) it loads the CLI's
// CommonJS entry, the hook's bundle and the engine's bundle (CommonJS all
// three: no ES module loader to start), and nothing else — no module of
// node_modules, no module of the engine one by one, no zod (a settings file
// the plain check can judge), no simple-git (a snapshot does not use it).
// The process is real; a module-resolution hook and the
// CommonJS cache record every file it loads.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { baseEnv, listCheckpoints, runCli } from './run-cli.js';
import { CLI_MAIN_PATH } from '../paths.js';

/** Registered with --import: logs every file: URL the process resolves, and at exit the CommonJS modules it loaded. */
const RECORDER = `
import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
const log = process.env.LOAD_LOG;
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) appendFileSync(\${JSON.stringify(process.env.LOAD_LOG)}, r.url + '\\\\n');
  return r;
}\`));
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(log, Object.keys(cache).map((f) => 'cjs:' + f + '\\n').join('')));
`;

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-hook-lean-', { 'src/app.ts': 'export const answer = 41;\n' }));
});
afterEach(() => removeTempProject(dir));

async function runRecorded(input: string, log: string): Promise<{ code: number | null; stderr: string }> {
  const recorder = join(dir, 'recorder.mjs');
  await writeFile(recorder, RECORDER);
  const env = baseEnv(home, { LOAD_LOG: log, CHRONOSCOPE_NO_DELEGATE: '1' });
  const { code, stderr } = await runCli(['hook', 'claude-code'], { input, env, cwd: ws, nodeArgs: ['--import', recorder] });
  return { code, stderr };
}

describe('the hook process, working alone', () => {
  it('takes its checkpoint from the entry and the two bundles, loading nothing else of ours or of node_modules', async () => {
    // A settings file as the app writes it: the plain check takes it without zod.
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'config.json'), JSON.stringify({ watcher: { quiet_ms: 2000, max_wait_ms: 60_000 }, hook_budget_ms: 5000 }));
    const edit = (id: string) =>
      JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, 'src', 'app.ts') }, tool_use_id: id });
    // The first call takes the baseline; the second a checkpoint of a change (the snapshot path a hook takes every time).
    expect(await runRecorded(edit('t1'), join(dir, 'first.log'))).toEqual({ code: 0, stderr: '' });
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    const second = await runRecorded(edit('t2'), join(dir, 'load.log'));
    expect(second.stderr).toBe('');
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect((await listCheckpoints(home, ws)).map((c) => c.tool_use_id)).toEqual(['t2', 't1']);

    const loaded = (await readFile(join(dir, 'load.log'), 'utf8')).split('\n').filter((l) => l !== '');
    const ours = loaded
      .filter((l) => !l.endsWith('/recorder.mjs'))
      .map((l) => (l.startsWith('cjs:') ? pathToFileURL(l.slice(4)).href : l))
      .filter((u) => !u.includes('/node_modules/'));
    const files = ours.map((u) => u.replace(/^file:\/\/.*\/dist\//, 'dist/'));
    expect(files.filter((f) => !f.startsWith('dist/')), 'files outside dist/').toEqual([]);
    expect(files).toContain('dist/electron/cli/bin.cjs');
    expect(files).toContain('dist/electron/agents/core/hook-bundle.cjs');
    expect(files).toContain('dist/electron/agents/core/local-bundle/local.cjs');
    expect([...new Set(files)].sort(), 'modules loaded one by one').toEqual(['dist/electron/agents/core/hook-bundle.cjs', 'dist/electron/agents/core/local-bundle/local.cjs', 'dist/electron/cli/bin.cjs']);
    expect(loaded.filter((l) => l.includes('node_modules')), 'packages').toEqual([]);
    for (const url of ours) {
      const text = await readFile(new URL(url), 'utf8');
      expect(text.includes('ZodError'), `zod in ${url}`).toBe(false);
      // (Its name may appear, as what a store-wide command requires; its code may not.)
      expect(text.includes('GitResponseError'), `simple-git in ${url}`).toBe(false);
    }
  });

  it('loads only the entry and the hook bundle when it has nothing to do (a tool it does not watch, a shell call with no effect), and still runs from main.js (older installs)', async () => {
    const read = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: join(ws, 'src', 'app.ts') }, tool_use_id: 'r1' });
    // A shell call that succeeded with no effect to record (most of them): no engine, no store.
    const bash = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la' }, tool_response: { stdout: 'x', stderr: '', interrupted: false }, tool_use_id: 'b1' });
    for (const [name, payload] of [['read', read], ['bash', bash]] as const) {
      const log = join(dir, `${name}.log`);
      expect(await runRecorded(payload, log)).toEqual({ code: 0, stderr: '' });
      const loaded = (await readFile(log, 'utf8')).split('\n').filter((l) => l !== '' && !l.endsWith('/recorder.mjs'));
      // (--import runs even a CommonJS entry through the ES resolver: the entry's own name is all it may see.)
      expect(loaded.filter((l) => !l.startsWith('cjs:') && !l.endsWith('/dist/electron/cli/bin.cjs')), `${name}: ES modules`).toEqual([]);
      expect([...new Set(loaded.map((l) => l.replace(/^(cjs:|file:\/\/).*\/dist\//, 'dist/')))].sort(), name).toEqual(['dist/electron/agents/core/hook-bundle.cjs', 'dist/electron/cli/bin.cjs']);
    }
    expect(existsSync(join(home, 'workspaces')), 'the store was not even opened').toBe(false);

    const edit = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(ws, 'src', 'app.ts') }, tool_use_id: 'm1' });
    const viaMain = await runCli(['hook', 'claude-code'], { input: edit, env: baseEnv(home, { CHRONOSCOPE_NO_DELEGATE: '1' }), cwd: ws, entry: CLI_MAIN_PATH });
    expect(viaMain).toMatchObject({ code: 0, stderr: '' });
    expect((await listCheckpoints(home, ws)).map((c) => c.tool_use_id)).toEqual(['m1']);
  });
});
