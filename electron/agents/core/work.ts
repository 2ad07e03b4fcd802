// The core's work on the store, for any agent: a checkpoint before a call,
// the ledger after it, denied calls, and which recorded effects the
// conversation no longer shows. It runs wherever the engine is: inside the
// hook process (alone), or inside the running app or `chronoscope serve`
// (delegated over the socket, see delegate-server.ts), which passes a
// backend whose checkpoints use the watcher's knowledge of what changed.
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ClassifiedEffect, EffectKind, EffectRecord, EffectStatus, SnapshotOptions, SnapshotResult } from '../../../shared/model.js';
import type { SnapshotControl, Store, Workspace } from '../../engine/api.js';
import { workspaceId } from '../../engine/index.js';
import { storeLayout, workspaceLayout } from '../../engine/layout/paths.js';
import { EffectLedger, ledgerPath } from '../../effects/ledger.js';
import { pushStatePath, scanPushes } from '../../effects/push-monitor.js';
import { PromptLedger } from '../../prompts/ledger.js';
import { afterHasWork, type AgentResult, type BeforeResult, type CallDetails, type CheckpointRef, type CoreRequest, type PromptResult, type ReminderEffect, type ToolCall, type TurnEndResult } from './call.js';
import { callBeganNote, callEndedNote, checkpointRememberedBefore, currentNotes, rememberCallBegan, rememberCallEnded, rememberCheckpointBefore } from './call-checkpoints.js';
import { callReason } from './call-reason.js';
import { recordCall, recordCallIn, type CallChange } from './call-record.js';
import { asUnendedCall } from './unended-call.js';
import { takeReminders } from './reminded.js';
import { promptOf } from './session-prompt.js';
import { realFilePath, workspaceDirFor } from './workspace-for.js';

export interface AgentBackend {
  readonly store: Store;
  /**
   * Takes the checkpoint before a call. `files` are the workspace-relative paths the call is about
   * to change (empty for shell and code calls). Alone: a full scan. In the app: limited to what the
   * watcher saw change plus `files`, when the watcher can vouch for the rest.
   */
  checkpoint(workspace: Workspace, options: SnapshotOptions, files: string[], control?: SnapshotControl): Promise<SnapshotResult>;
  /**
   * Opens a workspace; the app hands out the handles it keeps (no folder checks and metadata read per call). Default: the store's.
   * `watch: false`: a one-off snapshot someone asked for (CLI, MCP) — the app starts no watcher for it (docs/daemon.md).
   */
  workspace?(dir: string, options?: { watch?: boolean }): Promise<Workspace>;
  /**
   * Takes a checkpoint as each call ends, so its change is told as exactly that call's. The service
   * does (its watcher knows what changed: cheap); alone it would be a second full scan per call.
   */
  readonly checkpointsAfterCalls?: boolean;
}

function openWorkspace(backend: AgentBackend, dir: string, options?: { watch?: boolean }): Promise<Workspace> {
  return backend.workspace ? backend.workspace(dir, options) : backend.store.workspace(dir);
}

/** `control`: a snapshot request its asker may withdraw until the checkpoint is written (withdrawal.ts). */
export async function serveCore(request: CoreRequest, backend: AgentBackend, control?: SnapshotControl): Promise<AgentResult> {
  switch (request.op) {
    case 'before':
      return before(request.call, request.effects, backend);
    case 'after':
      return after(request.call, request.outcome, request.effects, request.sentNothing ?? [], request.details, backend);
    case 'prompt':
      return prompt(request, backend);
    case 'turn_end':
      return turnEnd(request, backend);
    case 'denied':
      return { op: 'denied', updated: await denied(request.agent, request.cwd, request.toolCallIds, backend.store) };
    case 'memory':
      return { op: 'memory', effects: await memory(request, backend.store) };
    case 'snapshot': {
      const workspace = await openWorkspace(backend, request.dir, { watch: false });
      const { options } = request;
      // Paths given: exactly those. Otherwise what the backend knows changed (in the app: the watcher).
      const result = options.paths !== undefined ? await workspace.snapshot(options, control) : await backend.checkpoint(workspace, options, [], control);
      return { op: 'snapshot', result };
    }
  }
}

