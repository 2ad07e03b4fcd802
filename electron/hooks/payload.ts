// Claude Code's hook protocol: the JSON object a hook command gets on stdin,
// and the optional JSON object it may print. Only the fields we use are
// checked; unknown keys pass (the protocol grows).
import { z } from 'zod';

export const ClaudeCodePayloadSchema = z.looseObject({
  session_id: z.string().max(1000).optional(),
  transcript_path: z.string().optional(),
  cwd: z.string().min(1).max(10_000),
  hook_event_name: z.string().min(1).max(200),
  tool_name: z.string().max(500).optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
  tool_use_id: z.string().max(1000).optional(),
  tool_response: z.unknown().optional(),
});
export type ClaudeCodePayload = z.infer<typeof ClaudeCodePayloadSchema>;

/** What a PreToolUse hook may answer. `ask` shows the person a prompt with the reason. */
export interface PreToolUseOutput {
  hookSpecificOutput: {
    hookEventName: 'PreToolUse';
    permissionDecision: 'ask';
    permissionDecisionReason: string;
  };
}

export const FILE_TOOLS = ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;
export const HOOKED_TOOLS = [...FILE_TOOLS, 'Bash'] as const;
/** The matcher our settings entries use. */
export const HOOK_MATCHER = HOOKED_TOOLS.join('|');

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
  if (payload.hook_event_name === 'PostToolUseFailure') return false;
  const r = payload.tool_response;
  if (typeof r !== 'object' || r === null) return true;
  const o = r as Record<string, unknown>;
  if (o['interrupted'] === true) return false;
  if (o['success'] === false) return false;
  for (const key of ['exit_code', 'exitCode', 'returncode', 'returnCode', 'code']) {
    const v = o[key];
    if (typeof v === 'number' && v !== 0) return false;
  }
  return true;
}
