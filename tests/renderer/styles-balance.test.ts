// A brace lost when two branches' CSS met in a merge silently swallowed every
// rule after it (the full-width diff, the filter bar, the verify panel). The
// bundler does not complain, so check the stylesheet's nesting here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../renderer/src/styles.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');

describe('renderer/src/styles.css', () => {
  it('closes every block, and no top-level rule starts inside another', () => {
    let depth = 0;
    const misplaced: number[] = [];
    css.split('\n').forEach((line, i) => {
      // A selector at column 0 is meant as a top-level rule: it must not sit inside an open block.
      if (depth > 0 && /^[.#a-z[:*]/.test(line) && !/^(from|to)\b/.test(line)) misplaced.push(i + 1);
      for (const ch of line) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
      expect(depth, `line ${i + 1} closes more than it opened`).toBeGreaterThanOrEqual(0);
    });
    expect(misplaced).toEqual([]);
    expect(depth).toBe(0);
  });
});
