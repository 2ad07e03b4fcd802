// Listing and resolving checkpoints. One ref per checkpoint under
// refs/chronoscope/<wsid>/cp/<time_ms>-<seq>, so the newest N are the first N
// ref names: a few are read in Node, many in one `for-each-ref` process.
import type { BigIntStats } from 'node:fs';
import fs from 'node:fs/promises';
import { ChronoscopeError } from '../../shared/errors.js';
import type { Checkpoint } from '../../shared/model.js';
import type { WsContext } from './layout/context.js';
import { mapLimit } from './support/fsutil.js';
import { git, gitStdin, GitFailure, isObjectId } from './git/git-runner.js';
import { objectInNode } from './objects/object-read.js';
import { decodeMessage, type CheckpointRecord, type DecodedMessage } from './layout/message.js';
import { readMeta } from './layout/meta.js';
import { markDamagedTrees } from './trees/tree-check.js';
import { validateRef } from './validate.js';
import { checkpointRefNames, checkpointRefTarget, looseRefsDir, packedRefsFile } from './refs/checkpoint-refs.js';

/** A record from a commit's message; `modes` kept beside the public checkpoint. */
function record(id: string, refname: string, tree: string, contents: string, pinned: boolean): CheckpointRecord {
  const decoded = decodeMessage(contents); // once: a first listing of 10,000 spends most of its own time here
  const modes = decoded.meta.modes;
  const checkpoint = checkpointOf(id, refname, decoded, pinned);
  return modes ? { refname, tree, checkpoint, modes } : { refname, tree, checkpoint };
}

/** A record of a commit read elsewhere (a teammate's shared checkpoint: electron/share/shared-list.ts), decoded as ours are. */
export function recordFromCommit(id: string, refname: string, tree: string, contents: string): CheckpointRecord {
  return record(id, refname, tree, contents, false);
}

const FORMAT = '%(refname)%00%(objectname)%00%(tree)%00%(contents)%00%01';
const RECORD_END = '\0\x01\n';

/**
 * Records this process has read, by store and ref name: a listing reads only
 * the checkpoints it has not seen (none, usually: a new checkpoint is one more
 * ref). Refs are create-only and commits never change, so a record stays
 * valid while its ref exists; which refs exist is read every time (one
 * readdir, and packed-refs when it changed). A ref rewritten in place to
 * another commit, which nothing of ours does, would go unnoticed. Damaged
 * checkpoints are not kept (they are read again, in case they were repaired).
 */
const knownRecords = new Map<string, Map<string, CheckpointRecord>>();
const KNOWN_MAX = 200_000;

export async function listRecords(ctx: WsContext, limit?: number): Promise<CheckpointRecord[]> {
  const count = limit !== undefined ? [`--count=${Math.max(1, Math.floor(limit))}`] : [];
  const [names, meta] = await Promise.all([checkpointRefNames(ctx), readMeta(ctx.layout.metaFile)]);
  const pinned = new Set(meta?.pinned ?? []);
  const wanted = limit === undefined ? names : names.slice(0, Math.max(1, Math.floor(limit)));
  let known = knownRecords.get(ctx.store.gitDir);
  if (!known) {
    known = new Map();
    knownRecords.set(ctx.store.gitDir, known);
  }
  let misses = wanted.filter((n) => !known.has(n));
  // A few (the latest, a page): read in Node. git's listing would read every ref file of the
  // workspace and, to sort them, every commit (10,000 checkpoints: ~250 ms for the latest one).
  if (misses.length > 0 && misses.length <= NODE_READ_MAX) {
    remember(known, await recordsInNode(ctx, misses));
    misses = misses.filter((n) => !known.has(n));
  }
  if (misses.length > 0) {
    // Many new (a first listing, or the whole list after its first page): the newest N under the
    // prefix, as git sorts them, known ones included. Only a few by name: git matches every ref
    // against every name given (the 9,800 refs after a first page of 200 took 5.4 s, the prefix 0.8 s).
    const args = ['for-each-ref', '--sort=-refname', `--format=${FORMAT}`];
    const byPrefix = misses.length === wanted.length || misses.length > NODE_READ_MAX;
    const listed = await streamRecords(ctx, byPrefix ? [...args, ...count, ctx.refPrefix] : [...args, ...misses]).catch((err: unknown) => err);
    if (listed instanceof GitFailure) return markDamagedTrees(ctx.store.gitDir, ctx.layout.dir, await listDamaged(ctx, count, pinned));
    if (!Array.isArray(listed)) throw listed;
    remember(known, listed as CheckpointRecord[]);
  }
  const records: CheckpointRecord[] = [];
  for (const name of wanted) {
    const record = known.get(name);
    if (!record) continue; // deleted while listed
    const pin = pinned.has(record.checkpoint.id);
    records.push(record.checkpoint.pinned === pin ? record : { ...record, checkpoint: { ...record.checkpoint, pinned: pin } });
  }
  return markDamagedTrees(ctx.store.gitDir, ctx.layout.dir, records);
}

