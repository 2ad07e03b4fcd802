// One row per restore (lib/restore-rows.ts): a restore's safety checkpoint
// folds into its row; a restore and its undo are two rows; a safety checkpoint
// with no restore after it (the restore recorded nothing new) keeps its own.
import { describe, expect, it } from 'vitest';
import { foldRestoreRows, safetyBefore } from '../../renderer/src/lib/restore-rows.js';

type C = { id: string; trigger: 'manual' | 'restore' | 'safety'; restore_target?: string };

describe('restore rows', () => {
  it('folds each safety checkpoint into the restore it was taken for', () => {
    const list: C[] = [
      { id: 'r2', trigger: 'restore', restore_target: 's1' },
      { id: 's2', trigger: 'safety', restore_target: 's1' },
      { id: 'r1', trigger: 'restore', restore_target: 'a' },
      { id: 's1', trigger: 'safety', restore_target: 'a' },
      { id: 'b', trigger: 'manual' },
      { id: 'a', trigger: 'manual' },
    ];
    const folded = foldRestoreRows(list);
    expect(folded.rows.map((c) => c.id)).toEqual(['r2', 'r1', 'b', 'a']);
    expect(folded.rowOf.get('s1')).toBe('r1');
    expect(folded.rowOf.get('s2')).toBe('r2');
    expect(safetyBefore(list, 2)?.id).toBe('s1');
  });

  it('keeps a safety checkpoint with no restore of its own, and one taken for another restore', () => {
    const list: C[] = [
      { id: 's3', trigger: 'safety', restore_target: 'a' },
      { id: 'r1', trigger: 'restore', restore_target: 'b' },
      { id: 's1', trigger: 'safety', restore_target: 'a' },
      { id: 'a', trigger: 'manual' },
    ];
    expect(foldRestoreRows(list).rows.map((c) => c.id)).toEqual(['s3', 'r1', 's1', 'a']);
    const plain: C[] = [{ id: 'a', trigger: 'manual' }];
    expect(foldRestoreRows(plain).rows).toBe(plain);
  });
});
