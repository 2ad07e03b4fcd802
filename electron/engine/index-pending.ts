// The index sync a process could not finish, written down for the next one.
// A hook working alone answers and exits at once (the agent must not wait),
// so the sync it queued (index-sync.ts) dies with it. Without this note the
// next process finds the index neither the latest checkpoint's tree nor
// known to be the tree before it, and must have git re-scan and rewrite it:
// every other lone hook paid ~200 ms more on 10,000 files. With it, the next
// snapshot knows what the index lacks (the note's paths) and builds its tree
// in Node as if the sync were still queued in-process, then carries the note
// on; whichever process finishes a sync removes it. Only such a process
// writes notes (deferIndexSyncs): the CLI and the app finish their syncs.
import fs from 'node:fs/promises';
import path from 'node:path';
import { readTextBounded } from '../fs/bounded-read.js';
import type { WsContext } from './layout/context.js';
import { isObjectId } from './git/git-runner.js';
import type { SeenFile } from './index/seen-files.js';

/** A snapshot's request to bring the private index up to its checkpoint (index-sync.ts). */
export interface IndexSyncJob {
  /** The checkpoint the snapshot wrote. */
  commit: string;
  /** The latest checkpoint when the snapshot began. */
  parent: string;
  /** The index's signature when it held the previous checkpoint's tree; null when it did not. */
  indexBefore: string | null;
  /** Path → as recorded: file signature when hashed, mode and blob (null: gone). */
  seen: ReadonlyMap<string, SeenFile | null>;
  /** Paths a checkpoint of the job removed from the tree before it. */
  removed: ReadonlySet<string>;
}

const FILE = 'index-pending.json';
const MAX_BYTES = 8 * 1024 * 1024;

function noteFile(ctx: WsContext): string {
  return path.join(ctx.layout.dir, FILE);
}

/** Written in place: a note torn by a crash does not parse and is ignored (the next scan lets git rewrite the index). */
export async function writePendingNote(ctx: WsContext, job: Readonly<IndexSyncJob>): Promise<void> {
  const note = { v: 1, commit: job.commit, parent: job.parent, indexBefore: job.indexBefore, seen: [...job.seen], removed: [...job.removed] };
  await fs.writeFile(noteFile(ctx), `${JSON.stringify(note)}\n`, { mode: 0o600 }).catch(() => undefined);
}

/**
 * Removes the note once `done` covers it: the note's own job, or one that took
 * in all its paths (a process that adopted it and merged its own snapshots in).
 * A later snapshot's note stays; one that does not parse goes.
 */
export async function clearPendingNote(ctx: WsContext, done: Readonly<Pick<IndexSyncJob, 'commit' | 'seen'>>): Promise<void> {
  const note = await readPendingNote(ctx);
  if (note !== null && note.commit !== done.commit && ![...note.seen.keys()].every((rel) => done.seen.has(rel))) return;
  await fs.rm(noteFile(ctx), { force: true }).catch(() => undefined);
}

const MODES = new Set(['100644', '100755', '120000']);

function plainRel(rel: unknown): rel is string {
  return typeof rel === 'string' && rel !== '' && !rel.includes('\0') && !path.isAbsolute(rel) && !rel.split('/').some((part) => part === '..' || part === '');
}

function seenFile(value: unknown): SeenFile | null | undefined {
  if (value === null) return null;
  if (typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  return typeof v['signature'] === 'string' && typeof v['mode'] === 'string' && MODES.has(v['mode']) && typeof v['oid'] === 'string' && isObjectId(v['oid'])
    ? { signature: v['signature'], mode: v['mode'], oid: v['oid'] }
    : undefined;
}

/** The note as a job, or null when there is none or any part of it is not what we write. */
export async function readPendingNote(ctx: WsContext): Promise<IndexSyncJob | null> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readTextBounded(noteFile(ctx), MAX_BYTES));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as Record<string, unknown>;
  const { commit, parent, indexBefore, seen, removed } = o;
  if (o['v'] !== 1 || typeof commit !== 'string' || !isObjectId(commit) || typeof parent !== 'string' || !isObjectId(parent)) return null;
  if (indexBefore !== null && typeof indexBefore !== 'string') return null;
  if (!Array.isArray(seen) || !Array.isArray(removed)) return null;
  const seenMap = new Map<string, SeenFile | null>();
  for (const pair of seen as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || !plainRel(pair[0])) return null;
    const file = seenFile(pair[1]);
    if (file === undefined) return null;
    seenMap.set(pair[0], file);
  }
  if (!(removed as unknown[]).every(plainRel)) return null;
  return { commit, parent, indexBefore, seen: seenMap, removed: new Set(removed as string[]) };
}
