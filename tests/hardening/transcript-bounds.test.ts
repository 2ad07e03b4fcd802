// The payload names transcript_path, so it is hostile input: a FIFO or
// /dev/zero there must neither keep the hook process alive past its budget
// nor fill its memory. Real hook processes (Claude Code's prompt hook reads
// the transcript for effect memory; Codex's PostToolUse reads its rollout
// file), a generous outer deadline (a hang shows as a null exit code), and
// the process's own peak RSS reported at exit by a preloaded module.
import { execFileSync, spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { CLI_PATH } from '../paths.js';
import { baseEnv, runCli } from '../agents/run-cli.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-transcript-', { 'a.txt': 'one\n' }));
});
afterEach(() => removeTempProject(dir));

const BUDGET_MS = 3000;
/** Far past the budget: only a process that never exits reaches it. */
const DEADLINE_MS = 60_000;
/** A hook process takes ~50 MB; /dev/zero read whole took it past 1 GB. */
const MAX_RSS_MB = 200;

/** Preloaded with --import: at exit, the process's peak resident memory (KB) into RSS_LOG. */
const RSS_RECORDER = `import { writeFileSync } from 'node:fs';
process.on('exit', () => writeFileSync(process.env.RSS_LOG, String(process.resourceUsage().maxRSS)));
`;

interface HookRun {
  code: number | null;
  stderr: string;
  maxRssMb: number | null;
}

function hook(agent: string, input: string): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    void (async () => {
      const recorder = join(dir, 'rss.mjs');
      const log = join(dir, 'rss.log');
      await writeFile(recorder, RSS_RECORDER);
      const env = baseEnv(home, { CHRONOSCOPE_HOOK_BUDGET_MS: String(BUDGET_MS), CHRONOSCOPE_NO_DELEGATE: '1', RSS_LOG: log });
      const child = spawn(process.execPath, ['--import', recorder, CLI_PATH, 'hook', agent], { cwd: ws, env, stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        void readFile(log, 'utf8').then(
          (kb) => resolve({ code, stderr, maxRssMb: Number(kb) / 1024 }),
          () => resolve({ code, stderr, maxRssMb: null }),
        );
      });
      child.stdin.end(input);
    })().catch(reject);
  });
}

/** Effect memory reads the transcript only when the store holds a ledger: one intended publish makes one. */
async function recordAnEffect(): Promise<void> {
  const pre = JSON.stringify({ session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm publish' }, tool_use_id: 't0' });
  const r = await runCli(['hook', 'claude-code'], { input: pre, env: baseEnv(home), cwd: ws });
  expect(r.code).toBe(0);
  const effects = await runCli(['effects', '--json', '-w', ws], { env: baseEnv(home) });
  expect(JSON.parse(effects.stdout)).toHaveLength(1);
}

function transcriptAt(kind: 'fifo' | '/dev/zero'): string {
  if (kind === '/dev/zero') return '/dev/zero';
  const fifo = join(dir, 'transcript.fifo');
  execFileSync('mkfifo', [fifo]);
  return fifo;
}

describe('transcript_path is read bounded', () => {
  for (const kind of ['fifo', '/dev/zero'] as const) {
    it(`Claude Code's prompt hook with ${kind} as transcript_path exits within its budget, small`, async () => {
      await recordAnEffect();
      const transcript = transcriptAt(kind);
      const prompt = JSON.stringify({ session_id: 's', transcript_path: transcript, cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'go on' });
      const r = await hook('claude-code', prompt);
      expect(r.code, r.stderr).toBe(0);
      expect(r.maxRssMb).not.toBeNull();
      expect(r.maxRssMb!).toBeLessThan(MAX_RSS_MB);
    });

    it(`Codex's PostToolUse with ${kind} as its rollout file exits within its budget, small`, async () => {
      const transcript = transcriptAt(kind);
      const post = JSON.stringify({
        session_id: 's',
        turn_id: 'u',
        transcript_path: transcript,
        cwd: ws,
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'call_1',
        tool_response: 'a.txt',
      });
      const r = await hook('codex', post);
      expect(r.code, r.stderr).toBe(0);
      expect(r.maxRssMb).not.toBeNull();
      expect(r.maxRssMb!).toBeLessThan(MAX_RSS_MB);
    });
  }
});
