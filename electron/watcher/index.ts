export { WorkspaceWatcher, type WorkspaceWatcherOptions } from './workspace-watcher.js';
export { ChangeDebouncer, realClock, type Batch, type Clock, type DebounceTiming } from './debounce.js';
export { DEFAULT_WATCH_RULES, rulesFromExcludes, watcherIgnoreList, isIgnoredRelative, toRelative, type WatchIgnoreRules } from './ignore.js';
