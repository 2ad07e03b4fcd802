// How a tool call is named in a checkpoint's reason and in the prompt ledger:
// "Edit src/a.ts", "Bash: npm test" (secrets redacted). Light: the hook
// process names calls without loading the engine.
import { redactSecrets } from '../../../shared/redact.js';
import type { ToolCall } from './call.js';

/** A call's checkpoint reason; `inside`: its files, workspace-relative. */
export function callReason(call: ToolCall, inside: readonly string[]): string {
  return call.kind === 'file' ? `${call.tool} ${inside.join(', ')}` : call.command !== null ? `${call.tool}: ${shortCommand(call.command)}` : call.tool;
}

/** A short, secret-free form of a command for a checkpoint reason. */
export function shortCommand(command: string): string {
  const first = redactSecrets(command).trim().split('\n')[0] ?? '';
  const more = command.trim().includes('\n') ? ' …' : '';
  return first.length > 80 ? `${first.slice(0, 79)}…` : `${first}${more}`;
}
