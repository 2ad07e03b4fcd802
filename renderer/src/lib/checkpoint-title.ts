// The renderer's one way to word a checkpoint (the list, the slider's label,
// the details pane, the file history): shared/checkpoint-words.ts over the
// timeline's whole list, so a filtered view still words each checkpoint by its
// true previous one.
import type { Checkpoint } from '../../../shared/model.js';
import { checkpointWords, listContext, restoredTitle, titleTimeId, type CheckpointWords, type WordsContext } from '../../../shared/checkpoint-words.js';
import { absoluteTime, timeOfDay } from './time.js';

const contexts = new WeakMap<readonly Checkpoint[], WordsContext<Checkpoint>>();

function contextOf(newestFirst: readonly Checkpoint[]): WordsContext<Checkpoint> {
  let ctx = contexts.get(newestFirst);
  if (ctx === undefined) {
    ctx = listContext(newestFirst, (ms) => absoluteTime(ms));
    contexts.set(newestFirst, ctx);
  }
  return ctx;
}

/** The words for `c`, a checkpoint of the timeline's list `newestFirst` (all of it, not a filtered view). */
export function wordsIn(newestFirst: readonly Checkpoint[], c: Checkpoint): CheckpointWords {
  const ctx = contextOf(newestFirst);
  // The list's oldest has no previous one when the list is whole (the timeline holds all it listed).
  const previousOf = (x: Checkpoint): Checkpoint | null | undefined => ctx.previousOf?.(x) ?? (ctx.find?.(x.id) !== undefined ? null : undefined);
  return checkpointWords(c, { ...ctx, previousOf });
}

/** A checkpoint named for a person: ‘its title’ (its time), a restore by what it restored (never nested); a short id only when it is not in the list. */
export function namedIn(newestFirst: readonly Checkpoint[], id: string): string {
  const c = contextOf(newestFirst).find?.(id);
  if (c === undefined) return `the checkpoint ${id.slice(0, 8)}`;
  const title = c.trigger === 'restore' || c.trigger === 'safety' ? restoredTitle(c, contextOf(newestFirst)) : wordsIn(newestFirst, c).title;
  return title === null ? `the checkpoint ${id.slice(0, 8)}` : `‘${title}’ (${absoluteTime(c.time_ms)})`;
}

/** What a finished restore did: "Restored the workspace to “…” (…)", or, restoring a safety checkpoint, "Undid the restore of “…” (…)". */
export function restoreDoneText(newestFirst: readonly Checkpoint[], restoredId: string, what: string): string {
  const target = contextOf(newestFirst).find?.(restoredId);
  if (target?.trigger === 'safety' && target.restore_target !== undefined) {
    // A one-file undo names its file: only that file went back.
    return `Undid the restore of ${what === 'the workspace' ? '' : `${what} to `}${namedIn(newestFirst, target.restore_target).replace(/ \([^()]*\)$/, '')}`;
  }
  return `Restored ${what} to ${namedIn(newestFirst, restoredId)}`;
}

/** “Edit src/a.ts” (10:42 AM, 2528b998): by title and time, the id second (bisect and verify messages). */
export function titledWithId(newestFirst: readonly Checkpoint[], id: string): string {
  const c = contextOf(newestFirst).find?.(id);
  if (c === undefined) return id.slice(0, 8);
  return titleTimeId(wordsIn(newestFirst, c).title, timeOfDay(c.time_ms), id);
}
