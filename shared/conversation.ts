// Which agents' conversations "Open conversation" can read, so the Why panel
// offers the button only where a reader exists (electron/prompts/conversation.ts
// has one for each) and says why where none can.

/** Agents whose transcript the host reads on demand: the call record names the file. */
export const CONVERSATION_AGENTS = ['claude-code', 'codex', 'gemini', 'copilot'] as const;
export type ConversationAgent = (typeof CONVERSATION_AGENTS)[number];

export function conversationReadable(agent: string): agent is ConversationAgent {
  return (CONVERSATION_AGENTS as readonly string[]).includes(agent);
}

/** Why an agent's conversation cannot be opened, one line (null: it can, where its call named a transcript). */
export function conversationUnreadableReason(agent: string): string | null {
  if (conversationReadable(agent)) return null;
  if (agent === 'opencode') return "OpenCode keeps its conversations in its own SQLite database, which Chronoscope does not read: open the session in OpenCode";
  return 'Chronoscope cannot read this agent\'s conversation: open the session in the agent';
}
