// Claude Code's hook protocol: the JSON object a hook command gets on stdin,
// and the JSON object it may print. Only the fields we use are checked;
// unknown keys pass (the protocol grows). Checked by hand rather than with
// zod on purpose: this runs in every hook process, and importing zod alone
// costs about as much as starting Node (see the README's cost table).
import { parseStdinObject } from '../core/stdin-json.js';
import { responseSucceeded } from '../core/tool-response.js';

export interface ClaudeCodePayload {
  session_id?: string;
  transcript_path?: string;
  cwd: string;
  hook_event_name: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  /** UserPromptSubmit: what the person asked. */
  prompt?: string;
  tool_response?: unknown;
  /** PostToolUseFailure: what went wrong ("Exit code 1" and the output, for Bash). */
  error?: string;
  /** PostToolBatch: every call of the batch with its response. */
  tool_calls?: unknown[];
}

const LIMITS = { session_id: 1000, transcript_path: 10_000, cwd: 10_000, hook_event_name: 200, tool_name: 500, tool_use_id: 1000, prompt: 10_000_000, error: 10_000_000 } as const;
/** Words, not names: a NUL in them is a character like any control (replaced where shown), never a reason to drop the event. */
const TEXTS: ReadonlySet<string> = new Set(['prompt', 'error']);

/** Parses stdin; throws one line saying what is wrong. */
export function parsePayload(text: string): ClaudeCodePayload {
  const o = parseStdinObject(text);
  for (const [key, max] of Object.entries(LIMITS)) {
    const v = o[key];
    const required = key === 'cwd' || key === 'hook_event_name';
    if (v === undefined && !required) continue;
    if (typeof v !== 'string' || v.length > max || (required && v.length === 0) || (!TEXTS.has(key) && v.includes('\0'))) {
      throw new Error(`unexpected hook payload: ${key} must be ${required ? 'a non-empty' : 'a'} string`);
    }
  }
  const input = o['tool_input'];
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new Error('unexpected hook payload: tool_input must be an object');
  }
  const calls = o['tool_calls'] ?? o['tool_results'];
  return { ...(o as unknown as ClaudeCodePayload), ...(Array.isArray(calls) ? { tool_calls: calls } : {}) };
}

export const FILE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;
export const HOOKED_TOOLS = [...FILE_TOOLS, 'Bash'] as const;

/** The file paths a file tool is about to change (absolute in Claude Code's payloads). */
export function toolFilePaths(toolInput: Record<string, unknown> | undefined): string[] {
  if (toolInput === undefined) return [];
  const paths: string[] = [];
  for (const key of ['file_path', 'notebook_path']) {
    const v = toolInput[key];
    if (typeof v === 'string' && v !== '') paths.push(v);
  }
  return paths;
}

export function bashCommand(toolInput: Record<string, unknown> | undefined): string | null {
  const v = toolInput?.['command'];
  return typeof v === 'string' ? v : null;
}

/**
 * Did the tool run succeed? PostToolUseFailure says no; a Bash response that was interrupted or
 * carries a non-zero exit code says no; otherwise Claude Code reports PostToolUse on success.
 */
export function toolSucceeded(payload: ClaudeCodePayload): boolean {
  return payload.hook_event_name !== 'PostToolUseFailure' && responseSucceeded(payload.tool_response);
}


/** What Claude Code puts in a refused call's result ("The user doesn't want to proceed…", "Permission to use Bash has been denied…"). */
const DENIAL = /doesn't want to proceed|does not want to proceed|tool use was rejected|permission to use .* (?:has been|was) denied|denied by (?:a )?(?:rule|policy|hook)/i;

/** A call of a PostToolBatch, as far as the ledger cares. */
export interface BatchCall {
  id: string;
  tool: string;
  /** Bash: the command (its effects are what the ledger may hold as intended). */
  command: string | null;
  /** Its result is a known refusal's text. */
  refused: boolean;
}

/** The calls of a PostToolBatch that carry a tool_use_id. */
export function batchCalls(calls: unknown[] | undefined): BatchCall[] {
  if (calls === undefined) return [];
  const out: BatchCall[] = [];
  for (const c of calls) {
    if (typeof c !== 'object' || c === null) continue;
    const o = c as Record<string, unknown>;
    const id = o['tool_use_id'];
    if (typeof id !== 'string' || id === '') continue;
    const tool = typeof o['tool_name'] === 'string' ? o['tool_name'] : '';
    const input = o['tool_input'];
    const command = tool === 'Bash' && typeof input === 'object' && input !== null ? bashCommand(input as Record<string, unknown>) : null;
    const response = o['tool_response'] ?? o['tool_result'] ?? o['error_message'] ?? o['error'];
    const refused = DENIAL.test(typeof response === 'string' ? response : JSON.stringify(response ?? ''));
    out.push({ id, tool, command, refused });
  }
  return out;
}

/** The JSON a hook prints: a PreToolUse decision, and/or context for the model's next request. */
export interface HookOutput {
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: 'ask' | 'deny';
    permissionDecisionReason?: string;
    additionalContext?: string;
  };
}
