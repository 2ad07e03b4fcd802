// The core's work on the store, for any agent: a checkpoint before a call,
// the ledger after it, denied calls, and which recorded effects the
// conversation no longer shows. It runs wherever the engine is: inside the
// hook process (alone), or inside the running app or `chronoscope serve`
// (delegated over the socket, see delegate-server.ts), which passes a
// backend whose checkpoints use the watcher's knowledge of what changed.
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ClassifiedEffect, EffectKind, EffectRecord, EffectStatus, SnapshotOptions, SnapshotResult } from '../../../shared/model.js';
import type { Store, Workspace } from '../../engine/api.js';
import { workspaceId } from '../../engine/index.js';
import { EffectLedger, ledgerPath } from '../../effects/ledger.js';
import { pushStatePath, scanPushes } from '../../effects/push-monitor.js';
import { redactCommand } from '../../effects/redact.js';
import { afterHasWork, type AgentResult, type BeforeResult, type CheckpointRef, type CoreRequest, type ReminderEffect, type ToolCall } from './call.js';
import { checkpointRememberedBefore, rememberCheckpointBefore } from './call-checkpoints.js';
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
  checkpoint(workspace: Workspace, options: SnapshotOptions, files: string[]): Promise<SnapshotResult>;
  /** Opens a workspace; the app hands out the handles it keeps (no folder checks and metadata read per call). Default: the store's. */
  workspace?(dir: string): Promise<Workspace>;
}

function openWorkspace(backend: AgentBackend, dir: string): Promise<Workspace> {
  return backend.workspace ? backend.workspace(dir) : backend.store.workspace(dir);
}

export async function serveCore(request: CoreRequest, backend: AgentBackend): Promise<AgentResult> {
  switch (request.op) {
    case 'before':
      return before(request.call, request.effects, backend);
    case 'after':
      return after(request.call, request.outcome, request.effects, request.sentNothing ?? [], backend);
    case 'denied':
      return { op: 'denied', updated: await denied(request.agent, request.cwd, request.toolCallIds, backend.store) };
    case 'memory':
      return { op: 'memory', effects: await memory(request, backend.store) };
    case 'snapshot': {
      const workspace = await openWorkspace(backend, request.dir);
      const { options } = request;
      // Paths given: exactly those. Otherwise what the backend knows changed (in the app: the watcher).
      const result = options.paths !== undefined ? await workspace.snapshot(options) : await backend.checkpoint(workspace, options, []);
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
  const files = await Promise.all(call.files.map((p) => realFilePath(resolve(call.cwd, p))));
  const inside = files.map((f) => relative(workspace.root, f)).filter((r) => r !== '' && !r.startsWith('..') && !isAbsolute(r));
  // A file tool writing outside the workspace changes nothing a checkpoint of it could restore.
  if (call.kind === 'file' && inside.length === 0) return { op: 'before', workspace: workspace.root, checkpoint: null };
  const reason =
    call.kind === 'file' ? `${call.tool} ${inside.join(', ')}` : call.command !== null ? `${call.tool}: ${shortCommand(call.command)}` : call.tool;
  // The prompt that led to this call, where the agent's hooks recorded one (session-prompt.ts): the timeline's lane label.
  const prompt = call.session === undefined ? null : await promptOf(store.home, call.session);
  const labels = { tool: call.tool, ...common(call), ...(prompt === null ? {} : { prompt }) };
  // First seen by a hook: this call's checkpoint is the workspace's baseline (nothing recorded yet to limit against).
  const baseline = await workspace.ensureBaseline({ reason, ...labels });
  const result = baseline.id !== null ? baseline : await backend.checkpoint(workspace, { trigger: 'hook', reason, ...labels }, inside);
  const checkpoint: CheckpointRef | null = result.id !== null ? { id: result.id, reason } : await latest(workspace);
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

async function after(call: ToolCall, outcome: 'ok' | 'failed', effects: ClassifiedEffect[], sentNothing: readonly EffectKind[], backend: AgentBackend): Promise<AgentResult> {
  const { store } = backend;
  const dir = await workspaceDirFor(store, call.cwd);
  // Nothing to record and no hint to give: do not open (or register) the workspace at all.
  if (!afterHasWork({ outcome, effects })) return { op: 'after', workspace: dir, before: null };
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

/** A short, secret-free form of a command for a checkpoint reason. */
export function shortCommand(command: string): string {
  const first = redactCommand(command).trim().split('\n')[0] ?? '';
  const more = command.trim().includes('\n') ? ' …' : '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : `${first}${more}`;
}
