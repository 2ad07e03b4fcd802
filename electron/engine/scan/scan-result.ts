// What a scan is asked (ScanOptions) and what it answers (ScanResult), apart
// from scan.ts so that the path-limited scans (scan-paths.ts, tree-update.ts)
// share the types without importing the full scan.
import type { CheckpointStats, SkippedFile } from '../../../shared/model.js';
import type { IndexEntry } from '../index/index-trees.js';
import type { CountedStats } from '../git/stats.js';

export interface ScanOptions {
  paths?: string[];
  maxFileBytes: number;
  /** Also drop tracked files that are now ignored (after .gitignore or settings changed). */
  recheckIgnored?: boolean;
  /** `--exclude=` arguments that outrank the workspace's .gitignore files (credentialExcludeArgs). */
  excludeArgs?: string[];
  /** The index's tree as of now, if the caller knows it (see head.ts). */
  knownTree?: string;
  /** Also count changes from this tree to the result. */
  statsFrom?: string;
  /** Told how many of the files to hash are done, while update-index hashes them. */
  onProgress?: (hashed: number, total: number) => void;
  /**
   * Given what changed (from the stat cache: tracked paths modified or gone,
   * and new paths git's ignore rules let in; those ls-files named are
   * `recordable`), may build the tree without the
   * index (tree-update.ts); null to let git do it. Asked only when the index
   * holds `knownTree` and nothing needs git's own rules (ignore rules that
   * changed, nested repositories).
   */
  withoutIndex?: (changed: string[], recordable: ReadonlySet<string>) => Promise<ScanResult | null>;
  /**
   * The index is the tree before the latest checkpoint, which changed only
   * these paths (built without the index, its sync still queued): what
   * changed since the latest checkpoint is among them and what ls-files finds.
   */
  pendingPaths?: readonly string[];
  /** Those of pendingPaths the index or the latest tree has (recordable as tracked files). */
  pendingRecordable?: readonly string[];
  /** Report the object folders git wrote in (ScanResult.objectDirs), for the snapshot to fsync. */
  trackObjectDirs?: boolean;
  /** Name untracked special files too (git never lists them): the walk's cache file (special-files.ts). */
  specialsCache?: string;
  /**
   * Walk for special files only when the scan finds something changed: a scan
   * that changes nothing records no checkpoint, so there is nothing to name
   * them in (the walk is a third of a no-change scan on 10,000 files).
   */
  specialsOnlyIfChanged?: boolean;
}

export interface ScanResult {
  tree: string;
  skipped: SkippedFile[];
  /** Untracked folders that are git repositories of their own. */
  nestedRepos: string[];
  /** Paths the scan found changed (before filtering). */
  changed: number;
  /** Paths given to update-index (git hashed them, or reused an object it already had). */
  hashed?: string[];
  /** With statsFrom, when the index changed. */
  stats?: CountedStats;
  /** With trackObjectDirs: the store's object folders git wrote in (their entries still need an fsync). */
  objectDirs?: string[];
  /** The index's entries, when the scan read them all anyway (a first snapshot's trees). */
  indexEntries?: IndexEntry[];
}
