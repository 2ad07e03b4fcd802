// The prompts of a workspace as a listing shows them: the ledger's prompt
// entries (ledger.ts) joined with the checkpoints that carry their id
// (Checkpoint.prompt_id), and why one checkpoint exists (its prompt and the
// call that made its change).
//
// Newest first, as `checkpoints:list` and `chronoscope list`: the prompt a
// person looks for is usually a recent one.
//
// Cost: one read of the ledger, one listing of the checkpoints (the engine's
// listing cache), and for "files changed" one `diff-tree --stdin` over every
// prompt's pair (before, last) not counted before in this process — one git
// process however many prompts there are, none when all are known
// (docs/design.md has the figures).
import { ChronoscopeError, UsageError } from '../../shared/errors.js';
import type { CallRecord, Checkpoint, CheckpointWhy, PromptRecord } from '../../shared/model.js';
import type { Workspace } from '../engine/api.js';
import { changeMaker, checkpointWords, listContext, type WordsContext } from '../../shared/checkpoint-words.js';
import { PROMPT_ID_PATTERN, PromptLedger, type PromptEntry } from './ledger.js';

interface Joined {
  entries: PromptEntry[];
  calls: CallRecord[];
  /** Newest first, this workspace's own checkpoints. */
  checkpoints: Checkpoint[];
}

async function join(storeHome: string, ws: Workspace): Promise<Joined> {
  const [{ prompts, calls }, checkpoints] = await Promise.all([new PromptLedger(storeHome, ws.meta.id).read(), ws.list()]);
  return { entries: prompts, calls, checkpoints };
}

/**
 * Files changed between two checkpoints never change (a checkpoint's tree is fixed), so the
 * counts are kept for the life of the process (the app lists prompts on every new checkpoint):
 * only pairs not seen before go to git. Bounded: past FILE_COUNTS_MAX it starts over.
 */
const FILE_COUNTS_MAX = 100_000;
const fileCountCache = new Map<string, number>();

async function fileCounts(ws: Workspace, pairs: ReadonlyMap<string, readonly [string | null, string]>): Promise<Map<string, number>> {
  const key = ([a, b]: readonly [string | null, string]): string => `${ws.meta.id}:${a ?? '-'}:${b}`;
  const missing = [...pairs.values()].filter((p) => !fileCountCache.has(key(p)));
  if (missing.length > 0) {
    const counts = await ws.changedFileCounts(missing);
    if (fileCountCache.size + missing.length > FILE_COUNTS_MAX) fileCountCache.clear();
    // Unknown ids (null) are not kept: the checkpoint may be brought back by an undo.
    missing.forEach((p, i) => {
      const n = counts[i];
      if (n !== null && n !== undefined) fileCountCache.set(key(p), n);
    });
  }
  return new Map([...pairs].map(([id, p]) => [id, fileCountCache.get(key(p)) ?? 0]));
}

/** The records of `entries` (in the order given), with their checkpoints, files and failed calls. */
async function records(ws: Workspace, entries: readonly PromptEntry[], joined: Joined): Promise<PromptRecord[]> {
  const wanted = new Set(entries.map((e) => e.id));
  // Newest first, so the first seen is the last checkpoint.
  const spans = new Map<string, { first: string; last: string; count: number }>();
  joined.checkpoints.forEach((c) => {
    if (c.prompt_id === undefined || !wanted.has(c.prompt_id)) return;
    const span = spans.get(c.prompt_id);
    if (span) {
      span.first = c.id;
      span.count++;
    } else spans.set(c.prompt_id, { first: c.id, last: c.id, count: 1 });
  });
  const failed = new Map<string, CallRecord[]>();
  for (const call of joined.calls) {
    if (call.status !== 'failed' || call.prompt_id === undefined || !wanted.has(call.prompt_id)) continue;
    failed.set(call.prompt_id, [...(failed.get(call.prompt_id) ?? []), call]);
  }
  const index = new Map(joined.checkpoints.map((c, i) => [c.id, i]));
  // What the prompt's change is measured from: `before`, or where it is gone (pruned), the checkpoint before its first.
  const from = (entry: PromptEntry, first: string): string | null => {
    if (entry.before !== null && index.has(entry.before)) return entry.before;
    return joined.checkpoints[(index.get(first) ?? joined.checkpoints.length) + 1]?.id ?? null;
  };
  const pairs = new Map(entries.flatMap((e) => {
    const span = spans.get(e.id);
    return span ? [[e.id, [from(e, span.first), span.last] as const] as const] : [];
  }));
  const files = await fileCounts(ws, pairs);
  return entries.map((e): PromptRecord => {
    const span = spans.get(e.id);
    return {
      ...e,
      first: span?.first ?? null,
      last: span?.last ?? null,
      checkpoints: span?.count ?? 0,
      files: files.get(e.id) ?? 0,
      failed_calls: failed.get(e.id) ?? [],
    };
  });
}

/** Every prompt given in the workspace, newest first. */
export async function listPrompts(storeHome: string, ws: Workspace): Promise<PromptRecord[]> {
  const joined = await join(storeHome, ws);
  return records(ws, [...joined.entries].reverse(), joined);
}

/** A prompt id, or its first characters (as a checkpoint's), as `list --prompts` shows them: 'p' and at least 4 more. */
export const PROMPT_REF_PATTERN = /^p[0-9a-z]{4,20}$/;

