// The trash: every checkpoint retention removes (automatically or by hand)
// is moved, not deleted. Its ref goes from refs/chronoscope/<ws>/cp/<name> to
// refs/chronoscope-trash/<ws>/<entry>/<name> in one git transaction, so its
// commit and every object under it stay reachable: gc and upkeep keep them,
// and undo moves the ref back whole. The trash namespace is outside
// refs/chronoscope/, so listing and the damage check never see it.
//
// The refs are the truth; trash.json (in the workspace's folder of the store)
// adds what refs cannot say: why each entry was made, and which checkpoints
// the person brought back (automatic passes spare those: undoing a thinning
// that the next pass repeats would be no undo at all).
import fs from 'node:fs/promises';
import path from 'node:path';
import { ChronoscopeError } from '../../../shared/errors.js';
import { REMOVAL_RULES, type RemovalRule, type TrashEntry, type UndoResult } from '../../../shared/model.js';
import { writeJsonAtomic } from '../../fs/atomic-file.js';
import { git, gitStdin } from '../git/git-runner.js';
import { storeGit, type WsContext } from '../layout/context.js';

/** How long the trash keeps what retention removed. */
export const TRASH_DAYS = 14;
const TRASH_MS = TRASH_DAYS * 86_400_000;
/** The ids brought back by undo that are remembered (automatic passes spare them). */
const RESTORED_MAX = 100_000;

export interface TrashRecord {
  id: string;
  refname: string;
}

interface LogEntry {
  id: string;
  time_ms: number;
  automatic: boolean;
  by_rule: Record<RemovalRule, number>;
}

interface TrashLog {
  entries: LogEntry[];
  restored: string[];
}

export function trashPrefix(ctx: WsContext): string {
  return `refs/chronoscope-trash/${ctx.id}/`;
}

const logFile = (ctx: WsContext) => path.join(ctx.layout.dir, 'trash.json');

async function readLog(ctx: WsContext): Promise<TrashLog> {
  try {
    const raw = JSON.parse(await fs.readFile(logFile(ctx), 'utf8')) as Partial<TrashLog>;
    const entries = Array.isArray(raw.entries) ? raw.entries.filter((e) => typeof e?.id === 'string' && typeof e.time_ms === 'number') : [];
    const restored = Array.isArray(raw.restored) ? raw.restored.filter((r): r is string => typeof r === 'string') : [];
    return { entries, restored };
  } catch {
    return { entries: [], restored: [] };
  }
}

async function writeLog(ctx: WsContext, log: TrashLog): Promise<void> {
  await writeJsonAtomic(logFile(ctx), { entries: log.entries, restored: log.restored.slice(-RESTORED_MAX) }, { mode: 0o600 });
}

export function noRules(): Record<RemovalRule, number> {
  return Object.fromEntries(REMOVAL_RULES.map((r) => [r, 0])) as Record<RemovalRule, number>;
}

/** The time a checkpoint ref's name starts with (<time_ms>-<seq>). */
function timeOfName(name: string): number | null {
  const t = Number(/^(\d+)-/.exec(name)?.[1]);
  return Number.isFinite(t) ? t : null;
}

/** The trash's refs, by entry: [ref name in the trash, commit]. */
async function trashRefs(ctx: WsContext): Promise<Map<string, [string, string][]>> {
  const out = await git(storeGit(ctx.store), ['for-each-ref', '--format=%(refname) %(objectname)', trashPrefix(ctx)]);
  const byEntry = new Map<string, [string, string][]>();
  for (const line of out.split('\n')) {
    const [ref, oid] = line.split(' ');
    if (!ref || !oid) continue;
    const entry = ref.slice(trashPrefix(ctx).length).split('/')[0] ?? '';
    const list = byEntry.get(entry) ?? [];
    list.push([ref, oid]);
    byEntry.set(entry, list);
  }
  return byEntry;
}

/**
 * Moves checkpoints into a new trash entry, in one transaction (all or none).
 * The caller holds the workspace lock.
 */
