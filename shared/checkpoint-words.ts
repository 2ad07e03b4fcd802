// What a checkpoint holds, in words: the one place the list, the slider, the
// details pane, the file history, the CLI and the MCP tools word a checkpoint.
//
// The model (docs/design.md, "What a checkpoint says"): a checkpoint holds the
// workspace at one moment, and what it shows is its change against the one
// before. A hook checkpoint is taken *before* a tool call, so its change was
// made by the call the previous checkpoint preceded (or by a person or another
// program in between), never by the call it precedes. Its title therefore
// names that earlier call; the call it precedes is secondary ("before: …").
// Where the hooks saw it exactly (the service takes a checkpoint as each call
// ends: `change_by`), no guess is made: a checkpoint taken as a call ended is
// that call's change, and one taken before a call while the previous call's
// end was still the latest state is a change by someone else. Where a call's
// hook took no checkpoint (nothing had changed), the next one names that call
// (`made_by`), not the call of the checkpoint before.
// Restores are told in words, by what they restored, never by hashes; the
// stored reason of old restore checkpoints ("restored ad753e55…") is ignored.
import { agentName } from './agents.js';
import type { CallRef, Checkpoint, RestoreOf } from './model.js';

/** The fields the words need (a list row carries them all). */
export type WordedCheckpoint = Pick<Checkpoint, 'id' | 'time_ms' | 'reason' | 'trigger' | 'agent' | 'tool' | 'session' | 'restore_target' | 'stats'> & {
  origin?: Checkpoint['origin'];
  change_by?: Checkpoint['change_by'];
  made_by?: Checkpoint['made_by'];
  paths?: Checkpoint['paths'];
  skipped?: Checkpoint['skipped'];
  restore_paths?: Checkpoint['restore_paths'];
  restore_of?: Checkpoint['restore_of'];
};

/** What names a call: a checkpoint's own call fields, or a call it names (`made_by`). */
type CallWords = Pick<CallRef, 'reason'> & Partial<Pick<CallRef, 'agent' | 'tool'>>;

export interface CheckpointWords {
  /** What the checkpoint holds: its change against the one before, in words. */
  title: string;
  /** Who made that change, where known ("Claude Code's Edit"); null when unknown. */
  by: string | null;
  /** Secondary: the call it was taken before ("before: Bash git mv a b"), or what a restore checkpoint is. */
  note: string | null;
}

export interface WordsContext<C extends WordedCheckpoint = WordedCheckpoint> {
  /** The checkpoint just before this one (of its lane); null: none (the first); undefined: not known. */
  previousOf?: (c: C) => C | null | undefined;
  /** A checkpoint by id (a restore's target); undefined when not at hand. */
  find?: (id: string) => C | undefined;
  /** How a time is told (the renderer's locale format; the CLI's ISO). Default: ISO minutes, UTC. */
  time?: (ms: number) => string;
}

export { agentName };

export function filesText(n: number): string {
  return `${n} ${n === 1 ? 'file' : 'files'}`;
}

