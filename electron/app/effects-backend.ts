// The one place the app service meets electron/effects. Until the ledger and
// the push monitor exist this is an empty backend (no effects); hooking them up
// is this file only.
import path from 'node:path';
import type { EffectsBackend } from './effects-feed.js';

export const noEffects: EffectsBackend = {
  openLedger: () => ({ list: async () => [] }),
  ledgerFile: () => null,
  pushReflogDir: () => null,
  scanPushes: async () => [],
  pushStatePath: (home, id) => path.join(home, 'effects', id, 'push-monitor.json'),
};

export async function loadEffectsBackend(): Promise<EffectsBackend> {
  return noEffects;
}
