// `chronoscope hook copilot` as Copilot CLI runs it: a real process fed the
// payloads Copilot 1.0.102 really sent (captured against the fake API in
// fixtures/copilot-1.0.102-hooks.jsonl), rewritten to a temp workspace.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { git, gitBackdated } from '../effects/git-helpers.js';
import { baseEnv, listCheckpoints, listEffects, runCli } from './run-cli.js';

const CAPTURED = readFileSync(join(__dirname, 'fixtures', 'copilot-1.0.102-hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as { ev: string; payload: Record<string, unknown> });

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-copilot-', { 'a.txt': 'hi\n' }));
});
afterEach(() => removeTempProject(dir));

/** The n-th captured payload of a PascalCase event, moved to the temp workspace. */
function captured(event: string, n = 0): string {
  const found = CAPTURED.filter((c) => c.ev === event)[n];
  if (found === undefined) throw new Error(`no captured ${event} #${n}`);
  return JSON.stringify(found.payload).replaceAll('/tmp/cp/ws', ws);
}

const hook = (input: string) => runCli(['hook', 'copilot'], { input, env: baseEnv(home), cwd: ws });

describe('chronoscope hook copilot (payloads captured from Copilot CLI 1.0.102)', () => {
  it('labels the lane with the prompt and takes a copilot checkpoint before a create', async () => {
    expect((await hook(captured('UserPromptSubmit'))).code).toBe(0);
    const pre = await hook(captured('PreToolUse', 0));
    expect(pre).toMatchObject({ code: 0, stdout: '' });
    // The prompt met the workspace first: its baseline is the state before the prompt.
    expect((await listCheckpoints(home, ws))[0]).toMatchObject({ agent: 'copilot', trigger: 'baseline' });
    await writeFile(join(ws, 'new.txt'), 'hello\n');
    expect((await hook(captured('PostToolUse', 0))).code).toBe(0);
    // Working alone, the create's own file is checkpointed as it ends, labelled with the prompt.
    const [cp] = await listCheckpoints(home, ws);
    expect(cp).toMatchObject({ agent: 'copilot', tool: 'Write', change_by: 'call', paths: ['new.txt'] });
    expect(cp!.prompt).toContain('make new.txt and push');
  });

  it('denies a git push with a reason telling the model to ask the person, and records it denied', async () => {
    const bare = join(dir, 'remote.git');
    git(dir, 'init', '-q', '--bare', bare);
    git(ws, 'init', '-q', '-b', 'main');
    git(ws, 'remote', 'add', 'origin', bare);
    git(ws, 'add', '.');
    git(ws, 'commit', '-q', '-m', 'one');
    gitBackdated(ws, 120, 'push', '-q', '-u', 'origin', 'main');
    await writeFile(join(ws, 'a.txt'), 'two\n');
    git(ws, 'commit', '-q', '-am', 'two');

    const r = await hook(captured('PreToolUse', 1));
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { permissionDecision: string; permissionDecisionReason: string };
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toContain('ask the person');
    const recorded = await listEffects(home, ws);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ kind: 'git_push', status: 'denied', source: 'hook' });
  });
});