function isoMinutes(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A checkpoint a hook took just before an agent's tool call (not one an MCP client asked for). */
export function precedesCall(c: WordedCheckpoint): boolean {
  return (c.trigger === 'hook' || c.trigger === 'baseline') && c.origin === undefined && c.tool !== undefined && c.tool !== 'mcp' && c.agent !== undefined && c.change_by !== 'call';
}

/** A checkpoint a hook took as a call ended: its change is exactly that call's. */
export function endsCall(c: WordedCheckpoint): boolean {
  return c.trigger === 'hook' && c.origin === undefined && c.change_by === 'call' && c.tool !== undefined && c.agent !== undefined;
}

function byCall(c: CallWords): string {
  return `${agentName(c.agent ?? '')}'s ${c.tool ?? 'call'}`;
}

/** The call a hook checkpoint was taken before: "Bash git mv a b", "Edit src/x.ts" (the stored reason, "Bash: …" unprefixed). */
export function callText(c: WordedCheckpoint): string {
  const tool = c.tool ?? '';
  if (tool !== '' && c.reason.startsWith(`${tool}: `)) return `${tool} ${c.reason.slice(tool.length + 2)}`;
  return c.reason || tool;
}

/** What a call did, as a title: a shell call by its command, a file call by its tool and files. */
function changeByCall(c: CallWords): string {
  const tool = c.tool ?? '';
  if (tool !== '' && c.reason.startsWith(`${tool}: `)) return c.reason.slice(tool.length + 2);
  return c.reason || tool;
}

/** The watcher's stored reason without the "auto: " its badge already says. */
function withoutAutoPrefix(reason: string): string {
  return reason.replace(/^auto:\s*/, '');
}

/** "Left out: dump.bin, 60 MB; notes.pipe" (the details say why), or null. */
export function leftOutText(skipped: readonly { path: string; size?: number; why?: string }[] | undefined): string | null {
  const left = skipped ?? [];
  if (left.length === 0) return null;
  // A file left out for its size says the size: why it is not here, at a glance ("dump.bin, 60 MB").
  const named = left.slice(0, 3).map((f) => (f.why === 'too_large' && f.size !== undefined && f.size > 0 ? `${f.path}, ${megabytes(f.size)}` : f.path));
  return `Left out: ${named.join('; ')}${left.length > 3 ? ` and ${left.length - 3} more` : ''}`;
}

/** "2 MB", "1.5 MB", "0.3 MB": one decimal only where it says something. */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb >= 10 || Number.isInteger(mb) ? Math.round(mb) : Math.round(mb * 10) / 10} MB`;
}

/** "3 files changed", "No files changed". */
export function changedText(files: number): string {
  return files === 0 ? 'No files changed' : `${filesText(files)} changed`;
}

/** "src/c.ts changed", "a.ts, b.ts changed" when its few paths are known; else the count. */
function whatChanged(c: WordedCheckpoint): string {
  const paths = c.paths ?? [];
  return paths.length > 0 && paths.length === c.stats.files ? `${paths.join(', ')} changed` : changedText(c.stats.files);
}

/** How many levels of restores-of-restores an older store's restore is looked through (newer ones record theirs). */
const RESTORE_DEPTH = 4;

/**
 * What a restore of `t` names it by: its own title — or, when `t` is itself a restore (or a safety
 * checkpoint), what that one restored, so restore titles never nest. Null: not known (not at hand).
 */
export function restoredTitle<C extends WordedCheckpoint>(t: C, ctx: WordsContext<C> = {}, depth = 0): string | null {
  if (t.trigger !== 'restore' && t.trigger !== 'safety') return checkpointWords(t, ctx).title;
  return restoreOf(t, ctx, depth)?.title ?? null;
}

/** What a safety or restore checkpoint restored: recorded when it was taken, or (older stores) looked up. */
function restoreOf<C extends WordedCheckpoint>(c: C, ctx: WordsContext<C>, depth: number): RestoreOf | null {
  if (c.restore_of !== undefined) return c.restore_of;
  const target = c.restore_target === undefined || depth >= RESTORE_DEPTH ? undefined : ctx.find?.(c.restore_target);
  if (target === undefined) return null;
  const undo = target.trigger === 'safety';
  const title = restoredTitle(target, ctx, depth + 1);
  if (title === null) return null;
  return { title, time_ms: undo ? (restoreOf(target, ctx, depth + 1)?.time_ms ?? target.time_ms) : target.time_ms, ...(undo ? { undo: true as const } : {}) };
}

/** "package.json", "a.ts, b.ts and 2 more", or "the workspace". */
function restoredWhere(paths: readonly string[] | undefined): string {
  if (paths === undefined || paths.length === 0) return 'the workspace';
  return `${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`;
}

/** A restore's words: one level, never nested, the same whatever else is at hand. */
function restoreWords<C extends WordedCheckpoint>(c: C, ctx: WordsContext<C>): CheckpointWords {
  const time = ctx.time ?? isoMinutes;
  const of = restoreOf(c, ctx, 0);
  const where = restoredWhere(c.restore_paths);
  const to = c.restore_paths !== undefined && c.restore_paths.length > 0 ? `${where} to ` : '';
  const safetyNote = c.stats.files === 0 ? 'Safety checkpoint: nothing had changed since the one before' : 'Safety checkpoint: restoring it undoes the restore';
  if (of === null) {
    const what = c.restore_target === undefined ? 'an earlier checkpoint' : `the checkpoint ${c.restore_target.slice(0, 8)}`;
    if (c.trigger === 'restore') return { title: `Restored ${where} to ${what}`, by: null, note: null };
    return { title: `Before restoring ${to || 'to '}${what}`, by: null, note: safetyNote };
  }
  if (of.before_prompt === true) return beforePromptWords(c.trigger, of, where, safetyNote);
  const quoted = `‘${of.title}’`;
  if (c.trigger === 'restore') {
    return { title: of.undo === true ? `Undid the restore of ${to}${quoted}` : `Restored ${where} to ${quoted} (${time(of.time_ms)})`, by: null, note: null };
  }
  return { title: of.undo === true ? `Before undoing the restore of ${to}${quoted}` : `Before restoring ${to || 'to '}${quoted} (${time(of.time_ms)})`, by: null, note: safetyNote };
}

/** A restore to before a prompt, its undo and their safety checkpoints: named by the prompt. */
function beforePromptWords(trigger: Checkpoint['trigger'], of: RestoreOf, where: string, safetyNote: string): CheckpointWords {
  const what = `${where} to before the prompt ‘${of.title}’`;
  if (trigger === 'restore') return { title: of.undo === true ? `Undid the restore of ${what}` : `Restored ${what}`, by: null, note: null };
  return { title: of.undo === true ? `Before undoing the restore of ${what}` : `Before restoring ${what}`, by: null, note: safetyNote };
}

/** The words for one checkpoint. Each restore names what it restored by that checkpoint's own title and time. */
export function checkpointWords<C extends WordedCheckpoint>(c: C, ctx: WordsContext<C> = {}): CheckpointWords {
  switch (c.trigger) {
    case 'safety':
    case 'restore':
      return restoreWords(c, ctx);
    case 'auto':
      return { title: withoutAutoPrefix(c.reason) || whatChanged(c), by: null, note: leftOutText(c.skipped) };
    case 'manual':
      return { title: c.reason || 'Manual checkpoint', by: null, note: leftOutText(c.skipped) };
    default:
      break;
  }
  if (endsCall(c)) {
    const by = byCall(c);
    return { title: `${changeByCall(c)} — by ${by}`, by, note: null };
  }
  if (changeMaker(c, ctx).kind === 'other' && c.tool === undefined) return { title: `${whatChanged(c)}, not by a recorded call`, by: null, note: c.reason || null };
  if (!precedesCall(c)) return { title: c.reason || whatChanged(c), by: null, note: null };
  const note = `before: ${callText(c)}`;
  if (c.trigger === 'baseline') return { title: 'The workspace as first seen', by: null, note };
  const maker = changeMaker(c, ctx);
  switch (maker.kind) {
    case 'made_by':
    case 'call': {
      const call = maker.kind === 'made_by' ? maker.call : maker.of;
      const by = byCall(call);
      return { title: `${changeByCall(call)} — by ${by}`, by, note };
    }
    case 'other':
      return { title: `${whatChanged(c)}, not by a recorded call`, by: null, note };
    default:
      return { title: whatChanged(c), by: null, note };
  }
}

/**
 * Who made a hook checkpoint's change: a call, named by the checkpoint taken as it ended (`of` is the
 * checkpoint itself) or by the one taken before it (`of` is the checkpoint before); a call that took no
 * checkpoint of its own (`made_by`); someone else (`other`: a person or another program); or not known
 * (the checkpoint before is not at hand). The titles above and "why" (electron/prompts/listing.ts) both
 * ask this, so a checkpoint's call is the one its title names.
 */
export type ChangeMaker<C extends WordedCheckpoint = WordedCheckpoint> =
  | { kind: 'call'; of: C }
  | { kind: 'made_by'; call: CallRef }
  | { kind: 'other' }
  | { kind: 'unknown' };

export function changeMaker<C extends WordedCheckpoint>(c: C, ctx: WordsContext<C> = {}): ChangeMaker<C> {
  if (endsCall(c)) return { kind: 'call', of: c };
  // Taken as a prompt was given, of what changed since the last call ended (work.ts prompt): a person's.
  if (c.trigger === 'hook' && c.tool === undefined && c.change_by === 'other') return { kind: 'other' };
  if (!precedesCall(c) || c.trigger === 'baseline') return { kind: 'unknown' };
  if (c.change_by !== 'other' && c.made_by !== undefined) return { kind: 'made_by', call: c.made_by };
  const prev = ctx.previousOf?.(c);
  // Known exactly: the previous call's end was still the latest state (or is the checkpoint before).
  if (c.change_by === 'other' || (prev !== undefined && prev !== null && endsCall(prev))) return { kind: 'other' };
  // The change since the previous checkpoint: made by the call that checkpoint preceded, when it was one of this agent's.
  if (prev !== undefined && prev !== null && precedesCall(prev) && prev.agent === c.agent && (prev.session === undefined || c.session === undefined || prev.session === c.session)) return { kind: 'call', of: prev };
  // Not after a call we know of: a person, the watcher's gap or another program changed these files.
  return prev === undefined ? { kind: 'unknown' } : { kind: 'other' };
}

/** A WordsContext over a list newest first (as the list, the CLI and the MCP tools hold it): the previous is the next older of the same lane. */
export function listContext<C extends WordedCheckpoint>(newestFirst: readonly C[], time?: (ms: number) => string): WordsContext<C> {
  const index = new Map<string, number>();
  newestFirst.forEach((c, i) => index.set(c.id, i));
  return {
    previousOf(c) {
      const at = index.get(c.id);
      if (at === undefined) return undefined;
      for (let i = at + 1; i < newestFirst.length; i++) {
        const p = newestFirst[i]!;
        if (p.origin === c.origin) return p;
      }
      // The oldest of the list: the first only when the list is whole (the caller cannot tell, so: unknown).
      return undefined;
    },
    find: (id) => {
      const at = index.get(id);
      return at === undefined ? undefined : newestFirst[at];
    },
    ...(time ? { time } : {}),
  };
}

/**
 * A checkpoint named for a person first, its id second: “Edit src/a.ts” (10:42, 2528b998).
 * Bisect, verify and restore messages use it (a bare hash says nothing to a person).
 */
export function titleTimeId(title: string | null, time: string, id: string): string {
  const short = id.slice(0, 8);
  return title === null || title === '' ? `${short} (${time})` : `“${title}” (${time}, ${short})`;
}
