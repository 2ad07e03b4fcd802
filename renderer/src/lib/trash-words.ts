// How a prune is told to people: what went and why, in the notice that
// follows an automatic pass and in Settings' "Recently removed".
import type { RemovalRule } from '../../../shared/model.js';

const WHY: Record<RemovalRule, string> = {
  thinned: 'thinned (one kept per hour or day)',
  age: 'past your age limit',
  count: 'past your count limit',
  budget: 'the store over its budget',
};

/** "412 thinned (one kept per hour or day), 3 past your count limit". */
export function removalReasons(byRule: Record<RemovalRule, number>): string {
  return (Object.keys(WHY) as RemovalRule[])
    .filter((r) => byRule[r] > 0)
    .map((r) => `${byRule[r].toLocaleString()} ${WHY[r]}`)
    .join(', ');
}

export function checkpointsWord(n: number): string {
  return `${n.toLocaleString()} checkpoint${n === 1 ? '' : 's'}`;
}

/** More than this many removed at once: the notice stays until it is dismissed. */
export const HANDFUL = 5;
