// Secrets in an agent's commands and prompts never reach the store, nor what
// list, show and effects print: real hook processes (Claude Code's payloads),
// the store read with git directly, the CLI's JSON. And a store written before
// the rule (a commit message and a ledger line as typed) is masked on the way out.
import { execFileSync } from 'node:child_process';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../shared/model.js';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { storeGit as storeGitIn } from '../engine/helpers.js';
import { baseEnv, listCheckpoints, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-secrets-', { 'src/app.ts': 'export const answer = 41;\n', 'package.json': '{"name":"demo","version":"1.0.0"}\n' }));
});
afterEach(() => removeTempProject(dir));

// Made up, in the shapes the real ones have.
const GHP = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const NPM = 'npm_' + 'x9Yz8Wv7Ut6Sr5Qp4On3Ml2Kj1Ih0GfEdCbA';
const SK = 'sk-proj-' + 'Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56';
const SESSION = '9f8e7d6c5b4a3f2e';
const ACCESS = 'a1b2c3d4e5f60718';
const SECRETS = [GHP, NPM, SK, SESSION, ACCESS, 'hunter2'];

const PUBLISH = `GITHUB_TOKEN=${GHP} npm publish --//registry.npmjs.org/:_authToken=${NPM}`;
const CURL = `curl -H "X-Api-Key: ${SK}" -H "Cookie: session=${SESSION}" "https://x.example/upload?access_token=${ACCESS}" -T dist.tgz`;

function payload(event: string, extra: Record<string, unknown>): string {
  return JSON.stringify({ session_id: 'sess-1', transcript_path: join(dir, 'transcript.jsonl'), cwd: ws, hook_event_name: event, permission_mode: 'default', ...extra });
}
const hook = (input: string) => runCli(['hook', 'claude-code'], { input, env: baseEnv(home), cwd: ws });
const bash = (event: string, command: string, id: string, extra: Record<string, unknown> = {}) => hook(payload(event, { tool_name: 'Bash', tool_input: { command }, tool_use_id: id, ...extra }));

const storeGit = (args: string[]): string => storeGitIn(home, args);

/** Every commit message in the store, read with git itself. */
const storeMessages = (): string => storeGit(['log', '--all', '--format=%B']);

async function cliJson(args: string[]): Promise<string> {
  const r = await runCli([...args, '--json', '-w', ws], { env: baseEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** Every file under a folder of the store, concatenated (prompts/, the ledger). */
async function filesUnder(folder: string): Promise<string> {
  const names = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const texts = await Promise.all(names.filter((d) => d.isFile()).map((d) => readFile(join(d.parentPath, d.name), 'utf8')));
  return texts.join('\n');
}

function expectNoSecret(where: string, text: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), `${where} holds ${secret}`).toBe(false);
}

describe('secrets in commands and prompts', () => {
  it('never reach the store, list, show or effects', async () => {
    expect((await hook(payload('UserPromptSubmit', { prompt: `deploy with password hunter2 and token ${GHP}` }))).code).toBe(0);
    expect((await bash('PreToolUse', 'npm test', 'toolu_0')).code).toBe(0); // the baseline
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 42;\n');
    const ask = await bash('PreToolUse', PUBLISH, 'toolu_1');
    expect(ask.stdout).toContain('"ask"');
    expectNoSecret('the ask', ask.stdout);
    expect((await bash('PostToolUse', PUBLISH, 'toolu_1', { tool_response: { stdout: '+ demo@1.0.0', stderr: '', interrupted: false } })).code).toBe(0);
    await writeFile(join(ws, 'src', 'app.ts'), 'export const answer = 43;\n');
    expect((await bash('PreToolUse', CURL, 'toolu_2')).code).toBe(0);

    const list = await cliJson(['list', '--all']);
    const checkpoints = JSON.parse(list) as Checkpoint[];
    // The texts are there, readable, with the secrets masked.
    expect(checkpoints.map((c) => c.reason)).toContain('Bash: GITHUB_TOKEN=*** npm publish --//registry.npmjs.org/:_authToken=***');
    expect(checkpoints[0]!.prompt).toBe('deploy with password *** and token ghp_***');
    const effects = await cliJson(['effects']);
    expect(effects).toContain('npm publish --//registry.npmjs.org/:_authToken=***');

    expectNoSecret('the store\'s commit messages', storeMessages());
    expectNoSecret('list --json', list);
    for (const c of checkpoints) expectNoSecret(`show --json ${c.id}`, await cliJson(['show', c.id]));
    expectNoSecret('effects --json', effects);
    expectNoSecret('the store\'s prompt labels', await filesUnder(join(home, 'prompts')));
    expectNoSecret('the store\'s ledger', await filesUnder(join(home, 'workspaces')));
  });

  it('written as typed by an older version, are masked on the way out', async () => {
    expect((await runCli(['snapshot', '-w', ws, '--reason', 'first'], { env: baseEnv(home) })).code).toBe(0);
    const [cp] = await listCheckpoints(home, ws);
    // Rewrite the checkpoint's commit as an older version wrote it: the reason and the prompt as typed.
    const ref = storeGit(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/chronoscope/'])
      .split('\n')
      .find((l) => l.startsWith(`${cp!.id} `))!
      .split(' ')[1]!;
    const commit = storeGit(['cat-file', 'commit', ref]);
    const [head, body] = [commit.slice(0, commit.indexOf('\n\n')), commit.slice(commit.indexOf('\n\n') + 2)];
    const meta = body.slice(body.indexOf('\n\n') + 2).replace('"trigger"', `"prompt":${JSON.stringify(`use ${GHP}`)},"trigger"`);
    const old = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
      input: `${head}\n\nBash: ${CURL}\n\n${meta}`,
      env: { PATH: process.env['PATH'], GIT_DIR: join(home, 'git'), GIT_CONFIG_GLOBAL: os.devNull, GIT_CONFIG_NOSYSTEM: '1' },
      encoding: 'utf8',
    }).trim();
    storeGit(['update-ref', ref, old]);
    expect(storeMessages()).toContain(SK);
    // And a ledger line as typed.
    const [wsId] = await readdir(join(home, 'workspaces'));
    const line = { id: 'e1', kind: 'package_publish', target: 'registry.npmjs.org', command: PUBLISH, compensation: null, summary: 'npm publish', workspace: ws, time: new Date().toISOString(), time_ms: Date.now(), source: 'hook', status: 'happened', checkpoint: null };
    await appendFile(join(home, 'workspaces', wsId!, 'effects.jsonl'), `${JSON.stringify(line)}\n`);

    const list = await cliJson(['list', '--all']);
    const [shown] = JSON.parse(list) as Checkpoint[];
    expect(shown!.reason).toContain('X-Api-Key: ***');
    expectNoSecret('list --json', list);
    expectNoSecret('show --json', await cliJson(['show', shown!.id]));
    const effects = await cliJson(['effects']);
    expect(effects).toContain('GITHUB_TOKEN=***');
    expectNoSecret('effects --json', effects);
  });
});
