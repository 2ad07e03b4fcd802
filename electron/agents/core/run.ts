// Runs one core request from a hook process: handed to the running app when
// there is one (warm engine, the watcher knows what changed), else done here.
// This module loads nothing heavy itself: the engine only on the local path.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultStoreHome } from '../../engine/paths.js';
import type { AgentResult, CoreRequest } from './call.js';
import type { Budget } from './budget.js';
import { delegate } from './delegate-client.js';
import { agentSocketPath } from './delegate-socket.js';

export interface RunOptions {
  /** The store home; default $CHRONOSCOPE_HOME or the platform's folder. */
  home?: string;
  /** CHRONOSCOPE_NO_DELEGATE=1 (tests, the benchmark): always work in this process. */
  local?: boolean;
}

/**
 * Whether any workspace of the store has an effects ledger. Effect memory and denied batches
 * (once per prompt, once per batch of tool calls) have nothing to do without one: answered
 * without loading the engine or asking the app.
 */
export function storeHasLedgers(home: string): boolean {
  try {
    return readdirSync(join(home, 'workspaces')).some((id) => existsSync(join(home, 'workspaces', id, 'effects.jsonl')));
  } catch {
    return false;
  }
}

export async function runCore(request: CoreRequest, budget: Budget, options: RunOptions = {}): Promise<AgentResult> {
  const home = options.home ?? defaultStoreHome();
  if (request.op === 'memory' && !storeHasLedgers(home)) return { op: 'memory', effects: [] };
  if (request.op === 'denied' && !storeHasLedgers(home)) return { op: 'denied', updated: 0 };
  if (options.local !== true) {
    const outcome = await delegate(agentSocketPath(home), request);
    if (outcome.kind === 'answered') return outcome.result;
  }
  const { serveLocally } = await loadLocal();
  return serveLocally(home, request, budget);
}

type LocalModule = typeof import('./local.js');

/**
 * The engine, loaded only when the hook works alone: its bundle (`npm run build:hook`, a few files
 * instead of ~80 modules), else the modules as they are (tests running the TypeScript output).
 * Specifiers in variables: the engine stays out of any bundle of the hook's entry.
 */
async function loadLocal(): Promise<LocalModule> {
  const bundled = './local-bundle/local.js';
  const plain = './local.js';
  try {
    return (await import(bundled)) as LocalModule;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    return (await import(plain)) as LocalModule;
  }
}
