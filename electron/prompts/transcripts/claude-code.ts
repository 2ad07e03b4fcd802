// Claude Code's transcript (its transcript_path, JSON Lines): {type: user |
// assistant, message: {content: string | blocks}}; a tool_use block has the id
// the hook payload names (tool_use_id). Subagents' lines (isSidechain) and
// meta lines are left out.
import { blockText, callLine, isObj, type Obj, type TranscriptMessage, type TranscriptReader } from './message.js';

function line(entry: Obj): TranscriptMessage[] {
  if (entry['isSidechain'] === true || entry['isMeta'] === true) return [];
  const message = isObj(entry['message']) ? entry['message'] : undefined;
  const content = message?.['content'];
  if (entry['type'] === 'user') {
    if (typeof content === 'string') return [{ role: 'user', text: content, ids: [] }];
    if (!Array.isArray(content)) return [];
    const results = content.filter((b): b is Obj => isObj(b) && b['type'] === 'tool_result');
    if (results.length === 0) return [{ role: 'user', text: blockText(content), ids: [] }];
    return results.map((r) => ({ role: 'tool', text: blockText(r['content']), ids: [] }));
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

export const claudeCodeMessages: TranscriptReader = (entries) => entries.flatMap(line);
