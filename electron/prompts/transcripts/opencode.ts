// OpenCode's session as `opencode export <session>` prints it (seen in
// 1.18.33): {info, messages: [{info: {role, time: {created}}, parts}]}, where
// a part is {type: 'text', text, synthetic?}, {type: 'tool', tool, callID,
// state: {status, input, output | error}}, or step and reasoning parts that
// are not the conversation. One assistant message is one model step: its
// words, then the calls it asked for; a call's id is the callID the plugin
// hands the hook (call_id), so it is found by id, as Claude Code's are.
import { callLine, isObj, type Obj, type TranscriptMessage, type TranscriptReader } from './message.js';

const textOf = (part: Obj): string => (part['type'] === 'text' && part['synthetic'] !== true && typeof part['text'] === 'string' ? part['text'] : '');

function message(entry: Obj): TranscriptMessage[] {
  const info = isObj(entry['info']) ? entry['info'] : undefined;
  const parts = Array.isArray(entry['parts']) ? entry['parts'].filter(isObj) : [];
  const created = isObj(info?.['time']) ? info['time']['created'] : undefined;
  const time = typeof created === 'number' && Number.isFinite(created) ? { time_ms: created } : {};
  if (info?.['role'] === 'user') {
    const text = parts.map(textOf).filter((t) => t !== '').join('\n');
    return text === '' ? [] : [{ role: 'user', text, ids: [] }];
  }
  if (info?.['role'] !== 'assistant') return [];
  const lines: string[] = [];
  const ids: string[] = [];
  const results: TranscriptMessage[] = [];
  for (const part of parts) {
    const text = textOf(part);
    if (text !== '') lines.push(text);
    if (part['type'] !== 'tool') continue;
    const state = isObj(part['state']) ? part['state'] : {};
    lines.push(callLine(part['tool'], state['input']));
    if (typeof part['callID'] === 'string') ids.push(part['callID']);
    const result = typeof state['output'] === 'string' ? state['output'] : typeof state['error'] === 'string' ? state['error'] : '';
    results.push({ role: 'tool', text: result, ids: [] });
  }
  return lines.length === 0 ? [] : [{ role: 'assistant', text: lines.join('\n'), ids, ...time }, ...results];
}

/** `entries`: the export's messages. */
export const openCodeMessages: TranscriptReader = (entries) => entries.flatMap(message);
