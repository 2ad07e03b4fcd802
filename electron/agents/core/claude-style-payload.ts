// The stdin payload shape several agents copied from Claude Code (Gemini CLI,
// Copilot CLI's PascalCase events): cwd and hook_event_name, optional
// session_id and tool_name, a tool_input object, a prompt. Checked by hand (no
// zod on the hot path); a payload that is wrong throws one line.
import { createHash } from 'node:crypto';
import { parseStdinObject } from './stdin-json.js';

export function parseClaudeStylePayload(text: string): Record<string, unknown> {
  const o = parseStdinObject(text);
  for (const key of ['cwd', 'hook_event_name']) {
    const v = o[key];
    if (typeof v !== 'string' || v === '' || v.length > 10_000 || v.includes('\0')) throw new Error(`unexpected hook payload: ${key} must be a non-empty string`);
  }
  for (const key of ['session_id', 'tool_name']) {
    if (o[key] !== undefined && typeof o[key] !== 'string') throw new Error(`unexpected hook payload: ${key} must be a string`);
  }
  if (typeof o['prompt'] !== 'string') delete o['prompt'];
  const input = o['tool_input'];
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) throw new Error('unexpected hook payload: tool_input must be an object');
  return o;
}

/** A non-empty string field of a tool's input, else null. */
export function inputString(input: Record<string, unknown> | undefined, key: string): string | null {
  const v = input?.[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * An id for a call of an agent that gives none: its before- and after-events are matched by what
 * they share (session, tool, input). The same call repeated in a session shares its id; its
 * records are settled again with the same outcome.
 */
export function contentCallId(agent: string, session: string | undefined, tool: string | undefined, input: unknown): string {
  const digest = createHash('sha256').update(`${session ?? ''}\0${tool ?? ''}\0${JSON.stringify(input ?? {})}`).digest('hex');
  return `${agent}-${digest.slice(0, 24)}`;
}
