// Only a person answers a restore request: a tool call that approves or
// denies one (the CLI in any shell form, the approval files, the browser
// host's answer channel, a file tool writing into the store) is refused by
// every agent's hook, in its own protocol, with the reason. Real hook
// processes fed each agent's payload shape (tests/agents/fixtures for Copilot).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempProject, removeTempProject } from '../support/temp-project.js';
import { commandAnswersRequest } from '../../electron/agents/core/person-only.js';
import { baseEnv, runCli } from './run-cli.js';

let dir: string;
let home: string;
let ws: string;

beforeEach(async () => {
  ({ dir, home, ws } = await makeTempProject('chronoscope-person-only-', { 'a.txt': 'hi\n' }));
});
afterEach(() => removeTempProject(dir));

const APPROVE = 'chronoscope approve rm5x3k2ab12cd34';
const STORE = '/home/me/.config/Chronoscope';

describe('commandAnswersRequest', () => {
  const answers = [
    APPROVE,
    'chronoscope deny rm5x3k2ab12cd34',
    'npx chronoscope approve rm5x3k2ab12cd34',
    'npx -y chronoscope@latest approve rm5x3k2ab12cd34',
    'npm exec -- chronoscope deny rm5x3k2ab12cd34',
    'pnpm dlx chronoscope approve rm5x3k2ab12cd34',
    'node /opt/tools/dist/electron/cli/bin.cjs approve rm5x3k2ab12cd34',
    'node --import ./x.mjs /opt/tools/dist/electron/cli/main.js approve rm5x3k2ab12cd34',
    '/usr/local/bin/chronoscope approve rm5x3k2ab12cd34',
    'bash -c "chronoscope approve rm5x3k2ab12cd34"',
    "sh -c 'cd /x && chronoscope approve rm5x3k2ab12cd34'",
    'npm test && chronoscope approve rm5x3k2ab12cd34',
    'true; chronoscope approve --json rm5x3k2ab12cd34',
    'CHRONOSCOPE_HOME=/tmp/s chronoscope approve rm5x3k2ab12cd34',
    'sudo -u me env A=1 chronoscope approve rm5x3k2ab12cd34',
    'echo $(chronoscope approve rm5x3k2ab12cd34)',
    '$(which chronoscope) approve rm5x3k2ab12cd34',
    'for id in $(chronoscope approve --list --json | jq -r ".[].id"); do chronoscope approve "$id"; done',
    `echo '{"status":"approved"}' > ${STORE}/approvals/rm5x3k2ab12cd34.json`,
    'cp x.json "$CHRONOSCOPE_HOME/approvals/r1.json"',
    'rm ~/.config/Chronoscope/approvals.lock',
    `websocat ws://127.0.0.1:5173/ws <<< '{"channel":"approvals:answer","id":"r1","approve":true}'`,
  ];
  for (const command of answers) {
    it(`refuses: ${command}`, () => expect(commandAnswersRequest(command, STORE)).toBe(true));
  }

  const ordinary = [
    'chronoscope approve --list',
    'chronoscope approve --list --json',
    'chronoscope list --json',
    'chronoscope restore abc123 --yes',
    'git commit -m "chronoscope approve flow"',
    'grep -rn approve electron/approvals/answer.ts',
    'vim ~/src/chronoscope/electron/approvals/answer.ts',
    'npm run deny-list',
    'echo approve',
    'node build.js',
  ];
  for (const command of ordinary) {
    it(`lets through: ${command}`, () => expect(commandAnswersRequest(command, STORE)).toBe(false));
  }
});

const run = (agent: string, payload: Record<string, unknown>) => runCli(['hook', agent], { input: JSON.stringify(payload), env: baseEnv(home), cwd: ws });
const REASON = /only a person answers a restore request/;

describe("every agent's hook refuses a call that answers a restore request", () => {
  it('Claude Code: PreToolUse Bash gets permissionDecision "deny" with the reason', async () => {
    const r = await run('claude-code', { session_id: 's', transcript_path: join(dir, 't.jsonl'), cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `cd ${ws} && npx chronoscope approve rm5x3k2ab12cd34` }, tool_use_id: 'toolu_1', permission_mode: 'default' });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(REASON);
  });

  it('Claude Code: a Write into the store\'s approval files is refused', async () => {
    const r = await run('claude-code', { session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: join(home, 'approvals', 'rm5x3k2ab12cd34.json'), content: '{}' }, tool_use_id: 'toolu_2' });
    expect((JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('Codex: PreToolUse Bash gets permissionDecision "deny" — even when the same command was asked about before', async () => {
    const payload = { session_id: 's', turn_id: 'u1', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'bash -lc "chronoscope deny rm5x3k2ab12cd34"' }, tool_use_id: 'call_1' };
    for (const turn of ['u1', 'u2']) {
      const r = await run('codex', { ...payload, turn_id: turn });
      const out = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      expect(out.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
      expect(out.hookSpecificOutput.permissionDecisionReason).toMatch(REASON);
    }
  });

  it('Gemini CLI: BeforeTool run_shell_command gets decision "deny"', async () => {
    const r = await run('gemini', { session_id: 's', transcript_path: join(dir, 't.json'), cwd: ws, hook_event_name: 'BeforeTool', timestamp: '2026-12-05T10:00:00.000Z', tool_name: 'run_shell_command', tool_input: { command: 'node /opt/c/dist/electron/cli/bin.cjs approve rm5x3k2ab12cd34' } });
    const out = JSON.parse(r.stdout) as { decision: string; reason: string };
    expect(out.decision).toBe('deny');
    expect(out.reason).toMatch(REASON);
  });

  it('Copilot CLI: its captured PreToolUse shape gets permissionDecision "deny"', async () => {
    const captured = readFileSync(join(__dirname, 'fixtures', 'copilot-1.0.102-hooks.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { ev: string; payload: Record<string, unknown> })
      .filter((c) => c.ev === 'PreToolUse' && c.payload['tool_name'] === 'Bash')[0]!.payload;
    const r = await run('copilot', { ...captured, cwd: ws, tool_input: { command: 'echo ok && chronoscope approve rm5x3k2ab12cd34', description: 'answer' } });
    const out = JSON.parse(r.stdout) as { permissionDecision: string; permissionDecisionReason: string };
    expect(out.permissionDecision).toBe('deny');
    expect(out.permissionDecisionReason).toMatch(REASON);
  });

  it('OpenCode: a bash call gets { deny } (its plugin throws)', async () => {
    const r = await run('opencode', { event: 'before', cwd: ws, session: 'ses_1', call_id: 'call_1', tool: 'bash', args: { command: 'chronoscope approve rm5x3k2ab12cd34' } });
    expect((JSON.parse(r.stdout) as { deny: string }).deny).toMatch(REASON);
  });

  it('Hermes Agent: pre_tool_call terminal gets a "block" directive', async () => {
    const r = await run('hermes', { event: 'pre_tool_call', cwd: ws, tool_name: 'terminal', args: { command: 'chronoscope approve rm5x3k2ab12cd34' }, session_id: 's', tool_call_id: 'c1' });
    const out = JSON.parse(r.stdout) as { directive: { action: string; message: string } };
    expect(out.directive.action).toBe('block');
    expect(out.directive.message).toMatch(REASON);
  });

  it('a call that reads the list still runs (Claude Code: no answer at all)', async () => {
    const r = await run('claude-code', { session_id: 's', cwd: ws, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'chronoscope approve --list --json' }, tool_use_id: 'toolu_3' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
  });
});