function common(call: ToolCall): Pick<EffectRecord, 'agent' | 'session' | 'tool_use_id'> {
  return {
    agent: call.agent,
    ...(call.session === undefined ? {} : { session: call.session }),
    ...(call.toolCallId === undefined ? {} : { tool_use_id: call.toolCallId }),
  };
}

async function before(call: ToolCall, effects: ClassifiedEffect[], backend: AgentBackend): Promise<BeforeResult> {
  const { store } = backend;
  const workspace = await openWorkspace(backend, await workspaceDirFor(store, call.cwd));
  const inside = await filesInside(call, workspace.root);
  // A file tool writing outside the workspace changes nothing a checkpoint of it could restore.
  if (call.kind === 'file' && inside.length === 0) return { op: 'before', workspace: workspace.root, checkpoint: null };
  const reason = callReason(call, inside);
  const labels = await callLabels(store, call);
  // First seen by a hook: this call's checkpoint is the workspace's baseline (nothing recorded yet to limit against).
  const baseline = await workspace.ensureBaseline({ reason, ...labels });
  // Still the latest checkpoint since the previous call ended: what this one holds came after it, from someone else.
  // Still the latest since a call began without a checkpoint: what this one holds is that call's doing.
  const notes = currentNotes(await callEndedNote(store.home, workspace.meta.id), await callBeganNote(store.home, workspace.meta.id));
  const result = baseline.id !== null ? baseline : await backend.checkpoint(workspace, { trigger: 'hook', reason, ...labels, ...notes }, inside);
  const checkpoint: CheckpointRef | null = result.id !== null ? { id: result.id, reason } : await latest(workspace);
  // Nothing had changed: no checkpoint of this call's own. The next one holds its change (a hint: never an error here).
  if (result.id === null && checkpoint !== null) {
    const ids = { ...(call.session === undefined ? {} : { session: call.session }), ...(call.toolCallId === undefined ? {} : { tool_use_id: call.toolCallId }) };
    await rememberCallBegan(store.home, workspace.meta.id, { checkpoint: checkpoint.id, agent: call.agent, tool: call.tool, reason, ...ids }).catch(() => undefined);
  }
  // What a failure's recovery hint will name (call-checkpoints.ts); a hint only, so never an error here.
  if (checkpoint !== null && call.toolCallId !== undefined) {
    await rememberCheckpointBefore(store.home, workspace.meta.id, call.toolCallId, checkpoint.id).catch(() => undefined);
  }
  if (effects.length > 0) {
    const ledger = new EffectLedger(store.home, workspace.meta.id);
    for (const e of effects) {
      await ledger.append({ ...e, workspace: workspace.root, source: 'hook', status: 'intended', checkpoint: checkpoint?.id ?? null, ...common(call) });
    }
  }
  return { op: 'before', workspace: workspace.root, checkpoint };
}

/** What a call's checkpoints are labelled with: its tool, ids and the prompt that led to it (session-prompt.ts: the lane's label). */
async function callLabels(store: Store, call: ToolCall): Promise<SnapshotOptions> {
  const prompt = call.session === undefined ? null : await promptOf(store.home, call.session);
  return { tool: call.tool, ...common(call), ...(prompt === null ? {} : { prompt: prompt.label }), ...(prompt?.id == null ? {} : { prompt_id: prompt.id }) };
}

/** The workspace-relative paths of a file call's files that lie inside the workspace. */
async function filesInside(call: ToolCall, root: string): Promise<string[]> {
  const files = await Promise.all(call.files.map((p) => realFilePath(resolve(call.cwd, p))));
  return files.map((f) => relative(root, f)).filter((r) => r !== '' && !r.startsWith('..') && !isAbsolute(r));
}

