// chronoscope fork <id>: a checkpoint's files, written into a new folder beside
// the workspace (or --to DIR). Registers nothing: the fork is a plain folder.
import type { Command } from 'commander';
import { checkRef, openWorkspace, withCommonOptions, type CommonOptions, CHECKPOINT_ARG_HELP } from '../context.js';
import { printJson, printLine, safeText, shortId, style } from '../output.js';

interface ForkOptions extends CommonOptions {
  to?: string;
}

export function registerFork(program: Command): void {
  withCommonOptions(
    program
      .command('fork')
      .description("write a checkpoint's files into a new folder (default: <workspace>-fork-<short id>)")
      .argument('<id>', CHECKPOINT_ARG_HELP)
      .option('--to <dir>', 'the new folder; refused if anything exists there'),
  ).action(async (id: string, options: ForkOptions) => {
    const ref = checkRef(id);
    const workspace = await openWorkspace(options);
    const result = await workspace.fork(ref, options.to !== undefined ? { to: options.to } : {});
    if (options.json) printJson(result);
    else printLine(`forked ${style.id(shortId(result.id))} into ${safeText(result.path)}`);
  });
}
