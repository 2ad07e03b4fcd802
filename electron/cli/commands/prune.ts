// chronoscope prune: apply the retention policy now. Without --yes it only
// previews (what would go, by which rule), as restore does; with --yes what
// goes is moved into the trash for 14 days. --undo brings the last prune's
// checkpoints back; --trash lists what the trash holds. --compact also packs the store.
import type { Command } from 'commander';
import { ChronoscopeError } from '../../../shared/errors.js';
import { REMOVAL_RULES, type PruneResult, type TrashEntry } from '../../../shared/model.js';
import { openWorkspace, withCommonOptions, type CommonOptions } from '../context.js';
import { formatBytes, plural, printJson, printLine, printLines, relativeTime, style } from '../output.js';

interface PruneCommandOptions extends CommonOptions {
  compact?: boolean;
  yes?: boolean;
  undo?: boolean | string;
  trash?: boolean;
}

export function registerPrune(program: Command): void {
  withCommonOptions(
    program
      .command('prune')
      .description('remove checkpoints the retention policy no longer keeps, into the trash for 14 days (previews only, unless --yes)')
      .option('-y, --yes', 'really remove them (into the trash: `prune --undo` brings them back)')
      .option('--undo [entry]', 'bring back every checkpoint the last prune removed (or those of a trash entry); at once, it only adds')
      .option('--trash', 'list what the trash holds')
      .option('--compact', 'with --yes: also run git gc on the store (slow on a big store)'),
  ).action(async (options: PruneCommandOptions) => {
    // --undo takes a --yes given by habit (bringing back changes nothing else); the rest go one at a time.
    if ([options.undo !== undefined, options.trash === true, options.compact === true || (options.yes === true && options.undo === undefined)].filter(Boolean).length > 1) {
      throw new ChronoscopeError('bad_input', 'prune: --undo, --trash and --yes/--compact go one at a time');
    }
    const workspace = await openWorkspace(options);
    if (options.undo !== undefined) {
      const result = await workspace.undoPrune(typeof options.undo === 'string' ? options.undo : undefined);
      if (options.json) printJson(result);
      else printLine(`brought back ${plural(result.restored.length, 'checkpoint')} from the trash (entry ${result.trash})`);
      return;
    }
    if (options.trash) {
      const entries = await workspace.trash();
      if (options.json) printJson({ trash: entries });
      else printLines(trashLines(entries));
      return;
    }
    const result = await workspace.prune({ compact: options.compact === true, preview: options.yes !== true });
    if (options.json) {
      printJson(result);
      return;
    }
    printLines(resultLines(result));
  });
}

function rules(byRule: PruneResult['by_rule']): string {
  const parts = REMOVAL_RULES.filter((r) => byRule[r] > 0).map((r) => `${byRule[r]} ${RULE_WORDS[r]}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

const RULE_WORDS: Record<keyof PruneResult['by_rule'], string> = {
  thinned: 'thinned: one per hour or day per lane kept',
  age: 'past the age limit',
  count: 'past the count limit',
  budget: 'the store over its budget',
};

function resultLines(result: PruneResult): string[] {
  const lines: string[] = [];
  const n = result.removed.length;
  if (result.preview) {
    lines.push(`would remove ${plural(n, 'checkpoint')}${rules(result.by_rule)}, keep ${result.kept}`);
    if (result.trash_emptied.expired > 0) lines.push(`would empty ${plural(result.trash_emptied.expired, 'trash entry', 'trash entries')} past their 14 days`);
    if (result.store_bytes_before > result.budget_bytes) {
      lines.push(`the store (${formatBytes(result.store_bytes_before)}) is over its budget (${formatBytes(result.budget_bytes)}): --yes would empty the oldest trash first, then move the oldest thinned checkpoints to the trash`);
    }
    lines.push(style.bold(n > 0 ? 'nothing changed; run again with --yes to remove them (into the trash for 14 days)' : 'nothing to remove'));
    return lines;
  }
  lines.push(
    `removed ${plural(n, 'checkpoint')}${rules(result.by_rule)}, kept ${result.kept}; ` +
      `store ${formatBytes(result.store_bytes_before)} → ${formatBytes(result.store_bytes_after)}` +
      (result.gc_ran ? ' (compacted)' : ''),
  );
  const emptied = result.trash_emptied.expired + result.trash_emptied.for_budget;
  if (emptied > 0) lines.push(`emptied ${plural(emptied, 'trash entry', 'trash entries')} for good (${result.trash_emptied.expired} past 14 days, ${result.trash_emptied.for_budget} for the budget)`);
  if (result.trash !== null) lines.push(`in the trash for 14 days: 'chronoscope prune --undo' brings them back`);
  return lines;
}

function trashLines(entries: readonly TrashEntry[]): string[] {
  if (entries.length === 0) return ['the trash is empty'];
  const now = Date.now();
  return entries.map(
    (e) =>
      `${e.id}  ${relativeTime(e.time_ms, now)}  ${plural(e.count, 'checkpoint')}${rules(e.by_rule)}  ${e.automatic ? 'automatic' : 'by hand'}, kept until ${new Date(e.expires_ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  );
}
