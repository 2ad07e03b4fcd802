// What the real-agent tests check after a run: the checkpoint each hooked call
// took, found by the agent and tool that took it, labelled with the prompt.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import type { Workspace } from '../../electron/engine/api.js';
import type { Checkpoint } from '../../shared/model.js';
import { listCheckpoints, listEffects } from './run-cli.js';
import { gitIn, type TempWorld } from './temp-home.js';

export interface CallCheckpoints {
  /** The id of the checkpoint taken before `tool`'s call (the test fails, with the list and the run's output, when there is none). */
  before(tool: string): string;
  workspace: Workspace;
}

/**
 * The checkpoint holding the state just before `agent`'s latest call of `tool` in `list` (newest first),
 * and the call's own checkpoint: the one taken before it, or — when it found nothing changed since the
 * latest and took none — the one taken as it ended (its change), whose predecessor holds the state before.
 * A call with neither (it changed nothing, after nothing had changed): the latest, the newest of these runs.
 */
export function stateBefore(list: readonly Checkpoint[], agent: string, tool: string, prompt?: string): { id: string; own: Checkpoint } | null {
  const own = list.find((c) => c.agent === agent && c.tool === tool && (prompt === undefined || c.prompt === prompt));
  if (own === undefined) return list[0] === undefined ? null : { id: list[0].id, own: list[0] };
  const before = own.change_by === 'call' ? list[list.indexOf(own) + 1] : own;
  return before === undefined ? null : { id: before.id, own };
}

export async function callCheckpoints(world: TempWorld, agent: string, prompt: string, out: string): Promise<CallCheckpoints> {
  const list = await listCheckpoints(world.store, world.ws);
  const workspace = await (await openStore({ home: world.store })).workspace(world.ws);
  return {
    before(tool) {
      const found = stateBefore(list, agent, tool, prompt);
      if (found === null) throw new Error(`no checkpoint before ${tool}: ${JSON.stringify(list)}\n${out}`);
      // The call's own checkpoint (before it, or as it ended) is labelled with the prompt it served.
      expect(found.own.prompt).toBe(prompt);
      return found.id;
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