/**
 * As a call ends (ran, failed or not), the checkpoint of what it changed, told as exactly that call's
 * change; and a note of the latest checkpoint then, so the next call's checkpoint knows that what
 * changed since was not this call. Where the backend checkpoints after calls (the service), through
 * it; alone, only a file call's own files (a path-limited scan: cheap, and exact, as no other file
 * is looked at), so a failed Edit that changed nothing is never named as the next change's author.
 * A shell call alone takes none: what it changed is only found by the next full scan.
 */
async function checkpointAfter(call: ToolCall, workspace: Workspace, backend: AgentBackend): Promise<CallChange> {
  const inside = call.kind === 'file' ? await filesInside(call, workspace.root) : [];
  const none: CallChange = { paths: inside, checkpoint: null, inside };
  if (call.kind === 'file' && inside.length === 0) return none;
  const alone = backend.checkpointsAfterCalls !== true;
  if (alone && call.kind !== 'file') return none;
  const options: SnapshotOptions = { trigger: 'hook', reason: callReason(call, inside), ...(await callLabels(backend.store, call)), change_by: 'call' };
  const result = alone ? await workspace.snapshot({ ...options, paths: inside }) : await backend.checkpoint(workspace, options, inside);
  const now = result.id ?? (await latest(workspace))?.id ?? null;
  if (now !== null) await rememberCallEnded(backend.store.home, workspace.meta.id, now);
  if (result.id === null) return none;
  return { paths: result.checkpoint.paths ?? inside, checkpoint: result.id, inside };
}

async function after(call: ToolCall, outcome: 'ok' | 'failed', effects: ClassifiedEffect[], sentNothing: readonly EffectKind[], details: CallDetails | undefined, backend: AgentBackend): Promise<AgentResult> {
  const { store } = backend;
  const dir = await workspaceDirFor(store, call.cwd);
  const takes = backend.checkpointsAfterCalls === true || call.kind === 'file';
  // Nothing to record but the call, no hint to give and no checkpoint to take: the workspace is not opened (or registered).
  if (!afterHasWork({ outcome, effects }) && !takes) {
    await recordCallIn(store.home, dir, call, outcome, details).catch(() => undefined);
    return { op: 'after', workspace: dir, before: null };
  }
  const workspace = await openWorkspace(backend, dir);
  const ledger = new EffectLedger(store.home, workspace.meta.id);
  if (effects.length > 0) {
    // Ran, but by its output sent nothing (a push already up to date): nothing left, nothing to undo.
    const statusOf = (kind: EffectKind): EffectStatus => (outcome === 'failed' ? 'failed' : sentNothing.includes(kind) ? 'nothing_sent' : 'happened');
    const earlier = call.toolCallId === undefined ? [] : (await ledger.list()).filter((r) => r.tool_use_id === call.toolCallId && r.source === 'hook');
    if (earlier.length > 0) {
      for (const r of earlier) {
        const status = statusOf(r.kind);
        // A push the reflog already confirmed happened, whatever the rest of the command did or said.
        if (status !== 'happened' && r.reflog_id !== undefined) continue;
        await ledger.setStatus(r.id, status, Date.now(), status === 'nothing_sent' ? { compensation: null } : undefined);
      }
    } else {
      const checkpoint = (await latest(workspace))?.id ?? null;
      for (const e of effects) {
        const status = statusOf(e.kind);
        await ledger.append({ ...e, ...(status === 'nothing_sent' ? { compensation: null } : {}), workspace: workspace.root, source: 'hook', status, checkpoint, ...common(call) });
      }
    }
    // A push also shows in the reflog: complete the record now, even when no app is running to watch.
    if (effects.some((e) => e.kind === 'git_push')) {
      await scanPushes(workspace.root, ledger, pushStatePath(ledger), {
        sinceMs: Date.parse(workspace.meta.created),
        checkpoint: (await latest(workspace))?.id ?? null,
      });
    }
  }
  // After the ledger's work, which names the latest checkpoint as the call ended, as it always did.
  // Never at the cost of the answer: the next call's checkpoint holds the change all the same.
  const change = takes ? await checkpointAfter(call, workspace, backend).catch(() => null) : null;
  await recordCall(store.home, workspace.meta.id, call, outcome, details, change ?? { paths: [], checkpoint: null, inside: [] }).catch(() => undefined);
  return { op: 'after', workspace: workspace.root, before: outcome === 'failed' ? await checkpointBefore(store.home, workspace, call.toolCallId) : null };
}

