// What every real agent's test checks of prompts (issue 41), through the real
// CLI on the real store: the prompt is recorded with the checkpoint before it,
// the checkpoints its calls took carry its id, the assistant's words before a
// call are recorded where the agent keeps a transcript, and a restore to
// before the prompt puts every file back — those a shell command changed too.
import { readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import type { CallRecord, Checkpoint } from '../../shared/model.js';
import { PromptLedger, type PromptEntry } from '../../electron/prompts/ledger.js';
import { workspaceId } from '../../electron/engine/layout/paths.js';
import { baseEnv, listCheckpoints, runCli } from './run-cli.js';

/** Every file under `dir` (not .git) with its text: what a restore must give back. */
export async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out[relative(dir, p)] = await readFile(p, 'utf8');
    }
  };
  await walk(dir);
  return out;
}

export async function promptLedger(home: string, ws: string): Promise<{ prompts: PromptEntry[]; calls: CallRecord[] }> {
  return new PromptLedger(home, workspaceId(await realpath(ws))).read();
}

export interface PromptExpectations {
  agent: string;
  /** Words of the prompt as the person gave it. */
  text: string;
  /** The assistant's words before a call, where the agent keeps a transcript; omitted: none is expected. */
  intent?: string;
}

/** The prompt in the ledger, with its checkpoints and calls; returns it. */
export async function expectPromptRecorded(home: string, ws: string, want: PromptExpectations): Promise<{ prompt: PromptEntry; checkpoints: Checkpoint[]; calls: CallRecord[] }> {
  const ledger = await promptLedger(home, ws);
  const prompt = ledger.prompts.find((p) => p.agent === want.agent && p.text.includes(want.text));
  expect(prompt, JSON.stringify(ledger.prompts)).toBeDefined();
  expect(prompt!.before).not.toBeNull();
  const all = await listCheckpoints(home, ws);
  const checkpoints = all.filter((c) => c.prompt_id === prompt!.id);
  expect(checkpoints.length, JSON.stringify(all.map((c) => [c.reason, c.prompt_id ?? null]))).toBeGreaterThan(0);
  const calls = ledger.calls.filter((c) => c.prompt_id === prompt!.id);
  expect(calls.length, JSON.stringify(ledger.calls)).toBeGreaterThan(0);
  if (want.intent !== undefined) expect(calls.map((c) => c.intent ?? '').join('\n')).toContain(want.intent);
  return { prompt: prompt!, checkpoints, calls };
}

/** `chronoscope restore <before> --yes` puts back exactly `files` (what the workspace held before the prompt). */
export async function expectRestoreToBefore(home: string, ws: string, before: string, files: Record<string, string>): Promise<void> {
  const r = await runCli(['restore', before, '--yes', '-w', ws], { env: baseEnv(home) });
  expect(r.code, r.stderr).toBe(0);
  expect(await filesOf(ws)).toEqual(files);
}
