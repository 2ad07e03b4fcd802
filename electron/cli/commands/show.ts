// chronoscope show <id>: one checkpoint and the files it changed.
import type { Command } from 'commander';
import { checkRef, checkedWorkspaceDir, openCliStore, withCommonOptions, type CommonOptions, CHECKPOINT_ARG_HELP } from '../context.js';
import { changeList, checkpointDetails } from '../format.js';
import { describeOne } from '../../engine/words.js';
import { printJson, printLine, printLines } from '../output.js';
import { whyOf } from '../../prompts/listing.js';
import { whyDetailLines } from '../prompt-format.js';

export function registerShow(program: Command): void {
  withCommonOptions(
    program
      .command('show')
      .description('show one checkpoint and the files it changed')
      .argument('<id>', CHECKPOINT_ARG_HELP),
  ).action(async (id: string, options: CommonOptions) => {
    const ref = checkRef(id);
    const { dir } = await checkedWorkspaceDir(options);
    const store = await openCliStore();
    const workspace = await store.workspace(dir);
    const found = await workspace.show(ref);
    const why = await whyOf(store.home, workspace, found.checkpoint.id);
    // prompt: the record of the prompt it was made under; intent: the agent's words before the call that made it.
    const shown = { ...found, checkpoint: { ...found.checkpoint, ...(await describeOne(workspace, found.checkpoint)) }, prompt: why.prompt, call: why.call, intent: why.call?.intent ?? null };
    if (options.json) {
      printJson(shown);
      return;
    }
    printLines([...checkpointDetails(shown.checkpoint), ...whyDetailLines(why.prompt, why.call)]);
    printLine();
    printLines(changeList(shown.files));
  });
}