/** Adds records to this process's cache, emptied first when it would outgrow its bound. */
function remember(known: Map<string, CheckpointRecord>, records: readonly CheckpointRecord[]): void {
  if (known.size + records.length > KNOWN_MAX) known.clear();
  for (const record of records) known.set(record.refname, record);
}

function parseRecords(out: string, pinned: Set<string>): CheckpointRecord[] {
  return out
    .split(RECORD_END)
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => parseRecord(chunk, pinned));
}

function parseRecord(chunk: string, pinned: Set<string>): CheckpointRecord {
  const [refname = '', id = '', tree = '', contents = ''] = chunk.split('\0');
  return record(id, refname, tree, contents, pinned.has(id));
}

const RECORD_END_BYTES = Buffer.from(RECORD_END, 'latin1');

/**
 * git's listing parsed as it arrives, record by record: neither git's whole
 * output (~50 MB at 100,000 checkpoints) nor its split copy is ever held, and
 * decoding (~150 ms per 10,000) runs between git's chunks rather than in one
 * block that would hold every other request of the app or `serve`.
 */
async function streamRecords(ctx: WsContext, args: string[]): Promise<CheckpointRecord[]> {
  const records: CheckpointRecord[] = [];
  const none = new Set<string>();
  let rest: Buffer = Buffer.alloc(0);
  await gitStdin(ctx.git, args, {
    keepStdout: false,
    onStdout: (chunk) => {
      const data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
      let at = 0;
      for (let end = data.indexOf(RECORD_END_BYTES, at); end >= 0; end = data.indexOf(RECORD_END_BYTES, at)) {
        records.push(parseRecord(data.toString('utf8', at, end), none));
        at = end + RECORD_END_BYTES.length;
      }
      rest = at < data.length ? Buffer.from(data.subarray(at)) : Buffer.alloc(0);
    },
  });
  const tail = rest.toString('utf8');
  if (tail.length > 0) records.push(...parseRecords(tail, none));
  return records;
}

/**
 * The listing when some checkpoint's commit cannot be read (a damaged or
 * empty object after a crash or a disk fault): git's listing fails as a
 * whole, so list the refs alone and read each commit on its own. A checkpoint
 * whose commit is unreadable is listed, marked damaged, with no tree; the
 * others are unaffected.
 */
