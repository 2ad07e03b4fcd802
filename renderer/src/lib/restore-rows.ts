// One row per restore (issue 42): a restore takes a safety checkpoint (the
// state before it) and then records the restored state. Listed apart they are
// two rows, and a restore with its undo four; folded, the safety checkpoint
// belongs to its restore's row and is reached from there ("the state before
// the restore") or with the slider. Pure, so tests can pin it.
import type { Checkpoint } from '../../../shared/model.js';

type Restorish = Pick<Checkpoint, 'id' | 'trigger' | 'restore_target'>;

/** The safety checkpoint just older than `restore` that was taken for it, or null. `newestFirst` is the whole list. */
export function safetyBefore<C extends Restorish>(newestFirst: readonly C[], index: number): C | null {
  const restore = newestFirst[index];
  const safety = newestFirst[index + 1];
  if (restore === undefined || safety === undefined) return null;
  if (restore.trigger !== 'restore' || safety.trigger !== 'safety') return null;
  // Taken for this restore: both name the checkpoint restored (an older store's may name none; then by order alone).
  if (restore.restore_target !== undefined && safety.restore_target !== undefined && restore.restore_target !== safety.restore_target) return null;
  return safety;
}

export interface FoldedRows<C> {
  /** The rows: each safety checkpoint folded into its restore's. */
  rows: C[];
  /** A folded safety checkpoint's id → its restore's (the row that stands for it). */
  rowOf: Map<string, string>;
}

/** Folds each restore's safety checkpoint into the restore's row; a list with nothing to fold is returned as is. */
export function foldRestoreRows<C extends Restorish>(newestFirst: C[]): FoldedRows<C> {
  const rowOf = new Map<string, string>();
  for (let i = 0; i < newestFirst.length - 1; i++) {
    const safety = safetyBefore(newestFirst, i);
    if (safety !== null) rowOf.set(safety.id, newestFirst[i]!.id);
  }
  if (rowOf.size === 0) return { rows: newestFirst, rowOf };
  return { rows: newestFirst.filter((c) => !rowOf.has(c.id)), rowOf };
}
