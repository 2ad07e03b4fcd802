// Work other processes (the CLI, the MCP server) hand to a running app
// (desktop or `chronoscope serve`) over the store's socket
// (agents/core/delegate-*.ts), as hooks do: there the engine is warm, and for
// a workspace it watches, the watcher knows what changed, so a snapshot need
// not scan the rest. No app, an app too old for the request, or any failure
// there: null, and the caller does the work itself.
import type { SnapshotResult } from '../../shared/model.js';
import type { SnapshotRequest } from '../agents/core/call.js';
import { delegate } from '../agents/core/delegate-client.js';
import { agentSocketPath } from '../agents/core/delegate-socket.js';

export async function snapshotInRunningApp(home: string, dir: string, options: SnapshotRequest): Promise<SnapshotResult | null> {
  if (process.env['CHRONOSCOPE_NO_DELEGATE'] === '1') return null;
  try {
    const outcome = await delegate(agentSocketPath(home), { op: 'snapshot', dir, options });
    return outcome.kind === 'answered' && outcome.result.op === 'snapshot' ? outcome.result.result : null;
  } catch {
    return null;
  }
}
