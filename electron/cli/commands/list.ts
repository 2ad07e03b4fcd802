// chronoscope list: the workspace's checkpoints, newest first.
import { Option, type Command } from 'commander';
import { workspaceHealth } from '../../engine/check.js';
import { checkedWorkspaceDir, hermesHomeDir, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { checkpointTable } from '../format.js';
import { describeList } from '../../engine/words.js';
import { positiveInt } from '../options.js';
import { plural, printJsonArray, printLine, printLines, style } from '../output.js';
import type { Workspace } from '../../engine/api.js';
import { listPrompts } from '../../prompts/listing.js';
import { promptTable } from '../prompt-format.js';

const DEFAULT_LIMIT = 20;

interface ListCommandOptions extends CommonOptions {
  limit?: number;
  all?: boolean;
  prompts?: boolean;
  hermesHome?: string;
}

export function registerList(program: Command): void {
  withCommonOptions(
    program
      .command('list')
      .alias('ls')
      .description("list checkpoints, newest first (# is an index you can pass as an id; H marks Hermes Agent's own /rollback checkpoints)")
      .option('-n, --limit <n>', `show at most n checkpoints (default: ${DEFAULT_LIMIT})`, positiveInt)
      .addOption(new Option('-a, --all', 'show every checkpoint').conflicts('limit'))
      .option('--prompts', 'list the prompts given to agents here instead, newest first, with the checkpoints and files each changed')
      .option('--hermes-home <dir>', "Hermes Agent's home folder, whose /rollback checkpoints to show (default: the hermes_home setting, else $HERMES_HOME, else ~/.hermes)"),
  ).action(async (options: ListCommandOptions) => {
    // Checked before the store opens: a bad folder is one line, and nothing is registered.
    const hermesHome = options.hermesHome === undefined ? undefined : hermesHomeDir(options.hermesHome);
    const { dir } = await checkedWorkspaceDir(options);
    const store = await openCliStore(hermesHome === undefined ? undefined : { hermes_home: hermesHome });
    const workspace = await store.workspace(dir);
    const limit = options.all ? undefined : (options.limit ?? DEFAULT_LIMIT);
    if (options.prompts) return listPromptsCommand(store.home, workspace, limit, options.json === true);
    // Ask for one more than shown, to know whether to say there are more.
    const onWarning = (message: string): void => void process.stderr.write(`chronoscope: warning: ${message}\n`);
    const found = await workspace.list(limit === undefined ? { lanes: true, onWarning } : { limit: limit + 1, lanes: true, onWarning });
    const shown = await describeList(workspace, limit === undefined ? found : found.slice(0, limit), found, limit === undefined || found.length <= limit);
    if (options.json) {
      await printJsonArray(shown);
      return;
    }
    if (shown.length === 0) {
      printLine('no checkpoints yet (take one with: chronoscope snapshot)');
      return;
    }
    printLines(checkpointTable(shown));
    if (found.length > shown.length) printLine(style.dim(`… more: use --limit N or --all`));
    // Damage the last check found further back than this page: said, so it is never out of sight.
    const onPage = new Set(shown.map((c) => c.id));
    const beyond = found.length > shown.length ? (await workspaceHealth(store.home, workspace.meta.id)).damaged.filter((d) => !onPage.has(d.id)).length : 0;
    if (beyond > 0) printLine(style.warn(`${plural(beyond, 'damaged checkpoint')} beyond this page: 'chronoscope list --all' marks them, 'chronoscope check' says what each lost`));
  });
}

/** `list --prompts`: the prompts, newest first, as many as --limit/--all say. */
async function listPromptsCommand(storeHome: string, workspace: Workspace, limit: number | undefined, json: boolean): Promise<void> {
  const all = await listPrompts(storeHome, workspace);
  const shown = limit === undefined ? all : all.slice(0, limit);
  if (json) {
    await printJsonArray(shown);
    return;
  }
  if (shown.length === 0) {
    printLine("no prompts recorded yet (an agent's hooks record them: chronoscope hooks install <agent>)");
    return;
  }
  printLines(promptTable(shown));
  if (all.length > shown.length) printLine(style.dim(`… ${all.length - shown.length} more: use --limit N or --all`));
  printLine(style.dim('back to before one: chronoscope restore --before-prompt <PROMPT>'));
}