async function listDamaged(ctx: WsContext, count: string[], pinned: Set<string>): Promise<CheckpointRecord[]> {
  const out = await git(ctx.git, ['for-each-ref', '--sort=-refname', '--format=%(refname)%00%(objectname)', ...count, ctx.refPrefix]);
  const refs = out.split('\n').filter(Boolean).map((line) => line.split('\0') as [string, string]);
  return mapLimit(refs, 16, async ([refname, id]): Promise<CheckpointRecord> => {
    const loose = await objectInNode(ctx.store.gitDir, id, 1024 * 1024);
    let text: string | null = loose?.type === 'commit' && loose.data !== null ? loose.data.toString('utf8') : null;
    if (text === null) {
      // Not readable in Node (a delta in a pack gc wrote): ask git for this one ref alone.
      const one = await git(ctx.git, ['for-each-ref', `--format=${FORMAT}`, refname]).catch(() => null);
      const record = one === null ? undefined : parseRecords(one, pinned)[0];
      if (record) return record;
    } else {
      const tree = /^tree ([0-9a-f]{40})\n/.exec(text)?.[1];
      const split = text.indexOf('\n\n');
      if (tree !== undefined && split >= 0) return record(id, refname, tree, text.slice(split + 2), pinned.has(id));
    }
    const checkpoint = decodeCheckpoint(id, refname, 'Damaged checkpoint: its commit cannot be read', pinned.has(id));
    return { refname, tree: '', checkpoint: { ...checkpoint, damaged: true } };
  });
}

/** Refuses a damaged checkpoint for anything that needs its content. */
export function usable(record: CheckpointRecord): CheckpointRecord {
  if (record.checkpoint.damaged) {
    const what = record.tree === '' ? 'its commit' : 'its tree';
    throw new ChronoscopeError('internal', `checkpoint ${record.checkpoint.id.slice(0, 12)} is damaged (${what} cannot be read): it cannot be shown, compared or restored; nothing was changed; other checkpoints are unaffected`);
  }
  return record;
}

/**
 * Every checkpoint, newest first, for lookups by id (resolve, previous). The
 * listing is kept in memory and reused while the workspace's refs are
 * unchanged: the names of its loose refs and the packed-refs file's identity
 * (every ref change made through git or by us creates, deletes or renames one
 * of those files; a ref rewritten in place to another commit, which nothing of
 * ours does, would go unnoticed). Commits never change, so a record stays
 * valid as long as its ref does. Pins live in meta.json, applied on every call.
 *
 * Reading the names is a readdir of up to 10,000s of entries, and a scrubbing
 * UI asks several times a second: so the folder's own stamp (its mtime and
 * ctime change whenever an entry is created, deleted or renamed) vouches for
 * the names without reading them, once that stamp is safely in the past. A
 * change within the file system's timestamp granularity of an earlier one
 * would leave the stamp as it was; like git's "racily clean" index entries, a
 * stamp younger than RACY_MS is not trusted and the names are read again.
 */
interface Listing {
  /** The ref names' key (refsKey) the records were listed under. */
  key: string;
  /** refsStamp at (or before) the last time the names were read and matched `key`; null when it cannot vouch. */
  stamp: string | null;
  records: Promise<CheckpointRecord[]>;
  /** Position of each record by ref name and by id, built on first use. */
  index?: { byRef: Map<string, number>; byId: Map<string, number> };
}

const listingCache = new Map<string, Listing>();
const RACY_MS = 2000;

