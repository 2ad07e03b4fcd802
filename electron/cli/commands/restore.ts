// chronoscope restore <id>: put the workspace (or some paths) back as a
// checkpoint had it. Without --yes it only previews; with --yes it restores
// after a safety checkpoint and prints how to undo.
import { realpathSync } from 'node:fs';
import type { Command } from 'commander';
import type { RestoreOptions, RestoreResult } from '../../../shared/model.js';
import type { Workspace } from '../../engine/api.js';
import { checkPaths, checkRef, collect, openWorkspace, withCommonOptions, type CommonOptions, CHECKPOINT_ARG_HELP } from '../context.js';
import { checkpointName, previewLines } from '../format.js';
import { describeOne } from '../../engine/words.js';
import { plural, printJson, printLine, printLines, safeText, shellQuote, shortId, style } from '../output.js';

interface RestoreCommandOptions extends CommonOptions {
  path?: string[];
  keepUntracked?: boolean;
  yes?: boolean;
}

export function registerRestore(program: Command): void {
  withCommonOptions(
    program
      .command('restore')
      .description('restore a checkpoint (previews only, unless --yes)')
      .argument('<id>', CHECKPOINT_ARG_HELP)
      .option('-p, --path <path>', 'only restore this file or folder (repeatable)', collect)
      .option('--keep-untracked', 'leave files that are new since the latest checkpoint in place')
      .option('-y, --yes', 'really restore (a safety checkpoint is taken first)'),
  ).action(async (id: string, options: RestoreCommandOptions) => {
    const ref = checkRef(id);
    const paths = checkPaths(options.path);
    const workspace = await openWorkspace(options);
    const restoreOptions: RestoreOptions = {
      ...(paths ? { paths } : {}),
      keep_untracked: options.keepUntracked === true,
    };
    if (!options.yes) {
      const preview = await workspace.previewRestore(ref, restoreOptions);
      if (options.json) {
        printJson({ preview, applied: false });
        return;
      }
      printLines(previewLines(preview));
      printLine(style.bold('nothing changed; run again with --yes to restore'));
      return;
    }
    const result = await workspace.restore(ref, restoreOptions);
    if (options.json) printJson(result);
    else printLines(resultLines(result, workspace, await restoredName(workspace, result.restored)));
  });
}

/** The restored checkpoint by its title and time, the id second (its words as `list` says them). */
async function restoredName(workspace: Workspace, id: string): Promise<string> {
  const cp = await workspace.resolve(id);
  return checkpointName(cp, (await describeOne(workspace, cp)).title);
}

function resultLines(result: RestoreResult, workspace: Workspace, restored: string): string[] {
  const counts = [
    `${result.modified.length} overwritten`,
    `${result.added.length} created`,
    `${result.deleted.length} deleted`,
    `${result.untracked_removed} untracked removed`,
  ].join(', ');
  return [
    `restored ${restored}: ${plural(result.files_changed, 'file')} changed (${counts})`,
    ...result.conflicts.map((p) => style.warn(`${safeText(p)}: changed during the restore, left as is`)),
    ...result.skipped.map((p) => style.warn(`${safeText(p)}: something unrecorded is in the way, left as is`)),
    `safety checkpoint ${style.id(shortId(result.safety))}; to undo: ${undoCommand(result, workspace.root)}`,
  ];
}

/** Undoing a path-limited restore restores the same paths only: other files may have changed since. */
function undoCommand(result: RestoreResult, root: string): string {
  const parts = ['chronoscope', 'restore', shortId(result.safety), '--yes'];
  for (const p of result.paths ?? []) parts.push('--path', shellQuote(`./${p}`));
  if (!sameFolder(root, process.cwd())) parts.push('--workspace', shellQuote(root));
  return parts.join(' ');
}

function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
