// chronoscope snapshot: take a checkpoint now (or say why none was needed).
import { Option, type Command } from 'commander';
import type { SnapshotResult, Trigger } from '../../../shared/model.js';
import { checkedWorkspaceDir, checkPaths, collect, ExitWith, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { withdrawableSnapshotInRunningApp } from '../../app/running-app-client.js';
import { withdrawOnInterrupt } from '../interrupt.js';
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
    // Ctrl-C while the app works on it withdraws the request (interrupt.ts): it never turns into a checkpoint later.
    const interrupt = withdrawOnInterrupt();
    let delegated: SnapshotResult | 'withdrawn' | null;
    try {
      delegated = await withdrawableSnapshotInRunningApp(home, dir, asked, { withdraw: interrupt.signal, onSent: interrupt.sent });
    } finally {
      interrupt.dispose();
    }
    if (delegated === 'withdrawn') {
      process.stderr.write('interrupted: no checkpoint taken\n');
      throw new ExitWith(130);
    }
    // The folder is checked: the store opens only now (openWorkspace would check it again).
    const result = delegated ?? (await (await (await openCliStore()).workspace(dir)).snapshot(asked));
    if (options.json) printJson(result);
    else printLines(snapshotLines(result));
    // Written before the interrupt reached the app: named above, and the exit says it was interrupted.
    if (interrupt.signal.aborted) {
      process.stderr.write('interrupted: the checkpoint above was taken before the interrupt reached the service\n');
      throw new ExitWith(130);
    }
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
