// The latest checkpoint of a workspace without a git process: a small `head`
// file in the workspace's folder, written (under the workspace lock) after
// every checkpoint. It is trusted only while the refs agree with it: its ref
// is a loose ref holding its commit, and no loose ref of the workspace sorts
// after it (ref names are ordered by time). Anything else (a crash between the
// ref and this file, refs written by someone else, refs packed by gc) falls
// back to `for-each-ref`. A gc packs every ref, the head's included, so a
// packed ref newer than a still-loose head ref cannot exist.
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

/** The head file, if the refs on disk confirm it. */
async function confirmedHead(ctx: WsContext): Promise<Head | undefined> {
  const head = await readHeadFile(ctx);
  if (!head) return undefined;
  const dir = path.join(ctx.store.gitDir, ...ctx.refPrefix.split('/').filter(Boolean));
  const [content, names] = await Promise.all([
    fs.readFile(path.join(ctx.store.gitDir, ...head.refname.split('/')), 'utf8').catch(() => null),
    fs.readdir(dir).catch(() => [] as string[]),
  ]);
  if (content?.trim() !== head.id) return undefined;
  let newest = '';
  for (const name of names) if (!name.endsWith('.lock') && name > newest) newest = name;
  return newest === head.refname.slice(ctx.refPrefix.length) ? head : undefined;
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
