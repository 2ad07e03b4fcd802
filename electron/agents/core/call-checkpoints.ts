// Which checkpoint held the workspace just before each recent tool call, as
// the call's PreToolUse found it: its own checkpoint, or, when nothing had
// changed since, the latest one then. A failure's recovery hint names it. Not
// "the latest checkpoint when the failure arrives": by then the app's watcher,
// a parallel call or a person may have checkpointed the damage itself, and
// restoring that would undo nothing.
//
// Beside them, one file says which checkpoint was the latest when the
// workspace's last recorded call ended (written by the service, which takes a
// checkpoint as each call ends): a checkpoint written while that one is still
// the latest holds a change made after the call, by someone else. Another
// names the last call that began without a checkpoint of its own (nothing had
// changed) and the latest checkpoint then: a checkpoint written while that one
// is still the latest holds that call's change, not the previous call's.
//
// One small file per call (no two hooks ever write the same one), in the
// workspace's folder of the store; files older than a day go when there are
// many. A hint only: written without fsync, and a missing or unreadable one
// means the caller falls back to what it did before.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storeLayout, workspaceLayout } from '../../engine/layout/paths.js';
import type { CallRef } from '../../../shared/model.js';

/** From this many remembered calls, those older than a day are removed. */
const PRUNE_FROM = 200;
const KEEP_MS = 24 * 60 * 60 * 1000;

function callsDir(home: string, workspaceId: string): string {
  return join(workspaceLayout(storeLayout(home), workspaceId).dir, 'calls');
}

function callFile(dir: string, toolCallId: string): string {
  return join(dir, createHash('sha256').update(toolCallId).digest('hex').slice(0, 32));
}

export async function rememberCheckpointBefore(home: string, workspaceId: string, toolCallId: string, checkpointId: string): Promise<void> {
  const dir = callsDir(home, workspaceId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(callFile(dir, toolCallId), `${JSON.stringify({ tool_use_id: toolCallId, checkpoint: checkpointId })}\n`, { mode: 0o600 });
  const names = await readdir(dir);
  if (names.length < PRUNE_FROM) return;
  const before = Date.now() - KEEP_MS;
  await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      const st = await stat(file).catch(() => null);
      if (st !== null && st.mtimeMs < before) await rm(file, { force: true });
    }),
  );
}

/** The checkpoint id remembered for this call, if any. */
export async function checkpointRememberedBefore(home: string, workspaceId: string, toolCallId: string): Promise<string | null> {
  try {
    const raw = JSON.parse(await readFile(callFile(callsDir(home, workspaceId), toolCallId), 'utf8')) as { tool_use_id?: unknown; checkpoint?: unknown };
    return raw.tool_use_id === toolCallId && typeof raw.checkpoint === 'string' ? raw.checkpoint : null;
  } catch {
    return null;
  }
}

/** The file naming the latest checkpoint as the last recorded call ended (not a hash: never a call's file). */
function endedFile(home: string, workspaceId: string): string {
  return join(callsDir(home, workspaceId), 'ended.json');
}

export async function rememberCallEnded(home: string, workspaceId: string, checkpointId: string): Promise<void> {
  await mkdir(callsDir(home, workspaceId), { recursive: true, mode: 0o700 });
  // Whole then renamed: a reader never sees half of it (a service and a hook working alone may both write it).
  const file = endedFile(home, workspaceId);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify({ checkpoint: checkpointId, at_ms: Date.now() })}\n`, { mode: 0o600 });
  await rename(tmp, file);
}

export interface CallEnded {
  checkpoint: string;
  /** When it was noted (0 in a note written before the time was kept). */
  at_ms: number;
}

/** The checkpoint that was the latest when the last recorded call ended, if any. */
export async function callEndedNote(home: string, workspaceId: string): Promise<CallEnded | null> {
  try {
    const raw = JSON.parse(await readFile(endedFile(home, workspaceId), 'utf8')) as { checkpoint?: unknown; at_ms?: unknown };
    return typeof raw.checkpoint === 'string' ? { checkpoint: raw.checkpoint, at_ms: typeof raw.at_ms === 'number' ? raw.at_ms : 0 } : null;
  } catch {
    return null;
  }
}

/** The file naming the last call that began without a checkpoint, and the latest checkpoint then. */
function beganFile(home: string, workspaceId: string): string {
  return join(callsDir(home, workspaceId), 'began.json');
}

/** With the call's session and id where the agent gives them: its change, taken later, is told as that call's (and only its own session's turn end takes it). */
export type CallBegan = CallRef & { checkpoint: string; session?: string; tool_use_id?: string };
/** A began note as read: with when it was noted (0 in a note written before the time was kept). */
export type CallBeganNote = CallBegan & { at_ms: number };

export async function rememberCallBegan(home: string, workspaceId: string, began: CallBegan): Promise<void> {
  await mkdir(callsDir(home, workspaceId), { recursive: true, mode: 0o700 });
  // Whole then renamed, as ended.json; two hooks at once: the later rename wins, and either is a call that began after the latest.
  const file = beganFile(home, workspaceId);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify({ ...began, at_ms: Date.now() })}\n`, { mode: 0o600 });
  await rename(tmp, file);
}

/** The last call that began without a checkpoint of its own, if one is noted. */
export async function callBeganNote(home: string, workspaceId: string): Promise<CallBeganNote | null> {
  try {
    const raw = JSON.parse(await readFile(beganFile(home, workspaceId), 'utf8')) as Partial<Record<keyof CallBeganNote, unknown>>;
    const { checkpoint, agent, tool, reason, at_ms, session, tool_use_id } = raw;
    if (typeof checkpoint !== 'string' || typeof agent !== 'string' || typeof tool !== 'string' || typeof reason !== 'string') return null;
    return {
      checkpoint,
      agent,
      tool,
      reason,
      at_ms: typeof at_ms === 'number' ? at_ms : 0,
      ...(typeof session === 'string' ? { session } : {}),
      ...(typeof tool_use_id === 'string' ? { tool_use_id } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * The notes that still speak for the next checkpoint. Both may name the same latest checkpoint: a
 * call ended with nothing changed and another began after it (the service), or — a hook working
 * alone notes a file call's end but never a shell call's — a call ended and a later one began with
 * nothing changed since. The later note wins: a call that began after the last end made what
 * changed since; an end after the last begin means that call changed nothing more.
 */
export function currentNotes(ended: CallEnded | null, began: CallBeganNote | null): { call_ended_at?: string; call_began?: CallBegan } {
  const keepEnded = ended !== null && !(began !== null && began.checkpoint === ended.checkpoint && began.at_ms > ended.at_ms);
  const keepBegan = began !== null && !(ended !== null && began.checkpoint === ended.checkpoint && ended.at_ms >= began.at_ms && began.at_ms !== 0);
  return {
    ...(keepEnded ? { call_ended_at: ended.checkpoint } : {}),
    ...(keepBegan ? { call_began: { checkpoint: began.checkpoint, agent: began.agent, tool: began.tool, reason: began.reason } } : {}),
  };
}
