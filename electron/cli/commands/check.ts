// chronoscope check: proves every object of every checkpoint of the workspace
// (or of every workspace, --all) and names the damaged checkpoints and what
// they lost. Exit 0 clean, 3 damage found, 1 error. The outcome is remembered
// in the store, so `list` marks the damaged checkpoints afterwards.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ChronoscopeError } from '../../../shared/errors.js';
import { ALL_LOST, checkAllWorkspaces, checkWorkspace, type CheckResult, type DamagedCheckpoint } from '../../engine/check.js';
import { resolveStoreHome } from '../../engine/index.js';
import { checkedWorkspaceDir, ExitWith, openCliStore, withCommonOptions, type CommonOptions } from '../context.js';
import { abortOnInterrupt } from '../interrupt.js';
import { plural, printJson, printLines, relativeTime, safeText, shortId, style } from '../output.js';

export const EXIT_DAMAGED = 3;
/** Lost paths shown per checkpoint in the text output (--json has up to 50). */
const PATHS_SHOWN = 10;

interface CheckCommandOptions extends CommonOptions {
  all?: boolean;
}

export function registerCheck(program: Command): void {
  withCommonOptions(
    program
      .command('check')
      .description('prove that every object of every checkpoint is present and intact (exit 0 clean, 3 damage found: names the damaged checkpoints and the paths they lost)')
      .option('-a, --all', 'check the checkpoints of every workspace in the store'),
  ).action(async (options: CheckCommandOptions) => {
    if (options.all && options.workspace !== undefined) throw new ChronoscopeError('bad_input', '--all checks every workspace: leave out --workspace');
    // Checked before opening: opening would create a store where there is none.
    const home = await resolveStoreHome();
    if (!existsSync(path.join(home, 'git', 'HEAD'))) throw new ChronoscopeError('not_found', `there is no Chronoscope store at ${home}: nothing has been recorded yet`);
    const interrupt = abortOnInterrupt();
    let result: CheckResult;
    try {
      if (options.all) {
        result = await checkAllWorkspaces(await openCliStore(), { signal: interrupt.signal });
      } else {
        const { dir } = await checkedWorkspaceDir(options);
        const store = await openCliStore();
        // A reader never registers a folder: an unknown one is an error.
        const workspace = await store.workspace(dir, { register: false });
        result = await checkWorkspace(store, workspace, { signal: interrupt.signal });
      }
    } finally {
      interrupt.dispose();
    }
    if (options.json) printJson(result);
    else printLines(checkLines(result, options.all === true));
    if (!result.clean) throw new ExitWith(EXIT_DAMAGED);
  });
}

function lostText(p: string): string {
  return p === ALL_LOST ? 'everything (its commit or root tree cannot be read)' : safeText(p);
}

function damagedLines(d: DamagedCheckpoint, all: boolean, now: number): string[] {
  const where = all ? ` in ${safeText(d.workspace)}` : '';
  const lines = [`${style.removed('damaged')} ${style.id(shortId(d.id))}  ${relativeTime(Date.parse(d.time), now)}  ${safeText(d.reason)}${where}`];
  for (const p of d.lost.slice(0, PATHS_SHOWN)) lines.push(`  lost: ${lostText(p)}`);
  if (d.lost_count > PATHS_SHOWN) lines.push(style.dim(`  … and ${d.lost_count - PATHS_SHOWN} more (--json lists up to ${d.lost.length})`));
  return lines;
}

export function checkLines(result: CheckResult, all: boolean, now = Date.now()): string[] {
  const counted = `${plural(result.checkpoints, 'checkpoint')}${all ? ` of ${plural(result.workspaces, 'workspace')}` : ''}, ${plural(result.objects, 'object')}, ${(result.duration_ms / 1000).toFixed(1)} s`;
  if (result.clean) return [`${style.added('no damage')}: ${counted}`];
  const lines: string[] = [];
  for (const d of result.damaged) lines.push(...damagedLines(d, all, now));
  for (const p of result.packs) lines.push(`${style.removed('damaged')} pack ${p.pack}: ${p.problem}`);
  for (const o of result.bad_objects) lines.push(style.dim(`object ${o.id.slice(0, 12)}: ${o.why}`));
  const summary = result.damaged.length > 0 ? `${result.damaged.length} of ${plural(result.checkpoints, 'checkpoint')} damaged` : 'damage found in the store';
  lines.push(`${summary} (${counted}); other checkpoints are intact${result.damaged.length > 0 ? "; 'chronoscope list' marks the damaged ones" : ''}`);
  return lines;
}
