// Reads tree and blob objects of the store in Node for the path-limited
// snapshot (tree-update.ts): loose objects and those in our packs straight
// from disk (object-read.ts), anything else through the store's long-lived
// `cat-file --batch-command` (cat-file-server.ts) — a pipe round trip, never a
// process start once it runs.
//
// A tree object is a sequence of "<octal mode> <name>\0<20-byte id>". Names
// stay raw bytes: a name that is not valid UTF-8 must be written back exactly
// as it was when its tree is rewritten.
import { ChronoscopeError } from '../../../shared/errors.js';
import type { GitContext } from '../git/git-env.js';
import { sharedRead } from '../git/cat-file-server.js';
import { wholeObjectInNode } from '../objects/object-read.js';
import { recentObject } from '../objects/recent-objects.js';

export interface TreeEntry {
  /** Git's mode as written in the tree: '100644', '100755', '120000', '40000', '160000'. */
  mode: string;
  name: Buffer;
  oid: string;
}

export const TREE_MODE = '40000';

export function isTreeMode(mode: string): boolean {
  return mode === TREE_MODE;
}

export function parseTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = space < 0 ? -1 : body.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 21 > body.length) throw new ChronoscopeError('internal', 'damaged tree object in the store');
    entries.push({
      mode: body.toString('latin1', at, space),
      name: Buffer.from(body.subarray(space + 1, nul)),
      oid: body.toString('hex', nul + 1, nul + 21),
    });
    at = nul + 21;
  }
  return entries;
}

/** The body of an object of the expected type; throws when missing or of another type. */
export async function readObject(gitCtx: GitContext, oid: string, type: 'tree' | 'blob'): Promise<Buffer> {
  const recent = recentObject(oid, type);
  if (recent) return recent;
  const loose = await wholeObjectInNode(gitCtx.gitDir, oid);
  if (loose) {
    if (loose.type !== type) throw new ChronoscopeError('internal', `object ${oid} is a ${loose.type}, not a ${type}`);
    return loose.data;
  }
  const read = await sharedRead(gitCtx, oid, Infinity);
  if (!read?.data) throw new ChronoscopeError('internal', `object ${oid} is missing from the store`);
  return read.data;
}

export async function readTree(gitCtx: GitContext, oid: string): Promise<TreeEntry[]> {
  return parseTree(await readObject(gitCtx, oid, 'tree'));
}
