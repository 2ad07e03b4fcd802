// Codex's rollout (~/.codex/sessions/…/rollout-*.jsonl): response_item lines
// (a message, a function_call / custom_tool_call with the call_id the hook
// names, their outputs). Codex's own context (environment, AGENTS.md) is not
// something the person said.
import { blockText, callLine, isObj, type Obj, type TranscriptMessage, type TranscriptReader } from './message.js';

function line(entry: Obj): TranscriptMessage[] {
  if (entry['type'] !== 'response_item' || !isObj(entry['payload'])) return [];
  const p = entry['payload'];
  const id = typeof p['call_id'] === 'string' ? [p['call_id']] : [];
  switch (p['type']) {
    case 'message': {
      const text = blockText(p['content']);
      if (p['role'] === 'assistant') return [{ role: 'assistant', text, ids: [] }];
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
      return [{ role: 'tool', text: typeof out === 'string' ? out : isObj(out) && typeof out['content'] === 'string' ? out['content'] : JSON.stringify(out ?? ''), ids: [] }];
    }
    default:
      return [];
  }
}

export const codexMessages: TranscriptReader = (entries) => entries.flatMap(line);
