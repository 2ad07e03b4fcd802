// chronoscope restore <id>: put the workspace (or some paths) back as a
// checkpoint had it. Without --yes it only previews; with --yes it restores
// after a safety checkpoint and prints how to undo. `--before-prompt <id>`
// names the target by a prompt instead: the checkpoint that was latest when
// the prompt was given (issue 41), so every change made under it and after
// it — shell commands' included, they are in the checkpoints — is undone.
import { realpathSync } from 'node:fs';
import type { Command } from 'commander';
import type { RestoreOptions, RestoreResult } from '../../../shared/model.js';
import type { Workspace } from '../../engine/api.js';
import { UsageError } from '../../../shared/errors.js';
import { EffectLedger } from '../../effects/ledger.js';
import { beforeCheckpoint, checkPromptId, findPrompt } from '../../prompts/listing.js';
import { checkPaths, checkRef, checkedWorkspaceDir, collect, openCliStore, openWorkspace, withCommonOptions, type CommonOptions, CHECKPOINT_ARG_HELP } from '../context.js';
import { checkpointName, previewLines } from '../format.js';
import { describeOne } from '../../engine/words.js';
import { plural, printJson, printLine, printLines, relativeTime, safeText, shellQuote, shortId, style } from '../output.js';
import { promptLine } from '../prompt-format.js';
import { promptLabel } from '../../agents/core/session-prompt.js';
import { effectLines } from './effects.js';

interface RestoreCommandOptions extends CommonOptions {
  beforePrompt?: string;
  path?: string[];
  keepUntracked?: boolean;
  yes?: boolean;
}

export function registerRestore(program: Command): void {
  withCommonOptions(
    program
      .command('restore')
      .description('restore a checkpoint (previews only, unless --yes)')
      .argument('[id]', `${CHECKPOINT_ARG_HELP}; or leave it out and use --before-prompt`)
      .option('--before-prompt <prompt>', 'restore the workspace as it was before this prompt (an id from chronoscope list --prompts)')
      .option('-p, --path <path>', 'only restore this file or folder (repeatable)', collect)
      .option('--keep-untracked', 'leave files that are new since the latest checkpoint in place')
      .option('-y, --yes', 'really restore (a safety checkpoint is taken first)'),
  ).action(async (id: string | undefined, options: RestoreCommandOptions) => {
    // Everything from the command line is checked before the store opens: a bad request changes nothing.
    if (id !== undefined && options.beforePrompt !== undefined) throw new UsageError('give a checkpoint id or --before-prompt, not both');
    if (id === undefined && options.beforePrompt === undefined) throw new UsageError("missing the checkpoint to restore (an id, or --before-prompt <prompt>)");
    const promptId = options.beforePrompt === undefined ? undefined : checkPromptId(options.beforePrompt);
    const ref = id === undefined ? undefined : checkRef(id);
    const paths = checkPaths(options.path);
    const restoreOptions: RestoreOptions = {
      ...(paths ? { paths } : {}),
      keep_untracked: options.keepUntracked === true,
    };
    if (promptId !== undefined) {
      await restoreBeforePrompt(promptId, restoreOptions, options);
      return;
    }
    if (ref === undefined) return; // unreachable: one of the two was given
    const workspace = await openWorkspace(options);
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

async function restoreBeforePrompt(promptId: string, restoreOptions: RestoreOptions, options: RestoreCommandOptions): Promise<void> {
  const { dir } = await checkedWorkspaceDir(options);
  const store = await openCliStore();
  const workspace = await store.workspace(dir);
  const prompt = await findPrompt(store.home, workspace, promptId);
  const target = beforeCheckpoint(prompt);
  const about = `before prompt ${prompt.id} "${promptLine(prompt.text)}" (${safeText(prompt.agent)}, ${relativeTime(prompt.time_ms)}): checkpoint ${style.id(shortId(target))}`;
  if (!options.yes) {
    const preview = await workspace.previewRestore(target, restoreOptions);
    // Irreversible effects recorded since: the restore puts files back, never these.
    const effects_since = await new EffectLedger(store.home, workspace.meta.id).list({ sinceMs: (await workspace.resolve(target)).time_ms });
    if (options.json) {
      printJson({ prompt, preview, effects_since, applied: false });
      return;
    }
    printLine(about);
    printLines(previewLines(preview));
    if (effects_since.length > 0) {
      printLine(style.warn(`${plural(effects_since.length, 'irreversible effect')} since then stay as they are:`));
      printLines(effectLines(effects_since));
    }
    printLine(style.bold('nothing changed; run again with --yes to restore'));
    return;
  }
  const result = await workspace.restore(target, { ...restoreOptions, before_prompt: promptLabel(prompt.text) });
  if (options.json) printJson({ ...result, prompt });
  else printLines([about, ...resultLines(result, workspace, await restoredName(workspace, target))]);
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
