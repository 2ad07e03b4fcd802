// Runs one core request from a hook process: handed to the running app when
// there is one (warm engine, the watcher knows what changed), else done here.
// This module loads nothing heavy itself: the engine only on the local path.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { defaultStoreHome } from '../../engine/layout/paths.js';
import { afterHasWork, type AgentResult, type CoreRequest } from './call.js';
import type { Budget } from './budget.js';
import { delegate } from './delegate-client.js';
import { agentSocketPath } from './delegate-socket.js';
import { autoStartWanted, startDaemonDetached } from './autostart.js';

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
  // A turn's end in a folder no recorded workspace holds: nothing to do, and no store is opened (or made).
  if (request.op === 'turn_end' && !(await recordedAround(home, request.cwd))) return { op: 'turn_end', workspace: request.cwd, checkpoint: null };
  // Most calls succeed with no effect to record: only a running service has work then (the
  // checkpoint of what the call changed, cheap with its watcher). Alone there is nothing to do, so
  // neither the engine is loaded nor the store opened (alone that was ~40 ms of every Bash call).
  // The workspace is named as the call's folder: with no hint to give, nobody reads it.
  // A file call is never quiet: alone, its own files are checkpointed as it ends (work.ts), so the next
  // checkpoint's words are exact. A quiet call is still recorded in the prompt ledger (a file append).
  const quietAfter = request.op === 'after' && !afterHasWork(request) && request.call.kind !== 'file';
  const nothingDone: AgentResult | null = request.op === 'after' && quietAfter ? { op: 'after', workspace: request.call.cwd, before: null } : null;
  const alone = async (): Promise<AgentResult | null> => {
    if (request.op !== 'after' || nothingDone === null) return null;
    // Loaded only here: the hook's other paths never need it.
    const { recordCallAlone } = await import('./call-record.js');
    await recordCallAlone(home, request.call, request.outcome, request.details).catch(() => undefined);
    return nothingDone;
  };
  if (nothingDone !== null && options.local === true) return (await alone()) ?? nothingDone;
  // A folder that is not there names no workspace: refused before anything (the store included) is created.
  const folder = folderOf(request);
  if (!existsSync(folder)) {
    if (nothingDone !== null) return nothingDone;
    throw new Error(`the call's folder ${folder} does not exist`);
  }
  if (options.local !== true) {
    try {
      const outcome = await delegate(agentSocketPath(home), request);
      if (outcome.kind === 'answered') return outcome.result;
    } catch {
      // The service broke off mid-request (killed, stopping): this call works alone, within its budget.
      // A checkpoint the service finished is kept; a second one of the same state is skipped as unchanged.
    }
    if (nothingDone !== null) return (await alone()) ?? nothingDone;
  }
  // Nobody served this call: it works alone, and a PreToolUse starts a daemon for the next ones.
  const startDaemon = options.local !== true && request.op === 'before';
  const { serveLocally } = await loadLocal();
  const result = await serveLocally(home, request, budget);
  // After the work, not before: the daemon's start never competes with the call in hand.
  if (startDaemon && autoStartWanted(home)) startDaemonDetached(home, folder);
  return result;
}

/** Whether a recorded workspace holds `cwd`: read from the store's meta files, the engine not loaded. */
async function recordedAround(home: string, cwd: string): Promise<boolean> {
  const { recordedWorkspaceAround } = await import('./workspace-for.js');
  return (await recordedWorkspaceAround(home, cwd)) !== null;
}

function folderOf(request: CoreRequest): string {
  switch (request.op) {
    case 'before':
    case 'after':
      return request.call.cwd;
    case 'denied':
    case 'memory':
    case 'prompt':
    case 'turn_end':
      return request.cwd;
    case 'snapshot':
      return request.dir;
  }
}

type LocalModule = typeof import('./local.js');

/**
 * The engine, loaded only when the hook works alone: its CommonJS bundle (`npm run build:hook`, a
 * few files instead of ~80 modules, and no ES module loader to start), else the modules as they are
 * (tests running the TypeScript output). The plain import's specifier is in a variable: the engine
 * stays out of the hook's own bundle.
 */
async function loadLocal(): Promise<LocalModule> {
  const plain = './local.js';
  try {
    return createRequire(import.meta.url)('./local-bundle/local.cjs') as LocalModule;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((err as Error).message).includes('local.cjs')) throw err;
    return (await import(plain)) as LocalModule;
  }
}
