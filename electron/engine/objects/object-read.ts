// Reads objects of the store in Node, wherever they are: a loose file
// (loose-read.ts) or a pack snapshots wrote (pack-read.ts). Null means Node
// cannot read it here (missing, damaged, or a delta in a pack git wrote):
// the caller asks git.
import { looseInfos, looseObject, readLooseWhole, type LooseInfo } from './loose-read.js';
import { mapLimit } from '../support/fsutil.js';
import { packedObject } from './pack-read.js';

export interface NodeObject extends LooseInfo {
  /** Null when over the limit asked for (not inflated). */
  data: Buffer | null;
}

/** Type, size and content (null over maxBytes). */
export async function objectInNode(gitDir: string, oid: string, maxBytes = Infinity): Promise<NodeObject | null> {
  return (await looseObject(gitDir, oid, maxBytes)) ?? (await packedObject(gitDir, oid, maxBytes));
}

/** Type, size and content of an object known to be small (a tree, a commit): one read when loose. */
export async function wholeObjectInNode(gitDir: string, oid: string): Promise<(LooseInfo & { data: Buffer }) | null> {
  const loose = await readLooseWhole(gitDir, oid);
  if (loose) return loose;
  const packed = await packedObject(gitDir, oid);
  return packed?.data ? { type: packed.type, size: packed.size, data: packed.data } : null;
}

/** Types and sizes of many objects; those Node cannot read are left out. */
export async function objectInfosInNode(gitDir: string, oids: readonly string[]): Promise<Map<string, LooseInfo>> {
  const result = await looseInfos(gitDir, oids);
  const rest = oids.filter((oid) => !result.has(oid));
  await mapLimit(rest, 32, async (oid) => {
    const packed = await packedObject(gitDir, oid, 0);
    if (packed) result.set(oid, { type: packed.type, size: packed.size });
  });
  return result;
}
