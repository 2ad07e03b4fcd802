// chronoscope snapshot: take a checkpoint now (or say why none was needed).
import { Option, type Command } from 'commander';
import type { SnapshotResult, Trigger } from '../../../shared/model.js';
import { checkedWorkspaceDir, checkPaths, collect, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { snapshotInRunningApp } from '../../app/running-app-client.js';
import { skippedWhyText, statsText } from '../format.js';
import { plural, printJson, printLines, safeText, style } from '../output.js';

// 'safety' and 'restore' checkpoints are taken by restore itself, never asked for.
const CLI_TRIGGERS = ['manual', 'auto', 'hook'] as const satisfies readonly Trigger[];

interface SnapshotCommandOptions extends CommonOptions {
  reason?: string;
  trigger: (typeof CLI_TRIGGERS)[number];
  path?: string[];
}

export function registerSnapshot(program: Command): void {
  withCommonOptions(
    program
      .command('snapshot')
      .description('take a checkpoint of the workspace now')
      .option('-m, --reason <text>', 'why this checkpoint was taken')
      .addOption(new Option('--trigger <kind>', 'what asked for it').choices(CLI_TRIGGERS).default('manual'))
      .option('-p, --path <path>', 'only look at this file or folder (repeatable)', collect),
  ).action(async (options: SnapshotCommandOptions) => {
    const paths = checkPaths(options.path);
    const asked = {
      trigger: options.trigger,
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...(paths ? { paths } : {}),
    };
    // A running app takes it when it can (warm engine; its watcher knows what changed).
    const { dir, home } = await checkedWorkspaceDir(options);
    // The folder is checked: the store opens only now (openWorkspace would check it again).
    const result = (await snapshotInRunningApp(home, dir, asked)) ?? (await (await (await openCliStore()).workspace(dir)).snapshot(asked));
    if (options.json) printJson(result);
    else printLines(snapshotLines(result));
  });
}

function snapshotLines(result: SnapshotResult): string[] {
  if (result.id === null) return [`no checkpoint taken: ${result.skipped}`];
  const lines = [
    `checkpoint ${style.id(result.id.slice(0, 8))}  ${statsText(result.checkpoint.stats)}`,
  ];
  if (result.skipped_files.length > 0) {
    lines.push(style.warn(`left out ${plural(result.skipped_files.length, 'file')}:`));
    for (const file of result.skipped_files.slice(0, 10)) lines.push(`  ${safeText(file.path)} (${skippedWhyText(file.why)})`);
  }
  return lines;
}
