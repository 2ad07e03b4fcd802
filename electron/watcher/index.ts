export { WorkspaceWatcher, describeBatch, type WorkspaceWatcherOptions } from './workspace-watcher.js';
export { ChangeDebouncer, realClock, type Batch, type Clock, type DebounceTiming } from './debounce.js';
export { WATCH_IGNORED_DIRS, watcherIgnoreGlobs, isIgnoredRelative, toRelative } from './ignore.js';
