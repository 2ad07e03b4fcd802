// The core in the hook's own process, for when no app is running: the
// engine is loaded only here (a dynamic import), and a checkpoint is a full
// scan — without a watcher nobody knows what else changed since the last
// checkpoint, and a checkpoint named "before Edit x" must hold every file as
// it was just before the edit. The engine's private index keeps git's stat
// cache, so a full scan hashes only what changed. The process exits right
// after its answer, so the index sync a snapshot queues is only noted for the
// next process (engine/index-pending.ts), never started here, and a join of
// the store's small packs (engine/objects/pack-merge.ts), when due, runs in the snapshot.
import type { AgentResult, CoreRequest } from './call.js';
import type { Budget } from './budget.js';
import { serveCore } from './work.js';
import { deferIndexSyncs, mergePacksInline, openStore } from '../../engine/index.js';

export async function serveLocally(home: string, request: CoreRequest, budget: Budget): Promise<AgentResult> {
  deferIndexSyncs();
  mergePacksInline();
  const store = await openStore({ home });
  budget.setMs(store.settings.hook_budget_ms);
  return serveCore(request, { store, checkpoint: (workspace, options) => workspace.snapshot(options) });
}
