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

// How each is connected, for the app's "connect an agent" page.
export interface AgentConnection {
  /** The id `chronoscope hooks install <id>` takes. */
  id: string;
  name: string;
  /** The command that connects it, run in the workspace (or with its own flags). */
  install: string;
  /** The command that removes exactly what install added. */
  uninstall: string;
  /** What installing adds, in a few words. */
  adds: string;
}

export const AGENT_CONNECTIONS: readonly AgentConnection[] = [
  {
    id: 'claude-code',
    name: 'Claude Code',
    install: 'chronoscope hooks install claude-code [--user] [--mcp]',
    uninstall: 'chronoscope hooks uninstall claude-code [--user] [--mcp]',
    adds: 'hooks in .claude/settings.json (~/.claude/settings.json with --user); --mcp adds the MCP server',
  },
  {
    id: 'hermes',
    name: 'Hermes Agent',
    install: 'chronoscope hooks install hermes [--hermes-home DIR]',
    uninstall: 'chronoscope hooks uninstall hermes [--hermes-home DIR]',
    adds: 'the plugin in $HERMES_HOME/plugins/chronoscope/ (its /rollback checkpoints show without it)',
  },
  {
    id: 'codex',
    name: 'Codex',
    install: 'chronoscope hooks install codex',
    uninstall: 'chronoscope hooks uninstall codex',
    adds: "hooks in Codex's configuration",
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    install: 'chronoscope hooks install gemini',
    uninstall: 'chronoscope hooks uninstall gemini',
    adds: "hooks in Gemini CLI's settings",
  },
  {
    id: 'copilot',
    name: 'GitHub Copilot CLI',
    install: 'chronoscope hooks install copilot [--project]',
    uninstall: 'chronoscope hooks uninstall copilot [--project]',
    adds: 'hooks in ~/.copilot/settings.json',
  },
  {
    id: 'opencode',
    name: 'OpenCode',
    install: 'chronoscope hooks install opencode [--project]',
    uninstall: 'chronoscope hooks uninstall opencode [--project]',
    adds: "a small plugin in OpenCode's plugin folder",
  },
];

/** Any agent that speaks MCP: the stdio server it starts (see the README for each client's file). */
export const MCP_CONNECTION = {
  command: 'chronoscope mcp --workspace DIR',
  adds: 'tools to list, show, diff and checkpoint, and to ask you for a restore',
  remove: "delete the chronoscope entry from the agent's MCP configuration",
} as const;
