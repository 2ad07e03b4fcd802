// Effects whose command ran but, by its own output, sent nothing. Only
// `git push` says so plainly: "Everything up-to-date" (on stderr) when no ref
// needed updating — then nothing left the machine and there is nothing to
// compensate. It says it once per run of git push, however many refs that run
// names, and only when none of them changed; a run that sent anything prints
// the refs instead. Where the output cannot vouch for every push of the call
// (`git push -q` prints nothing, a translated git says it otherwise, one of two
// pushes sent something), the pushes count as happened: claiming a push that
// did not happen costs a reminder, missing one that did costs its undo.
import type { ClassifiedEffect, EffectKind } from '../../shared/model.js';

const UP_TO_DATE = /^Everything up-to-date\r?$/gm;

/** The kinds whose every effect in `effects` sent nothing, judged from the call's output. */
export function kindsThatSentNothing(effects: readonly ClassifiedEffect[], output: string): EffectKind[] {
  const runs = pushRuns(effects);
  if (runs === 0) return [];
  const said = output.match(UP_TO_DATE)?.length ?? 0;
  return said >= runs ? ['git_push'] : [];
}

/**
 * How many times git push ran: each run gives one effect per ref it names (all with the run's
 * command and different targets), so two runs of the same command show as the same target twice.
 */
function pushRuns(effects: readonly ClassifiedEffect[]): number {
  const byCommand = new Map<string, Map<string, number>>();
  for (const e of effects) {
    if (e.kind !== 'git_push') continue;
    const targets = byCommand.get(e.command) ?? new Map<string, number>();
    targets.set(e.target, (targets.get(e.target) ?? 0) + 1);
    byCommand.set(e.command, targets);
  }
  let runs = 0;
  for (const targets of byCommand.values()) runs += Math.max(...targets.values());
  return runs;
}
