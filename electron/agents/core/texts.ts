// What the core says to an agent, in words, whichever agent asks: the
// question before an irreversible effect, the recovery hint after a failed
// call, the reminder of effects the conversation no longer shows. Adapters
// wrap these strings in their agent's protocol.
import type { ClassifiedEffect } from '../../../shared/model.js';
import type { CheckpointRef, ReminderEffect } from './call.js';
import { shellQuote } from './node-command.js';

/** One line per effect: what, where, and how to undo it. */
export function askText(effects: readonly ClassifiedEffect[]): string {
  const lines = effects.map((e) => `${e.summary} [${e.target}]; ${undoText(e.compensation)}`);
  const head =
    effects.length === 1
      ? 'Chronoscope: this command has an effect no file restore can undo'
      : `Chronoscope: this command has ${effects.length} effects no file restore can undo`;
  return `${head}: ${lines.join(' | ')}`;
}

function undoText(compensation: string | null): string {
  return compensation === null ? 'no command can undo it' : `undo with: ${compensation}`;
}

/**
 * After a failed tool call: the checkpoint just before it and the exact commands to see and
 * undo what the call changed. `cli` is the command prefix that runs Chronoscope (absolute node + CLI).
 */
export function recoveryHint(tool: string, workspace: string, checkpoint: CheckpointRef, cli: string): string {
  const id = checkpoint.id.slice(0, 12);
  const ws = shellQuote(workspace);
  return (
    `Chronoscope: the workspace as it was just before this failed ${tool} call is checkpoint ${id} ("${checkpoint.reason}"). ` +
    `See what changed since: ${cli} diff ${id} workspace -w ${ws} — undo it: ${cli} restore ${id} -w ${ws} --yes (a safety checkpoint is taken first, so the restore can be undone too).`
  );
}

/** The reminder of effects that happened but are no longer in the conversation. */
export function reminderText(effects: readonly ReminderEffect[]): string {
  const lines = effects.map((e) => `- ${e.summary} [${e.target}] at ${e.time}; ${undoText(e.compensation)}`);
  return [
    'Chronoscope: earlier in this work, these already happened outside the workspace and were not undone (the conversation no longer shows them; restoring files does not undo them):',
    ...lines,
  ].join('\n');
}
