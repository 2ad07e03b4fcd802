// Moving the selection by keyboard, button or "follow live": through the
// filtered checkpoints when a filter is on, else through all of them.
import type { Checkpoint } from '../../../shared/model.js';
import { useFilter } from './filter.js';
import { indexOfId, useTimeline } from './timeline.js';
import { pulseScrub } from './scrub.js';

/** The checkpoints the person can step through, newest first. */
export function navigable(): Checkpoint[] {
  return useFilter.getState().matches ?? useTimeline.getState().checkpoints;
}

/** +1 is one newer, -1 one older. From a checkpoint outside the filter, go to the nearest one in it that way. */
export function stepBy(delta: number): void {
  const list = navigable();
  if (list.length === 0) return;
  const { selectedId, checkpoints, select } = useTimeline.getState();
  const index = indexOfId(list, selectedId);
  let target: Checkpoint | undefined;
  if (index >= 0) target = list[Math.max(0, Math.min(list.length - 1, index - delta))];
  else {
    const t = checkpoints[indexOfId(checkpoints, selectedId)]?.time_ms ?? Number.POSITIVE_INFINITY;
    // list is newest first: `older` is the first one older than the selection.
    let older = list.findIndex((c) => c.time_ms < t);
    if (older < 0) older = list.length;
    const at = delta < 0 ? older - 1 - delta : older - delta;
    target = list[Math.max(0, Math.min(list.length - 1, at))];
  }
  if (target) {
    pulseScrub();
    select(target.id);
  }
}

export function selectEdge(edge: 'newest' | 'oldest'): void {
  const list = navigable();
  const target = edge === 'newest' ? list[0] : list[list.length - 1];
  if (target) useTimeline.getState().select(target.id);
}
