// The agent-neutral shape of what an agent tells us, whichever agent it is:
// a tool call about to run or just finished, a denied batch, or a new turn.
// Adapters (claude-code/, hermes/) translate their agent's protocol into these
// and the core answers them. Plain data only: it crosses the delegate socket.
// One more request crosses it: a snapshot asked for by another process (the
// CLI's `snapshot`, the MCP server's `checkpoint`), so that while the app
// watches a workspace, it too is limited to what the watcher saw change.

import type { ClassifiedEffect, EffectKind, SnapshotResult, Trigger } from '../../../shared/model.js';

/** What a tool call can change: files (known paths), or anything (a shell or a code runner). */
export type CallKind = 'file' | 'shell' | 'code';

export interface ToolCall {
  /** 'claude-code', 'hermes', … (recorded on checkpoints and effects). */
  agent: string;
  /** The agent's own tool name (Edit, Bash, write_file, terminal…). */
  tool: string;
  kind: CallKind;
  /** Absolute folder the call runs in. */
  cwd: string;
  /** Absolute paths a file tool is about to change. */
  files: string[];
  /** The shell command, for shell calls. */
  command: string | null;
  session?: string;
  toolCallId?: string;
}

/** What became of a call: it ran and succeeded, it ran and failed, or it never ran (refused). */
export type CallOutcome = 'ok' | 'failed' | 'denied';

/**
 * The requests the core serves (in the hook process, or in the running app over the socket), after
 * the adapter classified the call's effects (pure and fast, in the hook process, so an `ask` never
 * waits for the store).
 */
export type CoreRequest =
  | { op: 'before'; call: ToolCall; effects: ClassifiedEffect[] }
  | {
      op: 'after';
      call: ToolCall;
      outcome: 'ok' | 'failed';
      effects: ClassifiedEffect[];
      /** Kinds whose every effect in this call said, in the tool's output, that it sent nothing (effects/sent-nothing.ts). */
      sentNothing?: EffectKind[];
      /** What the agent told of the call, for the prompt ledger (read in the hook process). */
      details?: CallDetails;
    }
  /**
   * The agent's turn ended (Claude Code's Stop): a change the turn's last call left with no checkpoint
   * of its own (a shell call, alone) is taken now as that call's, so its prompt's change holds it and
   * a person's edit after the turn is told apart. Nothing else; a workspace never recorded is left alone.
   */
  | { op: 'turn_end'; agent: string; cwd: string; session?: string }
  /** A new prompt: recorded in the workspace's prompt ledger with the latest checkpoint then (a baseline first, if none). */
  | {
      op: 'prompt';
      agent: string;
      cwd: string;
      session: string;
      text: string;
      id: string;
      /** The session's prompt before this one: it labels a change its last call left with no checkpoint. */
      previous?: { label: string; id: string | null };
    }
  | { op: 'denied'; agent: string; cwd: string; toolCallIds: string[] }
  | { op: 'memory'; agent: string; cwd: string; session: string; present: string[] }
  | { op: 'snapshot'; dir: string; options: SnapshotRequest };

/** What an agent's post-call event told of a call beyond its outcome (each only where it gives it). */
export interface CallDetails {
  exit_code?: number;
  /** The end of a failed call's output (bounded again by the ledger). */
  output_tail?: string;
  /** The assistant's words just before the call, from the agent's transcript. */
  intent?: string;
  /** Where the agent's transcript is (absolute path): the call record names it, "Open conversation" reads it. */
  transcript?: string;
}

/** An `after` with anything to do: effects to record, or a failure to give a recovery hint for. */
export function afterHasWork(request: { outcome: 'ok' | 'failed'; effects: readonly ClassifiedEffect[] }): boolean {
  return request.effects.length > 0 || request.outcome !== 'ok';
}

/** A snapshot another process asks the app for. */
export interface SnapshotRequest {
  trigger: Extract<Trigger, 'manual' | 'auto' | 'hook'>;
  reason?: string;
  /** Who asked (the MCP client's name) and through what. */
  agent?: string;
  tool?: string;
  /** Exactly these paths (the watcher is not asked). */
  paths?: string[];
}

/** A checkpoint as answers name it: enough to tell the model how to see and undo. */
export interface CheckpointRef {
  id: string;
  reason: string;
}

export interface BeforeResult {
  op: 'before';
  workspace: string;
  /** The checkpoint holding the state just before the call (a new one, or the latest when nothing changed). */
  checkpoint: CheckpointRef | null;
}

export interface AfterResult {
  op: 'after';
  workspace: string;
  /** The checkpoint taken before this call, for a recovery hint when it failed. */
  before: CheckpointRef | null;
}

export interface PromptResult {
  op: 'prompt';
  workspace: string;
  /** The workspace's latest checkpoint when the prompt was given. */
  before: string | null;
}

export interface TurnEndResult {
  op: 'turn_end';
  workspace: string;
  /** The checkpoint taken as the turn's last call's, or null (nothing left unended, or nothing changed). */
  checkpoint: string | null;
}

export interface DeniedResult {
  op: 'denied';
  updated: number;
}

export interface MemoryResult {
  op: 'memory';
  /** Effects to remind the model of (each only once per session), oldest first. */
  effects: ReminderEffect[];
}

export interface ReminderEffect {
  summary: string;
  target: string;
  compensation: string | null;
  time: string;
}

export interface SnapshotAnswer {
  op: 'snapshot';
  result: SnapshotResult;
}

export type AgentResult = BeforeResult | AfterResult | DeniedResult | MemoryResult | SnapshotAnswer | PromptResult | TurnEndResult;
