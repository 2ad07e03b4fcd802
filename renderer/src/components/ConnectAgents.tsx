// How to connect each coding agent (and take it off again), from the one list
// in shared/agents.ts: shown where a workspace has no checkpoints yet.
import { AGENT_CONNECTIONS, MCP_CONNECTION } from '../../../shared/agents.js';
import { CopyButton } from './bits.js';

export function ConnectAgents() {
  return (
    <section className="connect-agents" data-testid="connect-agents" aria-labelledby="connect-agents-heading">
      <h3 id="connect-agents-heading">Connect an agent</h3>
      <p className="muted">
        With an agent connected, a checkpoint is taken before each of its edits and commands. Run one of these in a terminal; the second line takes it off
        again.
      </p>
      <ul>
        {AGENT_CONNECTIONS.map((a) => (
          <li key={a.id} data-agent={a.id}>
            <strong>{a.name}</strong> <span className="muted">— {a.adds}</span>
            <CommandLine command={a.install} label={`Copy the command that connects ${a.name}`} />
            <CommandLine command={a.uninstall} label={`Copy the command that removes ${a.name}'s hooks`} remove />
          </li>
        ))}
        <li data-agent="mcp">
          <strong>Any MCP client</strong> <span className="muted">— {MCP_CONNECTION.adds}</span>
          <CommandLine command={MCP_CONNECTION.command} label="Copy the MCP server command" />
          <span className="muted small-text">To remove: {MCP_CONNECTION.remove}.</span>
        </li>
        <li data-agent="other">
          <strong>Any other agent</strong> (Aider, Cursor&apos;s CLI, …) <span className="muted">— nothing to connect: while this app runs, its watcher checkpoints their changes as they land, and pushes are read from the reflog.</span>
        </li>
      </ul>
    </section>
  );
}

function CommandLine({ command, label, remove }: { command: string; label: string; remove?: boolean }) {
  return (
    <span className="connect-command">
      <span className="connect-verb">{remove ? 'remove' : 'connect'}</span>
      <code className="mono">{command}</code>
      <CopyButton text={command} label={label} />
    </span>
  );
}