function statKey(stat: BigIntStats | null): string {
  return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}` : 'none';
}

/** The refs folder's and packed-refs' stamps; null while either changed too recently to vouch for what it holds. */
async function refsStamp(ctx: WsContext): Promise<string | null> {
  const now = Date.now();
  const [dir, packed] = await Promise.all([
    fs.stat(looseRefsDir(ctx), { bigint: true }).catch(() => null),
    fs.stat(packedRefsFile(ctx.store.gitDir), { bigint: true }).catch(() => null),
  ]);
  const young = (stat: BigIntStats | null) => stat !== null && Number(stat.mtimeNs / 1_000_000n) > now - RACY_MS;
  return young(dir) || young(packed) ? null : `${statKey(dir)}|${statKey(packed)}`;
}

async function refsKey(ctx: WsContext): Promise<string> {
  const [names, packed] = await Promise.all([
    fs.readdir(looseRefsDir(ctx)).catch(() => [] as string[]),
    fs.stat(packedRefsFile(ctx.store.gitDir), { bigint: true }).catch(() => null),
  ]);
  return `${statKey(packed)}|${names.sort().join('/')}`;
}

/** The cached listing when the refs' stamp alone shows it current (no readdir), else undefined. */
async function vouchedListing(ctx: WsContext): Promise<Listing | undefined> {
  const cached = listingCache.get(listingKey(ctx));
  if (!cached?.stamp) return undefined;
  return cached.stamp === (await refsStamp(ctx)) ? cached : undefined;
}

function listingKey(ctx: WsContext): string {
  return `${ctx.store.gitDir}\0${ctx.refPrefix}`;
}

/** The workspace's listing, current: vouched for by the refs' stamp, else by their names, else listed again. */
async function currentListing(ctx: WsContext): Promise<Listing> {
  const vouched = await vouchedListing(ctx);
  if (vouched) return vouched;
  const cacheKey = listingKey(ctx);
  // The stamp is taken before the names are read: a change in between makes the next stamp differ, never match.
  const stamp = await refsStamp(ctx);
  const key = await refsKey(ctx);
  const cached = listingCache.get(cacheKey);
  if (cached && cached.key === key) {
    cached.stamp = stamp;
    return cached;
  }
  const records = listRecords(ctx);
  if (listingCache.size > 64) listingCache.clear();
  // Keyed by the refs as they were before listing: a change meanwhile only costs a miss next time.
  const listing: Listing = { key, stamp, records };
  listingCache.set(cacheKey, listing);
  records.catch(() => listingCache.delete(cacheKey));
  return listing;
}

async function withPins(ctx: WsContext, records: CheckpointRecord[]): Promise<CheckpointRecord[]> {
  const pinned = new Set((await readMeta(ctx.layout.metaFile))?.pinned ?? []);
  return records.map((r) => (r.checkpoint.pinned === pinned.has(r.checkpoint.id) ? r : { ...r, checkpoint: { ...r.checkpoint, pinned: !r.checkpoint.pinned } }));
}

async function indexOf(listing: Listing): Promise<NonNullable<Listing['index']>> {
  if (!listing.index) {
    const records = await listing.records;
    const byRef = new Map<string, number>();
    const byId = new Map<string, number>();
    records.forEach((r, i) => {
      byRef.set(r.refname, i);
      byId.set(r.checkpoint.id, i);
    });
    listing.index = { byRef, byId };
  }
  return listing.index;
}

export async function allRecords(ctx: WsContext): Promise<CheckpointRecord[]> {
  return withPins(ctx, await (await currentListing(ctx)).records);
}

export function decodeCheckpoint(id: string, refname: string, contents: string, pinned: boolean): Checkpoint {
  return checkpointOf(id, refname, decodeMessage(contents), pinned);
}

function checkpointOf(id: string, refname: string, { reason, meta }: DecodedMessage, pinned: boolean): Checkpoint {
  const time_ms = meta.time_ms || refTime(refname).ms;
  const cp: Checkpoint = {
    id,
    time: new Date(time_ms).toISOString(),
    time_ms,
    reason,
    trigger: meta.trigger,
    stats: meta.stats,
    skipped: meta.skipped,
    pinned,
  };
  for (const key of ['agent', 'tool', 'session', 'tool_use_id', 'prompt', 'prompt_id', 'restore_target'] as const) {
    const value = meta[key];
    if (value !== undefined) cp[key] = value;
  }
  if (meta.change_by !== undefined) cp.change_by = meta.change_by;
  if (meta.made_by !== undefined) cp.made_by = meta.made_by;
  if (meta.paths !== undefined) cp.paths = meta.paths;
  if (meta.restore_paths !== undefined) cp.restore_paths = meta.restore_paths;
  if (meta.restore_of !== undefined) cp.restore_of = meta.restore_of;
  return cp;
}

/** The time and sequence a ref name orders by. */
export function refTime(refname: string): { ms: number; seq: number } {
  const m = /\/(\d{13})-(\d{4})$/.exec(refname);
  return m ? { ms: Number(m[1]), seq: Number(m[2]) } : { ms: 0, seq: 0 };
}

/** Next ref name: ordered after `latest` even if the clock went backwards. */
export function nextRefName(ctx: WsContext, latestRef: string | undefined, now: number): string {
  let ms = now;
  let seq = 0;
  if (latestRef) {
    const last = refTime(latestRef);
    if (ms <= last.ms) {
      ms = last.ms;
      seq = last.seq + 1;
      if (seq > 9999) {
        ms += 1;
        seq = 0;
      }
    }
  }
  return `${ctx.refPrefix}${String(ms).padStart(13, '0')}-${String(seq).padStart(4, '0')}`;
}

export async function latestRecord(ctx: WsContext): Promise<CheckpointRecord | undefined> {
  return (await listRecords(ctx, 1))[0];
}

/** The newest checkpoint whose commit can be read (snapshots build on it; a damaged newest one is passed over). */
export async function latestUsableRecord(ctx: WsContext): Promise<CheckpointRecord | undefined> {
  const newest = await latestRecord(ctx);
  if (!newest?.checkpoint.damaged) return newest;
  return (await listRecords(ctx)).find((r) => !r.checkpoint.damaged);
}


/**
 * Up to this many records not yet known are read in Node rather than listed by git: the app's
 * first page (200) among them (git's --count=200 sorts every ref first: 316 ms at 10,000, Node 98).
 */
const NODE_READ_MAX = 200;

/** A commit object's tree and message (what `%(tree)` and `%(contents)` give); undefined if it is not one of ours. */
function commitParts(data: Buffer): { tree: string; contents: string } | undefined {
  const text = data.toString('utf8');
  const tree = /^tree ([0-9a-f]{40})\n/.exec(text)?.[1];
  const split = text.indexOf('\n\n');
  return tree === undefined || split < 0 ? undefined : { tree, contents: text.slice(split + 2) };
}

/**
 * Records of these refs read in Node: each ref (its loose file or packed-refs), then its commit. Those
 * it cannot read this way (a commit Node cannot read or parse, a damaged one) are left out: git lists them.
 */
async function recordsInNode(ctx: WsContext, refnames: readonly string[]): Promise<CheckpointRecord[]> {
  const found: CheckpointRecord[] = [];
  await mapLimit(refnames, 16, async (refname) => {
    const id = await checkpointRefTarget(ctx, refname);
    if (id === undefined) return;
    const object = await objectInNode(ctx.store.gitDir, id, 1024 * 1024).catch(() => null);
    const parts = object?.type === 'commit' && object.data !== null ? commitParts(object.data) : undefined;
    if (parts) found.push(record(id, refname, parts.tree, parts.contents, false));
  });
  return found;
}

/**
 * A full commit id resolved without listing (a restore or diff right after a
 * snapshot would otherwise list every checkpoint: the cached listing is stale
 * then). The commit is read loose; it is this workspace's only if one of this
 * workspace's loose refs holds it: its ref name starts with the commit's
 * time_ms, so at most a few refs (loose or packed) are read. Anything else (a
 * commit Node cannot read, a ref named after a clock that went backwards)
 * returns undefined and the caller lists as before.
 */
async function recordByFullId(ctx: WsContext, id: string): Promise<CheckpointRecord | undefined> {
  const object = await objectInNode(ctx.store.gitDir, id, 1024 * 1024);
  const parts = object?.type === 'commit' && object.data !== null ? commitParts(object.data) : undefined;
  if (parts === undefined) return undefined;
  const { tree, contents } = parts;
  const { meta } = decodeMessage(contents);
  if (!meta.time_ms) return undefined;
  const stem = `${ctx.refPrefix}${String(meta.time_ms).padStart(13, '0')}-`;
  for (const refname of await checkpointRefNames(ctx)) {
    if (!refname.startsWith(stem) || (await checkpointRefTarget(ctx, refname)) !== id) continue;
    const meta = await readMeta(ctx.layout.metaFile);
    return record(id, refname, tree, contents, (meta?.pinned ?? []).includes(id));
  }
  return undefined;
}

/**
 * Which of these commit ids are checkpoints of this workspace now (pins of removed ones are not),
 * reading a few refs each rather than listing every checkpoint; the listing only when one of
 * them cannot be told so (its commit not readable in Node).
 */
export async function heldCheckpointIds(ctx: WsContext, ids: readonly string[]): Promise<Set<string>> {
  const held = new Set<string>();
  let unsure = false;
  for (const id of ids) {
    if (!isObjectId(id)) continue;
    if (await recordByFullId(ctx, id).catch(() => undefined)) held.add(id);
    else unsure = true;
  }
  if (!unsure) return held;
  const all = new Set((await allRecords(ctx)).map((r) => r.checkpoint.id));
  return new Set(ids.filter((id) => all.has(id)));
}

/** Resolves an outside reference among THIS workspace's checkpoints only. */
export async function resolveRecord(ctx: WsContext, rawRef: string): Promise<CheckpointRecord> {
  const ref = validateRef(rawRef);
  if (ref === 'latest') {
    const latest = await latestRecord(ctx);
    if (!latest) throw new ChronoscopeError('not_found', 'this workspace has no checkpoints yet');
    return usable(latest);
  }
  if (/^[1-9][0-9]{0,2}$/.test(ref)) {
    const n = Number(ref);
    const records = await listRecords(ctx, n);
    const found = records[n - 1];
    if (!found) throw new ChronoscopeError('not_found', `there is no checkpoint #${n}: this workspace has ${records.length}`);
    return usable(found);
  }
  if (isObjectId(ref)) {
    // A listing whose refs are known unchanged answers without a read; else (or for a damaged one,
    // which is read again as before) the commit is read directly.
    const vouched = await vouchedListing(ctx);
    const i = vouched && (await indexOf(vouched)).byId.get(ref);
    const listed = vouched && i !== undefined ? (await vouched.records)[i] : undefined;
    if (listed && !listed.checkpoint.damaged) return (await withPins(ctx, [listed]))[0]!;
    const direct = await recordByFullId(ctx, ref);
    if (direct) return direct;
  }
  const matches = (await allRecords(ctx)).filter((r) => r.checkpoint.id.startsWith(ref));
  if (matches.length === 0) throw new ChronoscopeError('not_found', `no checkpoint ${ref} in this workspace`);
  if (matches.length > 1) throw new ChronoscopeError('bad_input', `checkpoint prefix ${ref} is ambiguous: it matches ${matches.length} checkpoints; give more digits`);
  return usable(matches[0] as CheckpointRecord);
}

/** The checkpoint just older than `record`, if any. */
export async function previousRecord(ctx: WsContext, record: CheckpointRecord): Promise<CheckpointRecord | undefined> {
  // The ref just before it in the listing's order, read directly (a readdir, one ref, one
  // commit): the app's first diff would otherwise wait for the whole list (1.5 s at 10,000
  // checkpoints). A packed ref or a commit Node cannot read: the listing, as before.
  const names = await checkpointRefNames(ctx);
  const at = names.indexOf(record.refname);
  if (at >= 0) {
    const before = names[at + 1];
    if (before === undefined) return undefined;
    const known = knownRecords.get(ctx.store.gitDir)?.get(before) ?? (await recordsInNode(ctx, [before]))[0];
    if (known !== undefined) return (await withPins(ctx, [known]))[0];
  }
  const listing = await currentListing(ctx);
  const i = (await indexOf(listing)).byRef.get(record.refname);
  const previous = i === undefined ? undefined : (await listing.records)[i + 1];
  return previous && (await withPins(ctx, [previous]))[0];
}
