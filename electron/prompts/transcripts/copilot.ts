// Copilot CLI's session events (<COPILOT_HOME>/session-state/<session
// id>/events.jsonl, seen in 1.0.102; the hook records its path): a
// `user.message` has the person's words (data.content), an
// `assistant.message` the model's words and the calls it asks for
// (data.toolRequests: toolCallId, name, arguments), a
// `tool.execution_complete` a call's result (data.result.content). Hook and
// system events are not the conversation.
//
// The hook payload has no call id: the hook names a call by its content
// (contentCallId of session, tool as the hook named it, input), so each
// request here is named the same way from its arguments.
import { contentCallId } from '../../agents/core/claude-style-payload.js';
import { callLine, isObj, timeOf, type Obj, type TranscriptMessage, type TranscriptReader } from './message.js';

function event(entry: Obj, call: { session?: string; tool: string }): TranscriptMessage[] {
  const data = isObj(entry['data']) ? entry['data'] : undefined;
  if (data === undefined) return [];
  switch (entry['type']) {
    case 'user.message':
      return typeof data['content'] === 'string' ? [{ role: 'user', text: data['content'], ids: [] }] : [];
    case 'assistant.message': {
      const requests = Array.isArray(data['toolRequests']) ? data['toolRequests'].filter(isObj) : [];
      const lines = [typeof data['content'] === 'string' ? data['content'] : '', ...requests.map((r) => callLine(r['name'], r['arguments']))].filter((t) => t.trim() !== '');
      const ids = requests.map((r) => contentCallId('copilot', call.session, call.tool, r['arguments']));
      const time = timeOf(entry['timestamp']);
      return lines.length === 0 ? [] : [{ role: 'assistant', text: lines.join('\n'), ids, ...(time === undefined ? {} : { time_ms: time }) }];
    }
    case 'tool.execution_complete': {
      const result = isObj(data['result']) ? data['result']['content'] : undefined;
      const error = isObj(data['error']) ? data['error']['message'] : undefined;
      const text = typeof result === 'string' ? result : typeof error === 'string' ? error : '';
      return [{ role: 'tool', text, ids: [] }];
    }
    default:
      return [];
  }
}

export const copilotMessages: TranscriptReader = (entries, call) => entries.flatMap((e) => event(e, call));
