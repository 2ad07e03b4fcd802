// Work other processes (the CLI, the MCP server) hand to a running app
// (desktop or `chronoscope serve`) over the store's socket
// (agents/core/delegate-*.ts), as hooks do: there the engine is warm, and for
// a workspace it watches, the watcher knows what changed, so a snapshot need
// not scan the rest. No app, an app too old for the request, or any failure
// there: null, and the caller does the work itself.
import type { SnapshotResult } from '../../shared/model.js';
import type { SnapshotRequest } from '../agents/core/call.js';
import { delegate, type DelegateOptions } from '../agents/core/delegate-client.js';
import { agentSocketPath } from '../agents/core/delegate-socket.js';
import { testPause } from '../fs/test-pause.js';

export async function snapshotInRunningApp(home: string, dir: string, options: SnapshotRequest): Promise<SnapshotResult | null> {
  const result = await withdrawableSnapshotInRunningApp(home, dir, options, {});
  return result === 'withdrawn' ? null : result;
}

/**
 * As snapshotInRunningApp, for an asker who may withdraw the request (the CLI's Ctrl-C, see
 * cli/interrupt.ts): 'withdrawn' means the app recorded nothing for it, and nothing should be
 * done in its place.
 */
export async function withdrawableSnapshotInRunningApp(
  home: string,
  dir: string,
  options: SnapshotRequest,
  delegateOptions: DelegateOptions,
): Promise<SnapshotResult | 'withdrawn' | null> {
  if (process.env['CHRONOSCOPE_NO_DELEGATE'] === '1') return null;
  await testPause('cli:connecting');
  try {
    const outcome = await delegate(agentSocketPath(home), { op: 'snapshot', dir, options }, delegateOptions);
    if (outcome.kind === 'withdrawn') return 'withdrawn';
    return outcome.kind === 'answered' && outcome.result.op === 'snapshot' ? outcome.result.result : null;
  } catch {
    // Withdrawn and then the connection broke: the app writes nothing for a request whose asker is gone.
    return delegateOptions.withdraw?.aborted === true ? 'withdrawn' : null;
  }
}
