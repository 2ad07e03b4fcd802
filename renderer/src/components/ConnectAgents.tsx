// How to connect each coding agent (and take it off again), from the one list
// in shared/agents.ts: shown where a workspace has no checkpoints yet. Each
// agent has an "Install hooks" button that does what its command does, so no
// `chronoscope` on PATH is needed to start.
import { useState } from 'react';
import { AGENT_CONNECTIONS, MCP_CONNECTION, type AgentConnection } from '../../../shared/agents.js';
import type { AgentInstallResult } from '../../../shared/ipc.js';
import { errorLine } from '../client/client-error.js';
import { client } from '../state/client.js';
import { CopyButton } from './bits.js';

/** `workspace`: the open one, where Claude Code's project-level hooks go (none open: the user's settings). */
export function ConnectAgents({ workspace = null }: { workspace?: string | null }) {
  return (
    <section className="connect-agents" data-testid="connect-agents" aria-labelledby="connect-agents-heading">
      <h3 id="connect-agents-heading">Connect an agent</h3>
      <p className="muted">
        With an agent connected, a checkpoint is taken before each of its edits and commands. Press <strong>Install hooks</strong>, or run the first line in
        a terminal; the second line takes it off again.
      </p>
      <ul>
        {AGENT_CONNECTIONS.map((a) => (
          <li key={a.id} data-agent={a.id}>
            <strong>{a.name}</strong> <span className="muted">— {a.adds}</span>
            <InstallHooks agent={a} workspace={workspace} />
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

type InstallState = { status: 'idle' } | { status: 'busy' } | { status: 'done'; result: AgentInstallResult } | { status: 'error'; message: string };

function InstallHooks({ agent, workspace }: { agent: AgentConnection; workspace: string | null }) {
  const [state, setState] = useState<InstallState>({ status: 'idle' });
  const install = async (): Promise<void> => {
    setState({ status: 'busy' });
    try {
      const result = await client().invoke('agents:install', { agent: agent.id, ...(workspace === null ? {} : { workspace }) });
      setState({ status: 'done', result });
    } catch (err) {
      setState({ status: 'error', message: errorLine(err) });
    }
  };
  return (
    <span className="connect-install">
      <button type="button" className="button" disabled={state.status === 'busy'} onClick={() => void install()} aria-label={`Install ${agent.name}'s hooks`}>
        {state.status === 'busy' ? 'Installing…' : 'Install hooks'}
      </button>
      <span className="muted small-text" role="status" data-testid="connect-install-result">
        {state.status === 'done' && (
          <>
            {state.result.changed ? 'Installed in ' : 'Already installed in '}
            <code className="mono">{state.result.path ?? state.result.lines.join(' ')}</code>
          </>
        )}
        {state.status === 'error' && <span className="connect-install-error">Could not install: {state.message}</span>}
      </span>
    </span>
  );
}