export async function moveToTrash(ctx: WsContext, removals: { record: TrashRecord; rule: RemovalRule }[], automatic: boolean, now: number): Promise<string | null> {
  if (removals.length === 0) return null;
  const log = await readLog(ctx);
  let id = String(now).padStart(13, '0');
  for (let n = 1; log.entries.some((e) => e.id === id); n++) id = `${String(now).padStart(13, '0')}-${n}`;
  const lines = removals.map(({ record }) => {
    const name = record.refname.slice(ctx.refPrefix.length);
    return `create ${trashPrefix(ctx)}${id}/${name} ${record.id}\ndelete ${record.refname} ${record.id}\n`;
  });
  await gitStdin(storeGit(ctx.store), ['update-ref', '--stdin'], { input: lines.join('') });
  const by_rule = noRules();
  for (const { rule } of removals) by_rule[rule] += 1;
  // The refs are moved: a crash before this line leaves an entry without its reasons, still undoable.
  await writeLog(ctx, { ...log, entries: [...log.entries, { id, time_ms: now, automatic, by_rule }] });
  return id;
}

/** What the trash holds for this workspace, newest first. */
export async function listTrash(ctx: WsContext): Promise<TrashEntry[]> {
  const [refs, log] = await Promise.all([trashRefs(ctx), readLog(ctx)]);
  const entries: TrashEntry[] = [];
  for (const [id, list] of refs) {
    const logged = log.entries.find((e) => e.id === id);
    const time = logged?.time_ms ?? timeOfName(id) ?? 0;
    const times = list.map(([ref]) => timeOfName(ref.slice(ref.lastIndexOf('/') + 1))).filter((t): t is number => t !== null);
    entries.push({
      id,
      workspace: ctx.root,
      time_ms: time,
      expires_ms: time + TRASH_MS,
      automatic: logged?.automatic ?? false,
      count: list.length,
      by_rule: logged?.by_rule ?? noRules(),
      oldest_ms: times.length > 0 ? Math.min(...times) : null,
      newest_ms: times.length > 0 ? Math.max(...times) : null,
    });
  }
  return entries.sort((a, b) => b.time_ms - a.time_ms || (a.id < b.id ? 1 : -1));
}

/**
 * Brings back every checkpoint of a trash entry (default: the newest one), in
 * one transaction; they are spared by automatic passes from then on. The
 * caller holds the workspace lock.
 */
export async function undoTrash(ctx: WsContext, entryId?: string): Promise<UndoResult> {
  const refs = await trashRefs(ctx);
  const id = entryId ?? [...refs.keys()].sort().at(-1);
  const list = id === undefined ? undefined : refs.get(id);
  if (id === undefined || !list) {
    throw new ChronoscopeError('not_found', entryId === undefined ? 'the trash is empty: nothing to undo' : `no trash entry ${entryId} (emptied, or already undone)`);
  }
  const lines = list.map(([ref, oid]) => {
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    return `create ${ctx.refPrefix}${name} ${oid}\ndelete ${ref} ${oid}\n`;
  });
  await gitStdin(storeGit(ctx.store), ['update-ref', '--stdin'], { input: lines.join('') });
  const log = await readLog(ctx);
  const restored = list.map(([, oid]) => oid);
  await writeLog(ctx, { entries: log.entries.filter((e) => e.id !== id), restored: [...log.restored, ...restored] });
  return { trash: id, restored };
}

/** The checkpoints the person brought back by undo: automatic passes leave them. */
export async function restoredByUndo(ctx: WsContext): Promise<Set<string>> {
  return new Set((await readLog(ctx)).restored);
}

/** Empties trash entries for good (their objects go at the next compaction). The caller holds the workspace lock. */
export async function emptyTrash(ctx: WsContext, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const refs = await trashRefs(ctx);
  const lines = ids.flatMap((id) => (refs.get(id) ?? []).map(([ref, oid]) => `delete ${ref} ${oid}\n`));
  if (lines.length > 0) await gitStdin(storeGit(ctx.store), ['update-ref', '--stdin'], { input: lines.join('') });
  const gone = new Set(ids);
  const log = await readLog(ctx);
  await writeLog(ctx, { ...log, entries: log.entries.filter((e) => !gone.has(e.id)) });
  return ids.length;
}

/** Entries past their 14 days. */
export function expired(entries: readonly TrashEntry[], now: number): string[] {
  return entries.filter((e) => e.expires_ms <= now).map((e) => e.id);
}
