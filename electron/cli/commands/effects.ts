// chronoscope effects: the workspace's ledger of irreversible effects (pushes,
// publishes, deploys …), oldest first, each with the command that would undo
// it. Scans the repository's push reflogs first, so a push made by hand shows
// up even when no app was running to watch.
import type { Command } from 'commander';
import type { EffectRecord } from '../../../shared/model.js';
import { EffectLedger } from '../../effects/ledger.js';
import { pushStatePath, scanPushes } from '../../effects/push-monitor.js';
import { checkRef, checkedWorkspaceDir, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { printJson, printLine, printLines, relativeTime, safeText, style } from '../output.js';

interface EffectsOptions extends CommonOptions {
  since?: string;
}

export function effectLines(records: readonly EffectRecord[], now = Date.now()): string[] {
  const lines: string[] = [];
  for (const r of records) {
    const status = r.status === 'happened' ? r.status : r.status === 'nothing_sent' ? style.dim(r.status) : style.warn(r.status);
    lines.push(`${relativeTime(r.time_ms, now)}  ${r.kind}  ${status}  ${safeText(r.target)}`);
    lines.push(`  ${safeText(r.summary)}${r.agent ? style.dim(` (${safeText(r.agent)})`) : ''}`);
    if (r.status === 'nothing_sent') lines.push(`  undo: ${style.dim('nothing to undo: it ran, but nothing left the machine')}`);
    else lines.push(`  undo: ${r.compensation === null ? style.dim('no command can undo this') : safeText(r.compensation)}`);
  }
  return lines;
}

export function registerEffects(program: Command): void {
  withCommonOptions(
    program
      .command('effects')
      .description('list irreversible effects (git push, npm publish, …) recorded for the workspace, with how to undo each')
      .option('--since <id>', 'only effects recorded at or after this checkpoint'),
  ).action(async (options: EffectsOptions) => {
    const sinceRef = options.since === undefined ? undefined : checkRef(options.since);
    const { dir } = await checkedWorkspaceDir(options); // before the store's folders are created
    const store = await openCliStore();
    const workspace = await store.workspace(dir);
    const ledger = new EffectLedger(store.home, workspace.meta.id);
    const sinceCheckpoint = sinceRef === undefined ? undefined : await workspace.resolve(sinceRef);
    const [latest] = await workspace.list({ limit: 1 });
    await scanPushes(workspace.root, ledger, pushStatePath(ledger), {
      sinceMs: Date.parse(workspace.meta.created),
      checkpoint: latest?.id ?? null,
    });
    const records = await ledger.list(sinceCheckpoint === undefined ? {} : { sinceMs: sinceCheckpoint.time_ms });
    if (options.json) {
      printJson(records);
      return;
    }
    if (records.length === 0) {
      printLine(sinceCheckpoint === undefined ? 'no irreversible effects recorded' : 'no irreversible effects since that checkpoint');
      return;
    }
    printLines(effectLines(records));
  });
}
