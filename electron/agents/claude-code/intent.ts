// Claude Code's transcript as core/transcript-intent.ts reads it: assistant
// entries carry content blocks (text, tool_use with the call's id); a user
// entry whose content is text (not a tool_result) is the person's prompt.
// Subagents' entries (isSidechain) are not the main conversation's words.
import { blocksText, intentBefore, type TranscriptShape } from '../core/transcript-intent.js';

function shapeFor(toolUseId: string | undefined): TranscriptShape {
  return (entry) => {
    if (entry['isSidechain'] === true) return {};
    const message = entry['message'] as { content?: unknown } | undefined;
    const content = message?.content;
    if (entry['type'] === 'user') {
      const toolResult = Array.isArray(content) && content.some((b) => typeof b === 'object' && b !== null && (b as Record<string, unknown>)['type'] === 'tool_result');
      return { prompt: entry['isMeta'] !== true && !toolResult && blocksText(content) !== null };
    }
    if (entry['type'] !== 'assistant') return {};
    const call = toolUseId !== undefined && Array.isArray(content) && content.some((b) => typeof b === 'object' && b !== null && (b as Record<string, unknown>)['id'] === toolUseId);
    return { text: blocksText(content), call };
  };
}

export function claudeCodeIntent(transcript: string | undefined, toolUseId: string | undefined): Promise<string | null> {
  return intentBefore(transcript, shapeFor(toolUseId));
}
