// Prompts for a seeded history (seed-history.ts, `prompts: true`): Claude
// Code's checkpoints are made under prompts — a new one when its session
// starts a run and every few checkpoints within it — each written to the
// workspace's prompt ledger (electron/prompts/ledger.ts, its own line format)
// with the checkpoint before it, and now and then a failed `npm test` call.
// The checkpoints carry prompt_id (their commit messages, written by the
// seeder); the ledger is written once the commits exist, so `before` names a
// real checkpoint.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CallRecord } from '../../shared/model.js';
import type { Workspace } from '../../electron/engine/api.js';
import { promptLedgerPath } from '../../electron/prompts/ledger.js';

export interface SeededPrompt {
  id: string;
  text: string;
  first_line: string;
  session: string;
  time_ms: number;
  /** A failed call under it (its time), or null. */
  failed_at: number | null;
}

const ASKS = [
  'Refactor the storage layer to use JWT sessions',
  'Fix the flaky login test',
  'Add a changelog entry for the release',
  'Rename the time helpers to clock',
  'Make the parser accept trailing commas',
  'Split the settings form into smaller components',
];

/** Every this many of Claude Code's checkpoints, a new prompt. */
const PER_PROMPT = 6;

export function promptPlan(): { next(session: string, timeMs: number, out: SeededPrompt[]): SeededPrompt } {
  let current: SeededPrompt | null = null;
  let left = 0;
  return {
    next(session, timeMs, out) {
      if (current === null || current.session !== session || left === 0) {
        const n = out.length;
        // Whole milliseconds: a seeded time is fractional, and a '.' in the id fails PROMPT_ID_PATTERN, which drops the checkpoints' prompt_id.
        const at = Math.max(0, Math.floor(timeMs) - 1);
        const first = `${ASKS[n % ASKS.length]} (#${n + 1})`;
        current = {
          id: `p${at.toString(36)}${(n + 0x10000000).toString(16).slice(-8)}`,
          text: `${first}\nKeep the public API as it is and run the tests when done.`,
          first_line: first,
          session,
          time_ms: at,
          failed_at: n % 5 === 4 ? timeMs + 1 : null,
        };
        out.push(current);
        left = PER_PROMPT;
      }
      left--;
      return current;
    },
  };
}

/** The ledger lines of `prompts`, each with the workspace's latest checkpoint before it. */
export async function writePromptLedger(home: string, ws: Workspace, prompts: readonly SeededPrompt[]): Promise<void> {
  const oldestFirst = (await ws.list()).slice().reverse();
  const lines: string[] = [];
  let at = 0;
  for (const p of prompts) {
    while (at < oldestFirst.length && oldestFirst[at]!.time_ms < p.time_ms) at++;
    const before = oldestFirst[at - 1]?.id ?? null;
    lines.push(JSON.stringify({ kind: 'prompt', id: p.id, text: p.text, agent: 'claude-code', session: p.session, time: new Date(p.time_ms).toISOString(), time_ms: p.time_ms, before }));
    if (p.failed_at !== null) {
      const call: CallRecord & { kind: 'call' } = {
        kind: 'call',
        prompt_id: p.id,
        agent: 'claude-code',
        session: p.session,
        tool: 'Bash',
        reason: 'Bash: npm test',
        status: 'failed',
        exit_code: 1,
        output_tail: 'FAIL tests/login.test.ts\n  expected 200, got 401',
        time: new Date(p.failed_at).toISOString(),
        time_ms: p.failed_at,
      };
      lines.push(JSON.stringify(call));
    }
  }
  const file = promptLedgerPath(home, ws.meta.id);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${lines.join('\n')}\n`);
}