/**
 * The state just before the call: what its PreToolUse remembered (its own checkpoint, or the latest
 * one then), else the checkpoint it took, else the latest one (a call whose PreToolUse we never saw).
 */
async function checkpointBefore(home: string, workspace: Workspace, toolCallId: string | undefined): Promise<CheckpointRef | null> {
  const remembered = toolCallId === undefined ? null : await checkpointRememberedBefore(home, workspace.meta.id, toolCallId);
  if (remembered !== null) {
    // Gone since (retention) or unreadable: as if nothing was remembered.
    const found = await workspace.resolve(remembered).catch(() => null);
    if (found !== null) return { id: found.id, reason: found.reason };
  }
  const recent = await workspace.list({ limit: 50 });
  const own = toolCallId === undefined ? undefined : recent.find((c) => c.tool_use_id === toolCallId);
  const found = own ?? recent[0];
  return found === undefined ? null : { id: found.id, reason: found.reason };
}

/** The ledger of the workspace `cwd` belongs to, only when it already exists (nothing is registered). */
async function existingLedger(store: Store, cwd: string): Promise<EffectLedger | null> {
  const id = workspaceId(await workspaceDirFor(store, cwd));
  return existsSync(ledgerPath(store.home, id)) ? new EffectLedger(store.home, id) : null;
}

/**
 * Calls that never ran (refused): their effects still intended become denied. Effects a PostToolUse
 * or PostToolUseFailure already settled are left as they are, so an adapter may name every call of a
 * batch that could have effects; one settled later still turns denied into happened or failed.
 */
async function denied(agent: string, cwd: string, ids: string[], store: Store): Promise<number> {
  const ledger = await existingLedger(store, cwd);
  if (ledger === null || ids.length === 0) return 0;
  const wanted = new Set(ids);
  let updated = 0;
  for (const r of await ledger.list()) {
    if (r.source !== 'hook' || r.agent !== agent || r.status !== 'intended' || r.tool_use_id === undefined || !wanted.has(r.tool_use_id)) continue;
    await ledger.setStatus(r.id, 'denied');
    updated += 1;
  }
  return updated;
}

/** How far back effects of other sessions count (a cleared conversation starts a new session). */
const MEMORY_WINDOW_MS = 24 * 60 * 60 * 1000;

async function memory(request: { agent: string; cwd: string; session: string; present: string[] }, store: Store): Promise<ReminderEffect[]> {
  const ledger = await existingLedger(store, request.cwd);
  if (ledger === null) return [];
  const present = new Set(request.present);
  const since = Date.now() - MEMORY_WINDOW_MS;
  const forgotten = (await ledger.list()).filter(
    (r) =>
      r.source === 'hook' &&
      r.agent === request.agent &&
      r.status === 'happened' &&
      r.tool_use_id !== undefined &&
      !present.has(r.tool_use_id) &&
      (r.session === request.session || r.time_ms >= since),
  );
  if (forgotten.length === 0) return [];
  const fresh = await takeReminders(ledger, request.session, forgotten.map((r) => r.id));
  return forgotten
    .filter((r) => fresh.has(r.id))
    .map((r) => ({ summary: r.summary, target: r.target, compensation: r.compensation, time: r.time }));
}

async function latest(workspace: Workspace): Promise<CheckpointRef | null> {
  const [found] = await workspace.list({ limit: 1 });
  return found === undefined ? null : { id: found.id, reason: found.reason };
}

