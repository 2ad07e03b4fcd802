// The engine's entry point: open the store, then work with workspaces.
export { openStore, checkWorkspaceDir, resolveStoreHome, workspaceId } from './store.js';
export { defaultStoreHome } from './layout/paths.js';
export type { Store, StoreOptions, Workspace, OpenStore } from './api.js';
export { DEFAULT_EXCLUDES, CREDENTIAL_EXCLUDES } from './scan/excludes.js';
export { VIEWER_MAX_BYTES } from '../../shared/model.js';
export { deferIndexSyncs, settleAllIndexes } from './index-sync.js';
export { mergePacksInline, settlePackMerges } from './objects/pack-merge.js';
export { progressMessage } from './progress.js';
export type { SnapshotProgress } from './api.js';
export type { SnapshotControl, SnapshotStage } from './snapshot-control.js';
