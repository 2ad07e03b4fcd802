// The line count shown on an added or deleted file's strip agrees with git's.
import { describe, expect, it } from 'vitest';
import { lineCount, lineCountLabel } from '../../renderer/src/lib/line-count.js';

describe('lineCount', () => {
  it('does not count the empty line after a final newline', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('\n')).toBe(1);
    expect(lineCount('')).toBe(0);
  });

  it('labels counts in words', () => {
    expect(lineCountLabel('')).toBe('empty');
    expect(lineCountLabel('x\n')).toBe('1 line');
    expect(lineCountLabel('x\n'.repeat(1200))).toBe('1,200 lines');
  });
});
