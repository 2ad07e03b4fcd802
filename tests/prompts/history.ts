// A workspace history made the way an agent's hooks make it (until the hooks
// write the prompt ledger themselves, issue 41's `prompts` work): prompts in
// the ledger, checkpoints taken after each call carrying the prompt's id,
// calls recorded with their outcome — one of them a real shell command that
// writes and deletes files, one a failing test run — and a person's edit
// under no prompt. Line 2 of src/a.ts is changed under all three prompts.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../../electron/engine/api.js';
import { openStore } from '../../electron/engine/index.js';
import type { WorkspaceImpl } from '../../electron/engine/workspace.js';
import { EffectLedger } from '../../electron/effects/ledger.js';
import { PromptLedger, type PromptEntry } from '../../electron/prompts/ledger.js';
import type { SnapshotOptions } from '../../shared/model.js';

export interface History {
  base: string;
  /** The prompts, oldest first: JWT, flaky, storage. */
  prompts: [PromptEntry, PromptEntry, PromptEntry];
  /** The checkpoint each prompt's call took, oldest first; then the person's edit. */
  c1: string;
  c2: string;
  c3: string;
  person: string;
}

async function take(ws: Workspace, options: SnapshotOptions): Promise<string> {
  const result = await ws.snapshot(options);
  if (result.id === null) throw new Error(`expected a checkpoint for ${options.reason ?? '?'}`);
  return result.id;
}

export async function buildHistory(storeHome: string, root: string): Promise<History> {
  const file = (rel: string, text: string): void => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  file('src/a.ts', 'const alpha = 1;\nconst beta = 2;\nconst gamma = 3;\n');
  file('old.txt', 'legacy\n');
  const store = await openStore({ home: storeHome });
  const ws = await store.workspace(root);
  const ledger = new PromptLedger(storeHome, ws.meta.id);
  const base = await take(ws, { trigger: 'manual', reason: 'start' });
  const hook = (prompt: PromptEntry, tool: string, reason: string, tool_use_id: string): SnapshotOptions => ({
    trigger: 'hook', agent: 'claude-code', tool, reason, tool_use_id, session: 'sess-1', prompt: prompt.text, prompt_id: prompt.id,
  });

  const p1 = await ledger.appendPrompt({ text: 'Use JWT for the session tokens', agent: 'claude-code', session: 'sess-1', before: base });
  file('src/a.ts', 'const alpha = 1;\nconst beta = jwt();\nconst gamma = 3;\n');
  const c1 = await take(ws, hook(p1, 'Edit', 'Edit src/a.ts', 'tu-1'));
  await ledger.appendCall({ prompt_id: p1.id, agent: 'claude-code', session: 'sess-1', tool: 'Edit', reason: 'Edit src/a.ts', tool_use_id: 'tu-1', status: 'ok', intent: 'I will switch beta to a JWT.', paths: ['src/a.ts'], checkpoint: c1 });

  const p2 = await ledger.appendPrompt({ text: 'Fix the flaky test\nIt fails one run in three.', agent: 'claude-code', session: 'sess-1', before: c1 });
  // A shell command, as Bash runs it: rewrites a line, writes one file, removes another.
  execFileSync('sh', ['-c', "sed -i 's/jwt()/flaky()/' src/a.ts && echo generated > gen.txt && rm old.txt"], { cwd: root });
  const c2 = await take(ws, hook(p2, 'Bash', 'Bash: sed … && rm old.txt', 'tu-2'));
  await ledger.appendCall({ prompt_id: p2.id, agent: 'claude-code', session: 'sess-1', tool: 'Bash', reason: 'Bash: sed … && rm old.txt', tool_use_id: 'tu-2', status: 'ok', intent: 'Regenerate and drop the legacy file.', checkpoint: c2 });
  await ledger.appendCall({ prompt_id: p2.id, agent: 'claude-code', session: 'sess-1', tool: 'Bash', reason: 'Bash: npm test', tool_use_id: 'tu-3', status: 'failed', exit_code: 1, output_tail: 'FAIL tests/a.test.ts\n1 failing' });
  await new EffectLedger(storeHome, ws.meta.id).append({
    kind: 'git_push', target: 'origin main', command: 'git push origin main', compensation: null, summary: 'pushed main to origin',
    workspace: root, source: 'hook', status: 'happened', checkpoint: c2, agent: 'claude-code',
  });

  const p3 = await ledger.appendPrompt({ text: 'Refactor the storage', agent: 'claude-code', session: 'sess-1', before: c2 });
  file('src/a.ts', 'const alpha = 1;\nconst beta = storage.beta();\nconst gamma = storage.gamma();\n');
  const c3 = await take(ws, hook(p3, 'Edit', 'Edit src/a.ts', 'tu-4'));
  await ledger.appendCall({ prompt_id: p3.id, agent: 'claude-code', session: 'sess-1', tool: 'Edit', reason: 'Edit src/a.ts', tool_use_id: 'tu-4', status: 'ok', intent: 'Move both reads behind the storage module.', checkpoint: c3 });

  // The person adds a line; no prompt, no agent.
  file('src/a.ts', 'const alpha = 1;\nconst beta = storage.beta();\nconst gamma = storage.gamma();\nconst delta = 4;\n');
  const person = await take(ws, { trigger: 'manual', reason: 'add delta' });
  // No background work of this process (index sync, pack merge) may still hold the workspace when the CLI runs.
  await (ws as WorkspaceImpl).settled();
  return { base, prompts: [p1, p2, p3], c1, c2, c3, person };
}
