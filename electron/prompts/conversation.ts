// "Open conversation": the messages around the call that made a checkpoint's
// change, read on demand from the agent's own transcript while it is still
// there. The call record names the transcript (CallRecord.transcript, set by
// the hook from its payload); nothing of it is ever copied into the store.
//
// Bounded: only the file's last CONVERSATION_TAIL_BYTES are read, and only
// through fs/tail-read.ts (a regular file, opened without following a FIFO or
// device into an unbounded read); at most CONVERSATION_MAX messages, each at
// most MESSAGE_TEXT_MAX characters, every text redacted (shared/redact.ts).
import type { CallRecord, ConversationMessage, ConversationView } from '../../shared/model.js';
import { redactSecrets } from '../../shared/redact.js';
import { readJsonObjectsAtEnd } from '../fs/tail-read.js';

/** A long session's transcript runs to tens of MB; the turn around a recent call is in its last few. */
export const CONVERSATION_TAIL_BYTES = 4 * 1024 * 1024;
export const CONVERSATION_MAX = 20;
export const MESSAGE_TEXT_MAX = 2000;
/** Messages shown before the call's; the rest of CONVERSATION_MAX after it. */
const BEFORE = 12;

/** One transcript line as a message, with the call ids it holds (a tool_use's id, a result's tool_use_id). */
interface Parsed {
  role: ConversationMessage['role'];
  text: string;
  ids: string[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((b) => (isObj(b) && typeof b['text'] === 'string' ? [b['text'] as string] : typeof b === 'string' ? [b] : []))
    .join('\n');
}

function callLine(name: unknown, input: unknown): string {
  const args = typeof input === 'string' ? input : JSON.stringify(input ?? {});
  return `→ ${typeof name === 'string' ? name : 'tool'} ${args}`;
}

/** Claude Code: {type: user|assistant, message: {content: string | blocks}}; subagents' lines (isSidechain) left out. */
function claudeCodeLine(entry: Obj): Parsed[] {
  if (entry['isSidechain'] === true || entry['isMeta'] === true) return [];
  const message = isObj(entry['message']) ? entry['message'] : undefined;
  const content = message?.['content'];
  if (entry['type'] === 'user') {
    if (typeof content === 'string') return [{ role: 'user', text: content, ids: [] }];
    if (!Array.isArray(content)) return [];
    const results = content.filter((b): b is Obj => isObj(b) && b['type'] === 'tool_result');
    if (results.length === 0) return [{ role: 'user', text: blockText(content), ids: [] }];
    return results.map((r) => ({ role: 'tool', text: blockText(r['content']), ids: typeof r['tool_use_id'] === 'string' ? [r['tool_use_id']] : [] }));
  }
  if (entry['type'] !== 'assistant' || !Array.isArray(content)) return [];
  const parts: string[] = [];
  const ids: string[] = [];
  for (const b of content) {
    if (!isObj(b)) continue;
    if (b['type'] === 'text' && typeof b['text'] === 'string') parts.push(b['text']);
    if (b['type'] === 'tool_use') {
      parts.push(callLine(b['name'], b['input']));
      if (typeof b['id'] === 'string') ids.push(b['id']);
    }
  }
  return parts.length === 0 ? [] : [{ role: 'assistant', text: parts.join('\n'), ids }];
}

/** Codex's rollout: response_item lines (message, function_call / custom_tool_call with call_id, their outputs). */
function codexLine(entry: Obj): Parsed[] {
  if (entry['type'] !== 'response_item' || !isObj(entry['payload'])) return [];
  const p = entry['payload'];
  const id = typeof p['call_id'] === 'string' ? [p['call_id']] : [];
  switch (p['type']) {
    case 'message': {
      const text = blockText(p['content']);
      if (p['role'] === 'assistant') return [{ role: 'assistant', text, ids: [] }];
      // Codex's own context (environment, AGENTS.md) is not something the person said.
      if (p['role'] === 'user' && !/^\s*<(environment_context|user_instructions|turn_aborted)/.test(text) && !text.startsWith('# AGENTS.md')) return [{ role: 'user', text, ids: [] }];
      return [];
    }
    case 'function_call':
      return [{ role: 'assistant', text: callLine(p['name'], p['arguments']), ids: id }];
    case 'custom_tool_call':
      return [{ role: 'assistant', text: callLine(p['name'], p['input']), ids: id }];
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const out = p['output'];
      return [{ role: 'tool', text: typeof out === 'string' ? out : isObj(out) && typeof out['content'] === 'string' ? out['content'] : JSON.stringify(out ?? ''), ids: id }];
    }
    default:
      return [];
  }
}

const READERS: Record<string, (entry: Obj) => Parsed[]> = { 'claude-code': claudeCodeLine, codex: codexLine };

function unavailable(reason: string): ConversationView {
  return { available: false, reason, messages: [] };
}

function bounded(text: string): string {
  const clean = redactSecrets(text.trim());
  return clean.length <= MESSAGE_TEXT_MAX ? clean : `${clean.slice(0, MESSAGE_TEXT_MAX - 1)}…`;
}

/** The messages around `call` in its transcript; available:false with a one-line reason when they cannot be read. */
export async function conversationAround(call: CallRecord | null): Promise<ConversationView> {
  if (call === null) return unavailable('no agent call is recorded for this checkpoint');
  if (call.transcript === undefined) return unavailable('the agent named no transcript for this call');
  const reader = READERS[call.agent];
  if (reader === undefined) return unavailable(`reading ${call.agent}'s transcript is not supported yet`);
  if (call.tool_use_id === undefined) return unavailable('the call has no id to find it by in the transcript');
  const entries = await readJsonObjectsAtEnd(call.transcript, CONVERSATION_TAIL_BYTES);
  if (entries === null) return unavailable(`the transcript is gone or unreadable: ${call.transcript}`);
  const parsed = entries.flatMap((entry) => reader(entry).filter((m) => m.text.trim() !== ''));
  const at = parsed.findIndex((m) => m.role !== 'tool' && m.ids.includes(call.tool_use_id!));
  if (at < 0) return unavailable(`the call is not in the transcript's last ${CONVERSATION_TAIL_BYTES / 1024 / 1024} MB`);
  const start = Math.max(0, at - BEFORE);
  const window = parsed.slice(start, start + CONVERSATION_MAX);
  return {
    available: true,
    messages: window.map((m, i) => ({ role: m.role, text: bounded(m.text), ...(start + i === at ? { at_call: true } : {}) })),
  };
}
