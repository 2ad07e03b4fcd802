// What a caller may tell a snapshot in flight: a request withdrawn before its
// checkpoint is written (the person pressed Ctrl-C in the CLI that asked the
// service for it) records nothing, and tests can hold it at a named stage.
import { ChronoscopeError } from '../../shared/errors.js';

export type SnapshotStage = 'scanning' | 'writing';

export interface SnapshotControl {
  /** The snapshot reached a stage (tests hold it here; see test-pause.ts). */
  stage?(name: SnapshotStage): Promise<void>;
  /** True once the request was withdrawn: stop early, record nothing. */
  withdrawn(): boolean;
  /**
   * Asked once, with nothing awaited between it and the ref being written: false
   * means withdrawn (nothing is recorded); true means too late to withdraw.
   */
  commit(): boolean;
}

export function withdrawnError(): ChronoscopeError {
  return new ChronoscopeError('conflict', 'withdrawn: no checkpoint taken');
}
