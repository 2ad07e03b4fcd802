// The checkpoint filter (path, reason text, trigger, lane, pinned) and, for a
// path, the checkpoints that changed it (checkpoints:pathHistory). Kept in the
// URL hash so a reload keeps it. `matches` is the filtered list, newest first,
// or null when nothing filters: the slider dims the rest, the list leaves
// them out and the keyboard steps through them only.
import { create } from 'zustand';
import { TRIGGERS, type Checkpoint, type PathHistory } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { filterFromHash, filterToHash, isFiltering, matcher, NO_FILTER, type CheckpointFilter } from '../lib/filter-match.js';
import { client } from './client.js';
import { useTimeline } from './timeline.js';
import type { Loadable } from './details.js';

interface FilterState {
  filter: CheckpointFilter;
  history: Loadable<PathHistory> | null;
  matches: Checkpoint[] | null;
  set(patch: Partial<CheckpointFilter>): void;
  clear(): void;
  /** Open one file's story: only the checkpoints that changed it. */
  followPath(path: string): void;
  /** Reload the path's history (new checkpoints may have touched it). */
  reloadHistory(): void;
}

function initial(): CheckpointFilter {
  try {
    return filterFromHash(window.location.hash, TRIGGERS);
  } catch {
    return NO_FILTER;
  }
}

function writeHash(f: CheckpointFilter): void {
  try {
    const url = `${window.location.pathname}${window.location.search}${filterToHash(f)}`;
    window.history.replaceState(window.history.state, '', url);
  } catch {
    // no URL to keep it in (a file:// page in some hosts): the filter lives for the session
  }
}

let historyToken = 0;

/** A selection the filter leaves out moves to the newest checkpoint it keeps (else the list would show none selected). */
function keepSelectionInside(matches: Checkpoint[] | null): void {
  if (!matches || matches.length === 0) return;
  const { selectedId, select } = useTimeline.getState();
  if (!matches.some((c) => c.id === selectedId)) select(matches[0]!.id);
}

function compute(filter: CheckpointFilter, history: Loadable<PathHistory> | null): Checkpoint[] | null {
  if (!isFiltering(filter)) return null;
  const { checkpoints } = useTimeline.getState();
  let touching: Set<string> | null = null;
  if (filter.path) touching = new Set(history?.status === 'ready' ? history.value.entries.map((e) => e.id) : []);
  return checkpoints.filter(matcher(filter, touching));
}

export const useFilter = create<FilterState>()((set, get) => {
  const loadHistory = (): void => {
    const { filter } = get();
    const workspace = useTimeline.getState().workspace;
    const token = ++historyToken;
    if (!filter.path || !workspace) {
      set({ history: null, matches: compute(filter, null) });
      return;
    }
    // Keep the previous answer on screen while the new one is on its way.
    const shown = get().history;
    if (!(shown?.status === 'ready' && shown.value.path === filter.path)) {
      set({ history: { status: 'loading' }, matches: compute(filter, { status: 'loading' }) });
    }
    client()
      .invoke('checkpoints:pathHistory', { workspace, path: filter.path })
      .then(
        (value): Loadable<PathHistory> => ({ status: 'ready', value }),
        (err: unknown): Loadable<PathHistory> => ({ status: 'error', error: errorLine(err) }),
      )
      .then((history) => {
        if (token !== historyToken) return;
        set({ history, matches: compute(get().filter, history) });
        keepSelectionInside(get().matches);
      });
  };

  return {
    filter: initial(),
    history: null,
    matches: null,
    set: (patch) => {
      const before = get().filter;
      const filter = { ...before, ...patch };
      writeHash(filter);
      set({ filter, matches: compute(filter, get().history) });
      if (filter.path !== before.path) loadHistory();
      else keepSelectionInside(get().matches);
    },
    clear: () => get().set(NO_FILTER),
    followPath: (path) => get().set({ path }),
    reloadHistory: loadHistory,
  };
});

// The list changes (load, live checkpoints, pins): recompute; a path's story may have grown.
let historyTimer: ReturnType<typeof setTimeout> | null = null;
useTimeline.subscribe((s, prev) => {
  if (s.checkpoints === prev.checkpoints && s.workspace === prev.workspace) return;
  const { filter, history } = useFilter.getState();
  if (!isFiltering(filter)) return;
  if (filter.path && (s.workspace !== prev.workspace || s.checkpoints.length !== prev.checkpoints.length)) {
    if (historyTimer) clearTimeout(historyTimer);
    historyTimer = setTimeout(() => useFilter.getState().reloadHistory(), s.workspace !== prev.workspace ? 0 : 250);
  }
  useFilter.setState({ matches: compute(filter, history) });
  keepSelectionInside(useFilter.getState().matches);
});

