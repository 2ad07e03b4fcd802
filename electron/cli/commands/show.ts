// chronoscope show <id>: one checkpoint and the files it changed.
import type { Command } from 'commander';
import { checkRef, openWorkspace, withCommonOptions, type CommonOptions, CHECKPOINT_ARG_HELP } from '../context.js';
import { changeList, checkpointDetails } from '../format.js';
import { describeOne } from '../../engine/words.js';
import { printJson, printLine, printLines } from '../output.js';

export function registerShow(program: Command): void {
  withCommonOptions(
    program
      .command('show')
      .description('show one checkpoint and the files it changed')
      .argument('<id>', CHECKPOINT_ARG_HELP),
  ).action(async (id: string, options: CommonOptions) => {
    const ref = checkRef(id);
    const workspace = await openWorkspace(options);
    const found = await workspace.show(ref);
    const shown = { ...found, checkpoint: { ...found.checkpoint, ...(await describeOne(workspace, found.checkpoint)) } };
    if (options.json) {
      printJson(shown);
      return;
    }
    printLines(checkpointDetails(shown.checkpoint));
    printLine();
    printLines(changeList(shown.files));
  });
}
