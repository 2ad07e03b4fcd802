// chronoscope status: where the workspace's history stands.
import type { Command } from 'commander';
import { openWorkspace, withCommonOptions, type CommonOptions } from '../context.js';
import { checkpointSummary } from '../format.js';
import { describeOne } from '../../engine/words.js';
import { formatBytes, plural, printJson, printLines, safeText } from '../output.js';

export function registerStatus(program: Command): void {
  withCommonOptions(
    program.command('status').description("the workspace's checkpoints, latest one and unsaved changes"),
  ).action(async (options: CommonOptions) => {
    const workspace = await openWorkspace(options);
    const found = await workspace.status();
    // The latest checkpoint in the words `list` and `show` give it (its title above all).
    const status = found.latest === null ? found : { ...found, latest: { ...found.latest, ...(await describeOne(workspace, found.latest)) } };
    if (options.json) {
      printJson(status);
      return;
    }
    printLines([
      `workspace    ${safeText(status.workspace.path)}`,
      `checkpoints  ${status.checkpoints}${status.pinned.length > 0 ? ` (${status.pinned.length} pinned)` : ''}`,
      `latest       ${status.latest ? checkpointSummary(status.latest) : 'none yet'}`,
      `changed      ${
        status.latest === null
          ? 'no checkpoint to compare with'
          : status.dirty_files === 0
            ? 'nothing since the latest checkpoint'
            : `${plural(status.dirty_files, 'file')} since the latest checkpoint`
      }`,
      `store        ${safeText(status.store.path)} (${formatBytes(status.store.bytes)})`,
    ]);
  });
}
