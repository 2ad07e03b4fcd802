// chronoscope pin/unpin <id>: keep a checkpoint out of retention's reach, or let it go again.
import type { Command } from 'commander';
import { checkRef, openWorkspace, withCommonOptions, type CommonOptions, OWN_CHECKPOINT_ARG_HELP } from '../context.js';
import { checkpointSummary } from '../format.js';
import { printJson, printLine } from '../output.js';

function registerPinVerb(program: Command, verb: 'pin' | 'unpin'): void {
  const pinned = verb === 'pin';
  withCommonOptions(
    program
      .command(verb)
      .description(pinned ? 'keep a checkpoint: retention never removes it' : 'let retention remove a checkpoint again')
      .argument('<id>', OWN_CHECKPOINT_ARG_HELP),
  ).action(async (id: string, options: CommonOptions) => {
    const ref = checkRef(id);
    const workspace = await openWorkspace(options);
    const checkpoint = await workspace.pin(ref, pinned);
    if (options.json) printJson(checkpoint);
    else printLine(`${pinned ? 'pinned' : 'unpinned'} ${checkpointSummary(checkpoint)}`);
  });
}

export function registerPin(program: Command): void {
  registerPinVerb(program, 'pin');
  registerPinVerb(program, 'unpin');
}
