// "Open conversation": the messages around the call that made a checkpoint's
// change, read on demand from the agent's own transcript while it is still
// there. The call record names the transcript (CallRecord.transcript, set by
// the hook from its payload) or, for OpenCode, whose sessions are in its
// database, the session OpenCode's own `export` prints; nothing of it is ever
// copied into the store.
//
// Bounded: only a file's last CONVERSATION_TAIL_BYTES are read, and only
// through fs/tail-read.ts (a regular file, opened without following a FIFO or
// device into an unbounded read); at most CONVERSATION_MAX messages, each at
// most MESSAGE_TEXT_MAX characters, every text redacted (shared/redact.ts).
import { lstat } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { CallRecord, ConversationView } from '../../shared/model.js';
import { redactSecrets } from '../../shared/redact.js';
import { conversationReadable, conversationUnreadableReason, type TranscriptFileAgent } from '../../shared/conversation.js';
import { exportOpenCodeSession } from '../agents/opencode/session-export.js';
import { readJsonObjectsAtEnd } from '../fs/tail-read.js';
import { claudeCodeMessages } from './transcripts/claude-code.js';
import { codexMessages } from './transcripts/codex.js';
import { copilotMessages } from './transcripts/copilot.js';
import { geminiMessages } from './transcripts/gemini.js';
import { openCodeMessages } from './transcripts/opencode.js';
import { isObj, type TranscriptMessage, type TranscriptReader } from './transcripts/message.js';

/** A long session's transcript runs to tens of MB; the turn around a recent call is in its last few. */
export const CONVERSATION_TAIL_BYTES = 4 * 1024 * 1024;
export const CONVERSATION_MAX = 20;
export const MESSAGE_TEXT_MAX = 2000;
/** Messages shown before the call's; the rest of CONVERSATION_MAX after it. */
const BEFORE = 12;

const FILE_READERS: Record<TranscriptFileAgent, TranscriptReader> = {
  'claude-code': claudeCodeMessages,
  codex: codexMessages,
  gemini: geminiMessages,
  copilot: copilotMessages,
};

/** The message asking for the call: the one holding its id; of several (the same content twice), the nearest in time. */
function callIndex(messages: TranscriptMessage[], call: CallRecord & { tool_use_id: string }): number {
  let best = -1;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool' || !m.ids.includes(call.tool_use_id)) continue;
    const prior = messages[best];
    if (prior === undefined || m.time_ms === undefined || prior.time_ms === undefined || Math.abs(m.time_ms - call.time_ms) <= Math.abs(prior.time_ms - call.time_ms)) best = i;
  }
  return best;
}

function unavailable(reason: string): ConversationView {
  return { available: false, reason, messages: [] };
}

function bounded(text: string): string {
  const clean = redactSecrets(text.trim());
  return clean.length <= MESSAGE_TEXT_MAX ? clean : `${clean.slice(0, MESSAGE_TEXT_MAX - 1)}…`;
}

/** Where "Open conversation" runs the agent's own export (OpenCode): its folder, and the environment it reads the agent's data by. */
export interface ConversationContext {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** The messages around `call` in its transcript; available:false with a one-line reason when they cannot be read. */
export async function conversationAround(call: CallRecord | null, context: ConversationContext = {}): Promise<ConversationView> {
  if (call === null) return unavailable('no agent call is recorded for this checkpoint');
  if (!conversationReadable(call.agent)) return unavailable(conversationUnreadableReason(call.agent)!);
  const toolUseId = call.tool_use_id;
  if (toolUseId === undefined) return unavailable('the call has no id to find it by in the transcript');
  const read = await messagesOf(call, call.agent, context);
  if (typeof read === 'string') return unavailable(read);
  const parsed = read.filter((m) => m.text.trim() !== '');
  const at = callIndex(parsed, { ...call, tool_use_id: toolUseId });
  if (at < 0) return unavailable(call.agent === 'opencode' ? "the call is not in OpenCode's session any more" : `the call is not in the transcript's last ${CONVERSATION_TAIL_BYTES / 1024 / 1024} MB`);
  const start = Math.max(0, at - BEFORE);
  const window = parsed.slice(start, start + CONVERSATION_MAX);
  return {
    available: true,
    messages: window.map((m, i) => ({ role: m.role, text: bounded(m.text), ...(start + i === at ? { at_call: true } : {}) })),
  };
}

/** The call's conversation as messages, or why it cannot be read (one line). */
async function messagesOf(call: CallRecord, agent: TranscriptFileAgent | 'opencode', context: ConversationContext): Promise<TranscriptMessage[] | string> {
  if (agent === 'opencode') {
    if (call.session === undefined) return 'OpenCode named no session for this call';
    const exported = await exportOpenCodeSession(call.session, { cwd: context.cwd ?? homedir(), ...(context.env === undefined ? {} : { env: context.env }) });
    return exported.ok ? openCodeMessages(exported.messages.filter(isObj), call) : exported.reason;
  }
  if (call.transcript === undefined) return 'the agent named no transcript for this call';
  const entries = await readJsonObjectsAtEnd(call.transcript, CONVERSATION_TAIL_BYTES);
  if (entries === null) return whyUnreadable(call.transcript);
  return FILE_READERS[agent](entries, call);
}

/** A transcript the agent has deleted since (the common case: sessions are cleaned up) said plainly, apart from one that cannot be read. */
async function whyUnreadable(transcript: string): Promise<string> {
  const gone = await lstat(transcript).then(
    () => false,
    (err: NodeJS.ErrnoException) => err.code === 'ENOENT' || err.code === 'ENOTDIR',
  );
  return gone ? `the transcript is no longer there: ${transcript}` : `the transcript cannot be read (not a regular file, or no permission): ${transcript}`;
}
