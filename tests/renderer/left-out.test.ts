// The words the renderer uses for files a checkpoint left out and for paths a
// restore did not write.
import { describe, expect, it } from 'vitest';
import { leftOutSentence, megabytes, restoreLeftAlone, skippedReason } from '../../renderer/src/lib/left-out.js';

const MB = 1024 * 1024;

describe('skippedReason', () => {
  it('names the size limit when the file is over it', () => {
    expect(skippedReason({ path: 'big.bin', size: 2 * MB, why: 'too_large' }, 1)).toBe('over the size limit (1 MB)');
    expect(skippedReason({ path: 'big.bin', size: 60 * MB, why: 'too_large' }, 50)).toBe('over the size limit (50 MB)');
  });

  it("gives the file's size when the limit is unknown or has since been raised past it", () => {
    expect(skippedReason({ path: 'big.bin', size: 2 * MB, why: 'too_large' }, null)).toBe('over the size limit (the file is 2 MB)');
    expect(skippedReason({ path: 'big.bin', size: 1.5 * MB, why: 'too_large' }, 50)).toBe('over the size limit (the file is 1.5 MB)');
    expect(skippedReason({ path: 'big.bin', size: 0, why: 'too_large' }, null)).toBe('over the size limit');
  });

  it('says in words why other files were left out', () => {
    expect(skippedReason({ path: 'secret', size: 10, why: 'unreadable' }, 50)).toBe('could not be read');
    expect(skippedReason({ path: 'pipe', size: 0, why: 'special' }, 50)).toBe('not a regular file (pipe, socket or device)');
  });
});

describe('megabytes', () => {
  it('rounds to one decimal below 10 MB and to whole MB above', () => {
    expect(megabytes(MB)).toBe('1 MB');
    expect(megabytes(0.25 * MB)).toBe('0.3 MB');
    expect(megabytes(12.6 * MB)).toBe('13 MB');
  });
});

describe('restoreLeftAlone', () => {
  it('is empty when the restore wrote everything', () => {
    expect(restoreLeftAlone({ conflicts: [], skipped: [] })).toEqual([]);
  });

  it('lists conflicts and skipped writes under their own titles, only when present', () => {
    const groups = restoreLeftAlone({ conflicts: ['a.txt'], skipped: ['link/b.txt', 'c.txt'] });
    expect(groups.map((g) => [g.key, g.title, g.paths])).toEqual([
      ['conflicts', 'Changed while restoring — left as is', ['a.txt']],
      ['skipped', 'Not restored — something unrecorded was in the way', ['link/b.txt', 'c.txt']],
    ]);
    expect(restoreLeftAlone({ conflicts: [], skipped: ['x'] }).map((g) => g.key)).toEqual(['skipped']);
  });
});

describe('leftOutSentence', () => {
  it('names the file, its size, the limit and what to do', () => {
    expect(leftOutSentence({ path: 'dump.bin', size: 60 * MB, why: 'too_large' }, 50)).toBe('dump.bin, 60 MB, over the 50 MB limit — raise it in Settings or exclude it');
    // The limit not known (or raised since): the file's own size only.
    expect(leftOutSentence({ path: 'dump.bin', size: 60 * MB, why: 'too_large' }, null)).toBe('dump.bin, 60 MB, over the size limit — raise it in Settings or exclude it');
    expect(leftOutSentence({ path: 'fifo', size: 0, why: 'special' }, 50)).toBe('fifo, not a regular file (pipe, socket or device)');
  });
});
