// chronoscope prune: apply the retention policy now; --compact also packs the store.
import type { Command } from 'commander';
import { openWorkspace, withCommonOptions, type CommonOptions } from '../context.js';
import { formatBytes, plural, printJson, printLine } from '../output.js';

interface PruneCommandOptions extends CommonOptions {
  compact?: boolean;
}

export function registerPrune(program: Command): void {
  withCommonOptions(
    program
      .command('prune')
      .description('remove checkpoints the retention policy no longer keeps (never pinned ones or the newest)')
      .option('--compact', 'also run git gc on the store (slow on a big store)'),
  ).action(async (options: PruneCommandOptions) => {
    const workspace = await openWorkspace(options);
    const result = await workspace.prune({ compact: options.compact === true });
    if (options.json) {
      printJson(result);
      return;
    }
    printLine(
      `removed ${plural(result.removed.length, 'checkpoint')}, kept ${result.kept}; ` +
        `store ${formatBytes(result.store_bytes_before)} → ${formatBytes(result.store_bytes_after)}` +
        (result.gc_ran ? ' (compacted)' : ''),
    );
  });
}
