// Which agents' conversations "Open conversation" can read, so the Why panel
// offers the button only where a reader exists (electron/prompts/conversation.ts
// has one for each) and says why where none can.

/** Agents whose transcript file the host reads on demand: the call record names the file. */
export const TRANSCRIPT_FILE_AGENTS = ['claude-code', 'codex', 'gemini', 'copilot'] as const;
export type TranscriptFileAgent = (typeof TRANSCRIPT_FILE_AGENTS)[number];
/** Those, and OpenCode: its sessions are in its database, read through its own `opencode export` by the session the call names. */
export const CONVERSATION_AGENTS = [...TRANSCRIPT_FILE_AGENTS, 'opencode'] as const;
export type ConversationAgent = (typeof CONVERSATION_AGENTS)[number];

export function conversationReadable(agent: string): agent is ConversationAgent {
  return (CONVERSATION_AGENTS as readonly string[]).includes(agent);
}

/** Whether a call names where its conversation is: the transcript file, or OpenCode's session. */
export function conversationLocated(call: { agent: string; transcript?: string; session?: string }): boolean {
  return call.agent === 'opencode' ? call.session !== undefined : call.transcript !== undefined;
}

/** Why an agent's conversation cannot be opened, one line (null: it can, where its call names where it is). */
export function conversationUnreadableReason(agent: string): string | null {
  if (conversationReadable(agent)) return null;
  if (agent === 'hermes') return "Hermes keeps its conversations in its own SQLite database (state.db), which Chronoscope does not read: open the session in Hermes";
  return 'Chronoscope cannot read this agent\'s conversation: open the session in the agent';
}
