// The scrub preview's rows: the changed lines with their numbers on each side,
// cut to what fills the pane, and a bail-out for texts too different to diff.
import { describe, expect, it } from 'vitest';
import { MAX_ROWS, previewRows } from '../../renderer/src/lib/preview-rows.js';

const lines = (n: number, edit?: (i: number) => string | null) =>
  Array.from({ length: n }, (_, i) => (edit ? edit(i + 1) : null) ?? `line ${i + 1}`).join('\n') + '\n';

describe('scrub preview rows', () => {
  it('shows one edit far down a file as a hunk with its line numbers and 3 lines of context', () => {
    const before = lines(500);
    const after = lines(500, (i) => (i === 400 ? 'line four hundred, edited' : null));
    const { rows, more, notDiffed } = previewRows({ original: before, modified: after, ignoreWhitespace: false });
    expect(notDiffed).toBeNull();
    expect(more).toBe(0);
    expect(rows[0]).toMatchObject({ kind: 'hunk' });
    expect(rows.filter((r) => r.kind === 'removed')).toEqual([{ kind: 'removed', oldNo: 400, newNo: null, text: 'line 400' }]);
    expect(rows.filter((r) => r.kind === 'added')).toEqual([{ kind: 'added', oldNo: null, newNo: 400, text: 'line four hundred, edited' }]);
    expect(rows.filter((r) => r.kind === 'context').map((r) => r.oldNo)).toEqual([397, 398, 399, 401, 402, 403]);
  });

  it('counts what it leaves out past the rows that fill the pane', () => {
    const { rows, more } = previewRows({ original: '', modified: lines(1000), ignoreWhitespace: false });
    expect(rows).toHaveLength(MAX_ROWS);
    expect(rows.length + more).toBe(1001); // the hunk header and 1,000 added lines
  });

  it('ignores whitespace-only changes when asked to', () => {
    const before = 'a\n  b\nc\n';
    const after = 'a\n\tb\nc\n';
    expect(previewRows({ original: before, modified: after, ignoreWhitespace: false }).rows.some((r) => r.kind === 'added')).toBe(true);
    expect(previewRows({ original: before, modified: after, ignoreWhitespace: true }).rows).toEqual([]);
  });

  it('gives up on texts too different to diff quickly (the full diff waits for the stop)', () => {
    const a = Array.from({ length: 6000 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 6000 }, (_, i) => `b${i}`).join('\n');
    expect(previewRows({ original: a, modified: b, ignoreWhitespace: false }).notDiffed).not.toBeNull();
    // Given all the time it wants, it still stops at the edit length: that is a large change.
    expect(previewRows({ original: a, modified: b, ignoreWhitespace: false }, 60_000).notDiffed).toBe('large');
  });

  it('says a diff that ran out of time was slow, not large (a cold start on a busy machine)', () => {
    // 500 lines all changed: within the edit length, but tens of milliseconds of work.
    const a = Array.from({ length: 500 }, (_, i) => `a${i}`).join('\n');
    const b = Array.from({ length: 500 }, (_, i) => `b${i}`).join('\n');
    expect(previewRows({ original: a, modified: b, ignoreWhitespace: false }, 1).notDiffed).toBe('slow');
    expect(previewRows({ original: a, modified: b, ignoreWhitespace: false }, 60_000).notDiffed).toBeNull();
  });

  it('shows an added file as its numbered lines, a deleted one on the old side', () => {
    expect(previewRows({ text: 'x\ny\n', change: 'added' }).rows).toEqual([
      { kind: 'added', oldNo: null, newNo: 1, text: 'x' },
      { kind: 'added', oldNo: null, newNo: 2, text: 'y' },
    ]);
    expect(previewRows({ text: 'x', change: 'deleted' }).rows).toEqual([{ kind: 'removed', oldNo: 1, newNo: null, text: 'x' }]);
  });
});
