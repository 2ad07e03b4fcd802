// The one place the app service meets electron/effects: the ledger of a
// workspace (in the store) and the push monitor reading its repository's reflog.
import { EffectLedger } from '../effects/ledger.js';
import { pushReflogDir, pushStatePath, scanPushes } from '../effects/push-monitor.js';
import type { EffectsBackend, WorkspaceEffects } from './effects-feed.js';

export const ledgerEffects: EffectsBackend = {
  open(storeHome: string, workspaceId: string, workspaceRoot: string): WorkspaceEffects {
    const ledger = new EffectLedger(storeHome, workspaceId);
    const statePath = pushStatePath(ledger);
    return {
      ledgerFile: ledger.path,
      list: (options) => ledger.list(options),
      reflogDir: () => pushReflogDir(workspaceRoot),
      scanPushes: (options) => scanPushes(workspaceRoot, ledger, statePath, options),
    };
  },
};
