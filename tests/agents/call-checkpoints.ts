// What the real-agent tests check after a run: the checkpoint each hooked call
// took, found by the agent and tool that took it, labelled with the prompt.
import { expect } from 'vitest';
import { openStore } from '../../electron/engine/index.js';
import type { Workspace } from '../../electron/engine/api.js';
import { listCheckpoints } from './run-cli.js';
import type { TempWorld } from './temp-home.js';

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
      const cp = list.find((c) => c.agent === agent && c.tool === tool);
      if (cp === undefined) throw new Error(`no checkpoint before ${tool}: ${JSON.stringify(list)}\n${out}`);
      expect(cp.prompt).toBe(prompt);
      return cp.id;
    },
    workspace,
  };
}
