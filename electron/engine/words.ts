// The words of checkpoints as the CLI and the MCP tools give them: the shared
// wording (shared/checkpoint-words.ts) over the workspace's own list, with the
// restored checkpoints a list does not reach read from the store.
import { checkpointWords, listContext, type CheckpointWords } from '../../shared/checkpoint-words.js';
import type { Checkpoint, RestoreOf } from '../../shared/model.js';
import type { Workspace } from './api.js';

export type DescribedCheckpoint = Checkpoint & CheckpointWords;

/** How far back `describeOne` looks for the previous checkpoint before reading the whole list. */
const NEAR = 200;

/**
 * Each of `shown` with its words. `listed` is the list they came from, newest
 * first (it may hold one more than shown, so the oldest shown has its previous);
 * `whole`: it reaches the workspace's first checkpoint.
 */
export async function describeList(workspace: Workspace, shown: readonly Checkpoint[], listed: readonly Checkpoint[], whole: boolean): Promise<DescribedCheckpoint[]> {
  const known = new Map(listed.map((c) => [c.id, c]));
  // Restores that recorded what they restored (restore_of) need no look-up; older ones do.
  const missing = [...new Set(shown.flatMap((c) => (c.restore_of === undefined && c.restore_target !== undefined && !known.has(c.restore_target) ? [c.restore_target] : [])))];
  const extra = (await Promise.all(missing.map((id) => workspace.resolve(id).catch(() => null)))).filter((c): c is Checkpoint => c !== null);
  // Restores of restores: their targets' targets, once.
  const second = extra.flatMap((c) => (c.restore_target !== undefined && !known.has(c.restore_target) ? [c.restore_target] : []));
  const more = (await Promise.all(second.map((id) => workspace.resolve(id).catch(() => null)))).filter((c): c is Checkpoint => c !== null);
  for (const c of [...extra, ...more]) known.set(c.id, c);
  const ctx = listContext(listed);
  // A restored checkpoint beyond the page is named by its own title, which needs the one before it:
  // then (only then) the whole list, so a page says what `show` and the app say.
  const wider = extra.length > 0 && !whole ? await workspace.list() : null;
  const widerCtx = wider === null ? null : listContext(wider);
  const previousOf = (c: Checkpoint): Checkpoint | null | undefined => {
    const p = ctx.previousOf?.(c) ?? widerCtx?.previousOf?.(c);
    if (p !== undefined) return p;
    return (whole && listed.some((x) => x.id === c.id)) || (wider !== null && wider.some((x) => x.id === c.id)) ? null : undefined;
  };
  return shown.map((c) => ({ ...c, ...checkpointWords(c, { previousOf, find: (id) => known.get(id) }) }));
}

/** One checkpoint's words (`chronoscope show`, the MCP tool show_checkpoint). */
export async function describeOne(workspace: Workspace, checkpoint: Checkpoint): Promise<CheckpointWords> {
  const near = await workspace.list({ limit: NEAR });
  const at = near.findIndex((c) => c.id === checkpoint.id);
  const listed = at >= 0 && at < near.length - 1 ? near : await workspace.list();
  const whole = listed.length < NEAR || listed !== near;
  const [described] = await describeList(workspace, [checkpoint], listed, whole);
  const { title, by, note } = described!;
  return { title, by, note };
}

/** How many restores-of-restores an older store's target is followed through (newer ones record theirs). */
const RESTORE_CHASE = 4;

/**
 * What a restore to `target` records (restore.ts): the target's title as the list words it — a
 * target that is itself a restore is named by what that one restored, so titles never nest —
 * its time, and whether restoring it undoes a restore (a safety checkpoint).
 */
export async function restoreOfFor(workspace: Workspace, target: Checkpoint): Promise<RestoreOf> {
  const undo = target.trigger === 'safety' ? { undo: true as const } : {};
  let t = target;
  for (let i = 0; i < RESTORE_CHASE && (t.trigger === 'restore' || t.trigger === 'safety'); i++) {
    if (t.restore_of !== undefined) {
      const prompt = t.restore_of.before_prompt === true ? { before_prompt: true as const } : {};
      return { title: t.restore_of.title, time_ms: target.trigger === 'safety' ? t.restore_of.time_ms : target.time_ms, ...undo, ...prompt };
    }
    const next = t.restore_target === undefined ? null : await workspace.resolve(t.restore_target).catch(() => null);
    if (next === null) return { title: `the checkpoint ${(t.restore_target ?? t.id).slice(0, 8)}`, time_ms: target.time_ms, ...undo };
    t = next;
  }
  return { title: (await describeOne(workspace, t)).title, time_ms: target.trigger === 'safety' ? t.time_ms : target.time_ms, ...undo };
}
