// Gemini CLI's session file (its transcript_path: JSON Lines since 0.39, one
// message a line, a message re-appended whole when it grows; `$set` and
// `$rewindTo` lines between) as core/transcript-intent.ts reads it: a
// 'gemini' message's content is its text and its toolCalls the calls it made
// (matched by name and arguments: the hook's payload has no call id); a
// 'user' message is the person's prompt.
import { blocksText, intentBefore, sameArgs, type TranscriptShape } from '../core/transcript-intent.js';

function shapeFor(tool: string | undefined, input: Record<string, unknown> | undefined): TranscriptShape {
  return (entry) => {
    if (entry['type'] === 'user') return { prompt: true };
    if (entry['type'] !== 'gemini') return {};
    const calls = Array.isArray(entry['toolCalls']) ? (entry['toolCalls'] as unknown[]) : [];
    const call = calls.some((c) => typeof c === 'object' && c !== null && (c as Record<string, unknown>)['name'] === tool && sameArgs((c as Record<string, unknown>)['args'], input));
    return { text: blocksText(entry['content']), call };
  };
}

export function geminiIntent(transcript: string | undefined, tool: string | undefined, input: Record<string, unknown> | undefined): Promise<string | null> {
  return intentBefore(transcript, shapeFor(tool, input));
}
