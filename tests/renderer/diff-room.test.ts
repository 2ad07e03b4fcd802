// Issue 42: the folder shown beside a file's name keeps the part that differs;
// the side-by-side preview pairs lines as Monaco's split view does; the split
// needs 80 columns a side.
import { describe, expect, it } from 'vitest';
import { shownDir } from '../../renderer/src/lib/shown-dir.js';
import { previewRows, sideBySideRows } from '../../renderer/src/lib/preview-rows.js';
import { SIDE_MIN_COLUMNS, sideBySideBreakpoint } from '../../renderer/src/lib/side-by-side.js';

describe('shownDir', () => {
  const all = ['src/lib/storage/memory-adapter.ts', 'src/persistence/adapters/memory-adapter.ts', 'src/client/api.ts'];
  it('leaves out the folders every path shares, so what differs shows first', () => {
    expect(shownDir(all[0]!, all)).toBe('…/lib/storage/');
    expect(shownDir(all[1]!, all)).toBe('…/persistence/adapters/');
    expect(shownDir(all[2]!, all)).toBe('…/client/');
  });
  it('shows a folder whole when nothing in it differs, and nothing for a file at the top', () => {
    expect(shownDir('src/a.ts', ['src/a.ts', 'src/b.ts'])).toBe('src/');
    expect(shownDir('src/deep/a.ts', ['src/deep/a.ts'])).toBe('src/deep/');
    expect(shownDir('README.md', ['README.md', 'src/a.ts'])).toBe('');
    expect(shownDir('src/a.ts', ['README.md', 'src/a.ts'])).toBe('src/');
  });
});

describe('sideBySideRows', () => {
  it('puts a run of removed lines beside the added ones that replaced it, context on both sides', () => {
    const { rows } = previewRows({ original: 'a\nb\nc\nd\n', modified: 'a\nB\nB2\nd\n', ignoreWhitespace: false });
    const side = sideBySideRows(rows);
    expect(side[0]!.hunk).toMatch(/^@@/);
    const body = side.slice(1).map((r) => [r.left?.text ?? null, r.right?.text ?? null]);
    expect(body).toEqual([
      ['a', 'a'],
      ['b', 'B'],
      ['c', 'B2'],
      ['d', 'd'],
    ]);
  });
  it('pads the shorter side with blanks', () => {
    const { rows } = previewRows({ original: 'a\n', modified: 'a\nb\nc\n', ignoreWhitespace: false });
    const body = sideBySideRows(rows).slice(1).map((r) => [r.left?.text ?? null, r.right?.text ?? null]);
    expect(body).toEqual([
      ['a', 'a'],
      [null, 'b'],
      [null, 'c'],
    ]);
  });
});

describe('sideBySideBreakpoint', () => {
  it("is two sides of 80 columns and their gutters, in the font's column width", () => {
    expect(SIDE_MIN_COLUMNS).toBe(80);
    // 7.5 px columns (12.5 px monospace): 2 × (90 × 7.5 + 8).
    expect(sideBySideBreakpoint(7.5)).toBe(1366);
    expect(sideBySideBreakpoint(9)).toBeGreaterThan(sideBySideBreakpoint(7.5));
  });
});