export { shortCommand } from './call-reason.js';

/**
 * A new prompt, in the workspace's prompt ledger with the latest checkpoint then: the state a
 * restore to before the prompt goes back to. A workspace met first by a prompt gets its baseline
 * now, so even the prompt's first call has a state before it.
 */
async function prompt(request: Extract<CoreRequest, { op: 'prompt' }>, backend: AgentBackend): Promise<PromptResult> {
  const { store } = backend;
  const workspace = await openWorkspace(backend, await workspaceDirFor(store, request.cwd));
  // The agent's lane, but neither the prompt's id nor its words: it holds the state before the prompt, which the
  // list would otherwise show under a second header of the same prompt (one keyed by its words).
  const baseline = await workspace.ensureBaseline({ agent: request.agent, session: request.session });
  let before = baseline.id;
  if (before === null) {
    // The session's last call may have changed files with no checkpoint of its own (a shell call, alone):
    // taken now as that call's, so the state before this prompt holds it (unended-call.ts).
    // Anything else changed since (a person's edit between prompts) is taken now too, so restoring to
    // before this prompt gives back what the person had as they asked, not the state before their edit.
    const latestNow = (await workspace.list({ limit: 1 }))[0];
    const asCall = await asUnendedCall(store.home, workspace.meta.id, latestNow, {}, request.previous ?? null);
    const byCall = asCall.change_by === 'call';
    const options: SnapshotOptions = byCall
      ? asCall
      : { trigger: 'hook', reason: 'Changed before the prompt was given', agent: request.agent, session: request.session, change_by: 'other' };
    const taken = await backend.checkpoint(workspace, options, []);
    before = taken.id;
    const now = taken.id ?? latestNow?.id ?? null;
    if (byCall && now !== null) await rememberCallEnded(store.home, workspace.meta.id, now);
    before ??= latestNow?.id ?? null;
  }
  await new PromptLedger(store.home, workspace.meta.id).appendPrompt({ id: request.id, text: request.text, agent: request.agent, session: request.session, before });
  return { op: 'prompt', workspace: workspace.root, before };
}

/**
 * The agent's turn ended: what its last call left unended (a shell call's change, alone: its end takes
 * no checkpoint, checkpointAfter) is taken now as that call's, once per turn instead of a full scan
 * per shell call. With the service every end is noted already, and this finds nothing to do.
 */
async function turnEnd(request: Extract<CoreRequest, { op: 'turn_end' }>, backend: AgentBackend): Promise<TurnEndResult> {
  const { store } = backend;
  const dir = await workspaceDirFor(store, request.cwd);
  const none: TurnEndResult = { op: 'turn_end', workspace: dir, checkpoint: null };
  // Only a workspace the hooks already record: a turn's end registers nothing.
  if (!existsSync(workspaceLayout(storeLayout(store.home), workspaceId(dir)).metaFile)) return none;
  const workspace = await openWorkspace(backend, dir);
  const latestNow = (await workspace.list({ limit: 1 }))[0];
  // The turn's prompt (the session's current one): the call served it.
  const prompt = request.session === undefined ? null : await promptOf(store.home, request.session);
  const asCall = await asUnendedCall(store.home, workspace.meta.id, latestNow, {}, prompt);
  if (asCall.change_by !== 'call') return { ...none, workspace: workspace.root };
  // Another session's call (two agents in one workspace): its own turn's end takes it, under its own prompt.
  if (request.session !== undefined && asCall.session !== undefined && asCall.session !== request.session) return { ...none, workspace: workspace.root };
  const taken = await backend.checkpoint(workspace, asCall, []);
  const now = taken.id ?? latestNow?.id ?? null;
  if (now !== null) await rememberCallEnded(store.home, workspace.meta.id, now);
  return { op: 'turn_end', workspace: workspace.root, checkpoint: taken.id };
}
