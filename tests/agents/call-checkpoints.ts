// What the real-agent tests check after a run: the checkpoint each hooked call
// took, found by the agent and tool that took it, labelled with the prompt.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import type { Workspace } from '../../electron/engine/api.js';
import { listCheckpoints, listEffects } from './run-cli.js';
import { gitIn, type TempWorld } from './temp-home.js';

export interface CallCheckpoints {
  /** The id of the checkpoint taken before `tool`'s call (the test fails, with the list and the run's output, when there is none). */
  before(tool: string): string;
  workspace: Workspace;
}

export async function callCheckpoints(world: TempWorld, agent: string, prompt: string, out: string): Promise<CallCheckpoints> {
  const list = await listCheckpoints(world.store, world.ws);
  const workspace = await (await openStore({ home: world.store })).workspace(world.ws);
  return {
    before(tool) {
      // The call's own checkpoints, newest first: the one taken as it ended (its own change) and the one before it.
      const own = list.filter((c) => c.agent === agent && c.tool === tool);
      const first = own.at(-1);
      // Taken as it ended, none before it (nothing had changed since the previous call ended): the one before holds the state.
      const at = first === undefined ? -1 : list.indexOf(first) + (first.change_by === 'call' ? 1 : 0);
      // None of its own at all (it changed nothing, and nothing had changed before it): the latest then, the newest of these one-prompt runs.
      const cp = first === undefined ? list[0] : list[at];
      if (cp === undefined) throw new Error(`no checkpoint before ${tool}: ${JSON.stringify(list)}\n${out}`);
      expect(cp.prompt).toBe(prompt);
      return cp.id;
    },
    workspace,
  };
}

/**
 * The checks after a run whose calls create new.txt, edit a.txt ("hi" to "hello there") and push to `remote`:
 * the run ended well with the edit in, the push was refused (the model told to ask the person), nothing was
 * sent and the push is recorded denied; and the checkpoint before each call (`tools`: the agent's names for
 * its write, edit and shell calls) holds the state before it: no new.txt, a.txt as it was, both changes in.
 */
export async function expectWriteEditPushChecked(world: TempWorld, agent: string, prompt: string, remote: string, run: { code: number | null; out: string }, tools: { write: string; edit: string; shell: string }): Promise<void> {
  expect(run.code, run.out).toBe(0);
  expect(await readFile(join(world.ws, 'a.txt'), 'utf8')).toBe('hello there\n');
  expect(run.out).toContain('ask the person to run it themselves');
  expect(gitIn(remote, ['branch', '--list'])).toBe('');

  const { before, workspace } = await callCheckpoints(world, agent, prompt, run.out);
  expect((await workspace.fileDiff(before(tools.write), 'workspace', 'new.txt')).old.text ?? null).toBeNull();
  expect((await workspace.fileDiff(before(tools.edit), 'workspace', 'a.txt')).old.text).toBe('hi\n');
  expect((await workspace.fileDiff(before(tools.shell), 'workspace', 'a.txt')).old.text).toBe('hello there\n');
  const pushes = (await listEffects(world.store, world.ws)).filter((e) => e.kind === 'git_push');
  expect(pushes.map((e) => [e.agent, e.status])).toEqual([[agent, 'denied']]);
}

/** The model's request after a failed `command` carries our recovery hint: the checkpoint before it and how to restore it. */
export function expectRecoveryHint(request: unknown, command: string): void {
  const text = JSON.stringify(request ?? {});
  expect(text, 'the request after the failed call').toContain(command);
  expect(text).toMatch(/checkpoint [0-9a-f]{12}/);
  expect(text).toContain(' restore ');
}
