// hiddenChange walks the texts instead of normalising copies of them; it must
// answer exactly what the plain definition (the regex replacements) answers.
import { describe, expect, it } from 'vitest';
import { hiddenChange, type HiddenChange } from '../../shared/change-kind.js';

function byDefinition(a: string, b: string): HiddenChange {
  if (a === b) return null;
  const lf = (t: string) => t.replace(/\r\n?/g, '\n');
  if (lf(a) === lf(b)) return 'line-endings';
  const bare = (t: string) => t.replace(/\s+/g, '');
  return bare(a) === bare(b) ? 'whitespace' : null;
}

// A small deterministic generator (mulberry32): the same cases every run.
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', ' ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2028', '\ufeff', '\u3000', 'é', '\v', '\u0085', '\u200b'];

describe('hiddenChange', () => {
  it('names the plain cases', () => {
    expect(hiddenChange('one\ntwo\n', 'one\ntwo\n')).toBeNull();
    expect(hiddenChange('one\ntwo\n', 'one\r\ntwo\r\n')).toBe('line-endings');
    expect(hiddenChange('one\rtwo', 'one\ntwo')).toBe('line-endings');
    expect(hiddenChange('const a = 1;\n', 'const  a = 1;\n  ')).toBe('whitespace');
    expect(hiddenChange('const a = 1;\n', 'const a = 2;\n')).toBeNull();
    expect(hiddenChange('ab', 'a')).toBeNull();
    expect(hiddenChange('a\r', 'a\n\n')).toBe('whitespace');
  });

  it('agrees with the definition on 20,000 generated pairs, near-misses included', () => {
    const next = random(31);
    const pick = () => ALPHABET[Math.floor(next() * ALPHABET.length)]!;
    const text = () => Array.from({ length: Math.floor(next() * 12) }, pick).join('');
    const counts = { null: 0, 'line-endings': 0, whitespace: 0 };
    for (let n = 0; n < 20_000; n++) {
      const a = text();
      // Half the pairs are the same text with its line endings or spaces changed, so all three answers occur.
      const b = next() < 0.5 ? text() : a.replace(/\r\n|\n|\r| |\t/g, (m) => (next() < 0.5 ? m : pick()));
      const want = byDefinition(a, b);
      expect(hiddenChange(a, b), JSON.stringify([a, b])).toBe(want);
      counts[String(want) as keyof typeof counts]++;
    }
    expect(Math.min(...Object.values(counts))).toBeGreaterThan(200);
  });

  it('answers a 3 MB pair that differs only at its end', () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
    const a = lines.join('\n');
    expect(hiddenChange(a, lines.join('\r\n'))).toBe('line-endings');
    expect(hiddenChange(a, `${a} `)).toBe('whitespace');
    expect(hiddenChange(a, `${a}!`)).toBeNull();
  });
});