/** A prompt id (or a prefix of one) from outside (CLI, MCP): malformed → UsageError. */
export function checkPromptId(id: string): string {
  if (!PROMPT_ID_PATTERN.test(id) && !PROMPT_REF_PATTERN.test(id)) {
    const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
    throw new UsageError(`not a prompt id: ${JSON.stringify(shown)} (a prompt id is p and at least 4 more letters or digits, as chronoscope list --prompts shows them)`);
  }
  return id;
}

/**
 * One prompt by id or unique prefix. None → not_found (as an unknown checkpoint is: exit 1), several →
 * UsageError; nothing is changed either way.
 */
export async function findPrompt(storeHome: string, ws: Workspace, id: string): Promise<PromptRecord> {
  checkPromptId(id);
  const joined = await join(storeHome, ws);
  const exact = joined.entries.find((e) => e.id === id);
  const matches = exact ? [exact] : joined.entries.filter((e) => e.id.startsWith(id));
  if (matches.length === 0) throw new ChronoscopeError('not_found', `no prompt ${id} in this workspace (see chronoscope list --prompts)`);
  if (matches.length > 1) throw new UsageError(`${id} is the start of ${matches.length} prompts' ids: give more of it (see chronoscope list --prompts)`);
  const [record] = await records(ws, [matches[0]!], joined);
  return record!;
}

/**
 * The call whose change checkpoint `c` holds, as its title names it (shared/checkpoint-words.ts
 * changeMaker): the call that names `c` as its change (taken as it ended); else the call the title
 * names — the one the checkpoint before was taken for (its tool_use_id), or one that took no
 * checkpoint of its own (`made_by`: the latest such call recorded by then). None for a change no
 * recorded call made (a person's), never the call `c` was only taken before.
 */
function callOf(c: Checkpoint, calls: readonly CallRecord[], context: WordsContext<Checkpoint>): CallRecord | null {
  for (let i = calls.length - 1; i >= 0; i--) if (calls[i]!.checkpoint === c.id) return calls[i]!;
  const maker = changeMaker(c, context);
  if (maker.kind === 'call') {
    const { tool_use_id: id, session } = maker.of;
    if (id === undefined) return null;
    for (let i = calls.length - 1; i >= 0; i--) {
      const call = calls[i]!;
      if (call.tool_use_id === id && (session === undefined || call.session === undefined || call.session === session)) return call;
    }
  }
  if (maker.kind === 'made_by') {
    const { agent, tool, reason } = maker.call;
    for (let i = calls.length - 1; i >= 0; i--) {
      const call = calls[i]!;
      if (call.agent === agent && call.tool === tool && call.reason === reason && call.time_ms <= c.time_ms) return call;
    }
  }
  return null;
}

/** Why checkpoint `id` exists: its prompt and the call that made its change, where hooks recorded them. */
export async function whyOf(storeHome: string, ws: Workspace, id: string): Promise<CheckpointWhy> {
  const joined = await join(storeHome, ws);
  const checkpoint = joined.checkpoints.find((c) => c.id === id) ?? (await ws.resolve(id));
  const { prompt, call } = (await whyIn(ws, [checkpoint], joined)).get(checkpoint.id)!;
  return { prompt, call };
}

/** A checkpoint's why, with its title and author as the list words them (`why`'s lines say the same). */
export interface WordedWhy extends CheckpointWhy {
  title: string;
  /** Who made its change ("Claude Code's Edit"); null: no recorded call, or not known. */
  by: string | null;
}

/** whyOf for many checkpoints with one read of the ledger and the listing (`why` over a file's versions). */
export async function whyOfMany(storeHome: string, ws: Workspace, checkpoints: readonly Checkpoint[]): Promise<Map<string, WordedWhy>> {
  return whyIn(ws, checkpoints, await join(storeHome, ws));
}

async function whyIn(ws: Workspace, checkpoints: readonly Checkpoint[], joined: Joined): Promise<Map<string, WordedWhy>> {
  const byId = new Map(joined.entries.map((e) => [e.id, e]));
  const context = listContext(joined.checkpoints);
  const found = checkpoints.map((c) => {
    const call = callOf(c, joined.calls, context);
    // The prompt of the call that made the change; else the one the checkpoint was taken under.
    const promptId = call?.prompt_id ?? c.prompt_id;
    return { c, call, entry: promptId === undefined ? undefined : byId.get(promptId) };
  });
  const entries = [...new Set(found.flatMap((f) => (f.entry ? [f.entry] : [])))];
  const prompts = new Map((await records(ws, entries, joined)).map((r) => [r.id, r]));
  return new Map(
    found.map((f) => {
      const { title, by } = checkpointWords(f.c, context);
      return [f.c.id, { prompt: f.entry ? (prompts.get(f.entry.id) ?? null) : null, call: f.call, title, by }];
    }),
  );
}

/** The checkpoint "restore to before this prompt" restores; a clear error where there is none. */
export function beforeCheckpoint(prompt: PromptRecord): string {
  if (prompt.before === null) throw new ChronoscopeError('not_found', `prompt ${prompt.id} was given before this workspace's first checkpoint: there is no recorded state before it`);
  return prompt.before;
}
