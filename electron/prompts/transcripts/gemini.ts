// Gemini CLI's session file (its transcript_path; JSON Lines since 0.39, seen
// in 0.61): a message is a line {id, timestamp, type: user | gemini | info |
// …, content}, re-appended whole each time it grows (a 'gemini' message gains
// its toolCalls [{id, name, args, result, timestamp}] once they ran); a
// `$set: {messages}` line replaces them all, a `$rewindTo: id` line drops that
// message and those after it. Replayed here as Gemini replays it when it
// resumes a session. A tool's result comes back as a 'user' message of
// functionResponse parts: shown as the tool's message.
//
// Gemini's hook payload has no call id: the hook names a call by its content
// (contentCallId of session, tool and input), so each call in the file is
// named the same way from its args to find the one behind a checkpoint.
import { contentCallId } from '../../agents/core/claude-style-payload.js';
import { blockText, callLine, isObj, timeOf, type Obj, type TranscriptMessage, type TranscriptReader } from './message.js';

/** What Gemini adds to the person's first message: the workspace's listing, not their words. */
const SESSION_CONTEXT = /^\s*<session_context>/;

function replay(entries: Obj[]): Obj[] {
  const messages = new Map<string, Obj>();
  for (const entry of entries) {
    const rewind = entry['$rewindTo'];
    if (typeof rewind === 'string') {
      // Not in this tail: the rewind point is before it, so all of the tail's messages go.
      const ids = [...messages.keys()];
      const at = ids.indexOf(rewind);
      for (const id of at < 0 ? ids : ids.slice(at)) messages.delete(id);
    } else if (isObj(entry['$set']) && Array.isArray(entry['$set']['messages'])) {
      messages.clear();
      for (const m of entry['$set']['messages'] as unknown[]) if (isObj(m) && typeof m['id'] === 'string') messages.set(m['id'], m);
    } else if (typeof entry['id'] === 'string' && typeof entry['type'] === 'string') {
      messages.set(entry['id'], entry);
    }
  }
  return [...messages.values()];
}

/** A functionResponse's words: its output, else its error, else the response as JSON. */
function responseText(part: Obj): string {
  const response = isObj(part['functionResponse']) ? part['functionResponse']['response'] : undefined;
  if (!isObj(response)) return '';
  for (const key of ['output', 'error']) if (typeof response[key] === 'string') return response[key];
  return JSON.stringify(response);
}

function message(m: Obj, call: { session?: string; tool: string }): TranscriptMessage[] {
  const content = m['content'];
  if (m['type'] === 'user') {
    const parts = Array.isArray(content) ? content.filter(isObj) : [];
    const responses = parts.filter((p) => isObj(p['functionResponse']));
    if (responses.length > 0) return responses.map((p) => ({ role: 'tool', text: responseText(p), ids: [] }));
    const text = blockText(content);
    return SESSION_CONTEXT.test(text) ? [] : [{ role: 'user', text, ids: [] }];
  }
  if (m['type'] !== 'gemini') return [];
  const calls = Array.isArray(m['toolCalls']) ? m['toolCalls'].filter(isObj) : [];
  const words = blockText(content);
  const lines = [words, ...calls.map((c) => callLine(c['name'], c['args']))].filter((t) => t.trim() !== '');
  const ids = calls.map((c) => contentCallId('gemini', call.session, call.tool, c['args']));
  const times = calls.map((c) => timeOf(c['timestamp'])).filter((t): t is number => t !== undefined);
  return lines.length === 0 ? [] : [{ role: 'assistant', text: lines.join('\n'), ids, ...(times.length === 0 ? {} : { time_ms: Math.max(...times) }) }];
}

export const geminiMessages: TranscriptReader = (entries, call) => replay(entries).flatMap((m) => message(m, call));
