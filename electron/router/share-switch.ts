// Settings' "Share this workspace's history" switch: share:get / share:set,
// the same enable/disable/status as `chronoscope share` (electron/share/).
import { ChronoscopeError } from '../../shared/errors.js';
import type { ShareSwitch } from '../../shared/ipc.js';
import type { Store } from '../engine/api.js';
import { cliEntryPath } from '../agents/core/node-command.js';
import { openShareContext } from '../share/context.js';
import { disableSharing, enableSharing, shareState } from '../share/enable.js';
import { hookNode } from './connect-agent.js';

function unavailable(workspace: string, reason: string): ShareSwitch {
  return { workspace, available: false, reason, enabled: false, remote: null, url: null, namespace: null };
}

export async function shareSwitch(store: Store, workspace: string, enabled?: boolean): Promise<ShareSwitch> {
  let ctx;
  try {
    ctx = await openShareContext(store, workspace);
  } catch (err) {
    if (err instanceof ChronoscopeError && err.code === 'bad_input') return unavailable(workspace, err.message);
    throw err;
  }
  try {
    if (enabled === true) await enableSharing(ctx, undefined, { node: await hookNode(), cli: cliEntryPath(), store: store.home });
    if (enabled === false) await disableSharing(ctx);
  } catch (err) {
    // No remote, or several and no upstream: the switch says why (the CLI's --remote picks one).
    if (err instanceof ChronoscopeError && err.code === 'bad_input') return unavailable(workspace, err.message);
    throw err;
  }
  const state = await shareState(ctx);
  return { workspace: state.workspace, available: true, reason: null, enabled: state.enabled, remote: state.remote, url: state.url, namespace: state.namespace };
}
