// Parsers for option values. They throw commander's InvalidArgumentError, which
// the program turns into a usage error (exit 2), not a runtime error.
import { InvalidArgumentError } from 'commander';

export function positiveInt(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError('expected a positive whole number.');
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive whole number.');
  return n;
}
