// Codex's rollout (its transcript_path, under ~/.codex/sessions) as
// core/transcript-intent.ts reads it: `response_item` lines carry the model's
// messages (role assistant, output_text blocks) and its calls (function_call
// and custom_tool_call, with call_id); a user message that is not Codex's own
// context (<environment_context>, instructions) is the person's prompt.
import { blocksText, intentBefore, type TranscriptShape } from '../core/transcript-intent.js';

function shapeFor(callId: string | undefined): TranscriptShape {
  return (entry) => {
    if (entry['type'] !== 'response_item') return {};
    const p = entry['payload'] as Record<string, unknown> | undefined;
    if (p === undefined || p === null) return {};
    if (p['type'] === 'message') {
      const text = blocksText(p['content'], ['output_text', 'input_text', 'text']);
      if (p['role'] === 'assistant') return { text };
      if (p['role'] === 'user') return { prompt: text !== null && !/^\s*<(environment_context|user_instructions|turn_aborted)/.test(text) && !text.startsWith('# AGENTS.md') };
      return {};
    }
    return { call: callId !== undefined && (p['call_id'] === callId || p['id'] === callId) };
  };
}

export function codexIntent(transcript: string | undefined, callId: string | undefined): Promise<string | null> {
  return intentBefore(transcript, shapeFor(callId));
}
