// The agents Chronoscope connects, by the id in a checkpoint's or effect's
// `agent` field (`chronoscope hook <id>`), and the name lanes, filters and the
// file history show for it. A few aliases other tools write are named too.
export const AGENT_NAMES: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code',
  claude: 'Claude Code',
  hermes: 'Hermes',
  codex: 'Codex',
  gemini: 'Gemini CLI',
  copilot: 'Copilot CLI',
  opencode: 'OpenCode',
  aider: 'Aider',
};

/** The name to show for an agent id; an unknown id shows as itself. */
export function agentName(agent: string): string {
  return AGENT_NAMES[agent.toLowerCase()] ?? agent;
}
