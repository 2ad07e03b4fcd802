// A private index is only a cache of the disk's stat data: when git says it
// is unusable (a 0-byte file after a crash, a bad checksum, or entries naming
// objects gc pruned) the right answer is to work without it, never to fail.
import { GitFailure } from '../git/git-runner.js';

/** Failures that mean the private index itself is unusable (damaged, or naming pruned objects). */
export function isIndexDamage(err: unknown): err is GitFailure {
  return err instanceof GitFailure && /index file|bad signature|bad index|corrupt|smaller than expected|invalid object|unable to read|bad object|Error building trees|missing object/i.test(err.stderr);
}
