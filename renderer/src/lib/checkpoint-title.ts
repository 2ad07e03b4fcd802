// The renderer's one way to word a checkpoint (the list, the slider's label,
// the details pane, the file history): shared/checkpoint-words.ts over the
// timeline's whole list, so a filtered view still words each checkpoint by its
// true previous one.
import type { Checkpoint } from '../../../shared/model.js';
import { checkpointWords, listContext, type CheckpointWords, type WordsContext } from '../../../shared/checkpoint-words.js';
import { absoluteTime } from './time.js';

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
