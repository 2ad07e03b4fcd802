// The latest checkpoint of a workspace without a git process: a small `head`
// file in the workspace's folder, written (under the workspace lock) after
// every checkpoint. It is trusted only while the refs agree with it: its ref
// (loose, or packed by upkeep's pack-refs) holds its commit, and no ref of the
// workspace, loose or packed, sorts after it (ref names are ordered by time).
// Anything else (a crash between the ref and this file, refs written by
// someone else) falls back to listing the newest ref.
//
// It also remembers the private index's file signature at the moment its tree
// was the index's tree: while the index file is unchanged and a scan finds
// nothing to update, the index's tree is still that tree and write-tree can
// be skipped.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { WsContext } from './layout/context.js';
import { latestUsableRecord } from './list.js';
import { writeFileAtomic } from '../fs/atomic-file.js';
import { isObjectId } from './git/git-runner.js';
import { checkpointRefTarget, newestCheckpointRef } from './refs/checkpoint-refs.js';

export interface Head {
  refname: string;
  id: string;
  tree: string;
  /** indexSignature() of the private index when `tree` was its tree. */
  index?: string;
}

function headFile(ctx: WsContext): string {
  return path.join(ctx.layout.dir, 'head');
}


async function readHeadFile(ctx: WsContext): Promise<Head | undefined> {
  try {
    const raw = JSON.parse(await fs.readFile(headFile(ctx), 'utf8')) as Record<string, unknown>;
    const { refname, id, tree, index } = raw;
    if (typeof refname !== 'string' || !refname.startsWith(ctx.refPrefix) || typeof id !== 'string' || !isObjectId(id) || typeof tree !== 'string' || !isObjectId(tree)) return undefined;
    return typeof index === 'string' ? { refname, id, tree, index } : { refname, id, tree };
  } catch {
    return undefined;
  }
}

/** The head file, if the refs on disk (loose or packed) confirm it. */
async function confirmedHead(ctx: WsContext): Promise<Head | undefined> {
  const head = await readHeadFile(ctx);
  if (!head) return undefined;
  const [held, newest] = await Promise.all([checkpointRefTarget(ctx, head.refname), newestCheckpointRef(ctx)]);
  return held === head.id && newest === head.refname ? head : undefined;
}

/** The latest checkpoint's ref, id and tree: from the head file when confirmed, else one for-each-ref. */
export async function latestHead(ctx: WsContext): Promise<Head | undefined> {
  const head = await confirmedHead(ctx);
  if (head) return head;
  const record = await latestUsableRecord(ctx);
  return record ? { refname: record.refname, id: record.checkpoint.id, tree: record.tree } : undefined;
}

/** Under the workspace lock only. */
export async function writeHead(ctx: WsContext, head: Head): Promise<void> {
  await writeFileAtomic(headFile(ctx), `${JSON.stringify(head)}\n`, { mode: 0o600 });
}
