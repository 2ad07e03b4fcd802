// The checkpoint filter (path, reason text, trigger, lane, pinned) and, for a
// path, the checkpoints that changed it (checkpoints:pathHistory). The search
// text also finds the checkpoints that changed a path it names (a file name,
// part of a path, a glob): the same lookup, after a pause in the typing, while
// the reasons match at once (search-paths.ts). Kept in the
// URL hash so a reload keeps it. `matches` is the filtered list, newest first,
// or null when nothing filters: the slider dims the rest, the list leaves
// them out and the keyboard steps through them only.
import { create } from 'zustand';
import { TRIGGERS, type Checkpoint, type PathHistory } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { filterFromHash, filterToHash, isFiltering, matcher, NO_FILTER, type CheckpointFilter } from '../lib/filter-match.js';
import { searchPathGlobs } from '../lib/search-paths.js';
import { client } from './client.js';
import { useTimeline } from './timeline.js';
import { usePrompts } from './prompts.js';
import { textsIn } from '../lib/search-texts.js';
import type { Loadable } from './details.js';

/** The checkpoints that changed a path the search text names, for that text. */
export interface TextPaths {
  text: string;
  ids: ReadonlySet<string>;
}

interface FilterState {
  filter: CheckpointFilter;
  history: Loadable<PathHistory> | null;
  textPaths: TextPaths | null;
  /** The search text's path lookup is on its way. */
  searchingPaths: boolean;
  matches: Checkpoint[] | null;
  set(patch: Partial<CheckpointFilter>): void;
  clear(): void;
  /** Open one file's story: only the checkpoints that changed it. */
  followPath(path: string): void;
  /** Reload the path's history (new checkpoints may have touched it). */
  reloadHistory(): void;
  /** Look the search text's paths up again (new checkpoints may have changed them). */
  reloadTextPaths(): void;
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
let textToken = 0;
let textTimer: ReturnType<typeof setTimeout> | null = null;
/** As the path field's: each pause in the typing asks the host to walk the history. */
const TEXT_PATHS_DEBOUNCE_MS = 350;

/** A selection the filter leaves out moves to the newest checkpoint it keeps (else the list would show none selected). */
function keepSelectionInside(matches: Checkpoint[] | null): void {
  if (!matches || matches.length === 0) return;
  const { selectedId, select } = useTimeline.getState();
  if (!matches.some((c) => c.id === selectedId)) select(matches[0]!.id);
}

function compute(filter: CheckpointFilter, history: Loadable<PathHistory> | null, textPaths: TextPaths | null): Checkpoint[] | null {
  if (!isFiltering(filter)) return null;
  const { checkpoints } = useTimeline.getState();
  const prompts = usePrompts.getState().byId;
  let touching: Set<string> | null = null;
  if (filter.path) touching = new Set(history?.status === 'ready' ? history.value.entries.map((e) => e.id) : []);
  // An answer for other text (still typing) says nothing about this one.
  return checkpoints.filter(matcher(filter, touching, textPaths?.text === filter.text ? textPaths.ids : null, (c) => textsIn(checkpoints, prompts, c)));
}

export const useFilter = create<FilterState>()((set, get) => {
  const loadHistory = (): void => {
    const { filter } = get();
    const workspace = useTimeline.getState().workspace;
    const token = ++historyToken;
    if (!filter.path || !workspace) {
      set({ history: null, matches: compute(filter, null, get().textPaths) });
      return;
    }
    // Keep the previous answer on screen while the new one is on its way.
    const shown = get().history;
    if (!(shown?.status === 'ready' && shown.value.path === filter.path)) {
      set({ history: { status: 'loading' }, matches: compute(filter, { status: 'loading' }, get().textPaths) });
    }
    client()
      .invoke('checkpoints:pathHistory', { workspace, path: filter.path })
      .then(
        (value): Loadable<PathHistory> => ({ status: 'ready', value }),
        (err: unknown): Loadable<PathHistory> => ({ status: 'error', error: errorLine(err) }),
      )
      .then((history) => {
        if (token !== historyToken) return;
        set({ history, matches: compute(get().filter, history, get().textPaths) });
        keepSelectionInside(get().matches);
      });
  };

  const loadTextPaths = (delayMs: number): void => {
    if (textTimer) clearTimeout(textTimer);
    const token = ++textToken;
    const { text } = get().filter;
    const globs = searchPathGlobs(text);
    const workspace = useTimeline.getState().workspace;
    if (globs.length === 0 || !workspace) {
      if (get().searchingPaths) set({ searchingPaths: false });
      return;
    }
    set({ searchingPaths: true });
    textTimer = setTimeout(() => {
      // A glob the host refuses finds no path: the reasons still match.
      const lookups = globs.map((path) =>
        client()
          .invoke('checkpoints:pathHistory', { workspace, path })
          .then(
            (h) => h.entries.map((e) => e.id),
            () => [] as string[],
          ),
      );
      void Promise.all(lookups).then((lists) => {
        if (token !== textToken) return;
        const textPaths: TextPaths = { text, ids: new Set(lists.flat()) };
        set({ textPaths, searchingPaths: false, matches: compute(get().filter, get().history, textPaths) });
        keepSelectionInside(get().matches);
      });
    }, delayMs);
  };

  return {
    filter: initial(),
    history: null,
    textPaths: null,
    searchingPaths: false,
    matches: null,
    set: (patch) => {
      const before = get().filter;
      const filter = { ...before, ...patch };
      writeHash(filter);
      set({ filter, matches: compute(filter, get().history, get().textPaths) });
      if (filter.text !== before.text) loadTextPaths(TEXT_PATHS_DEBOUNCE_MS);
      if (filter.path !== before.path) loadHistory();
      else keepSelectionInside(get().matches);
    },
    clear: () => get().set(NO_FILTER),
    followPath: (path) => get().set({ path }),
    reloadHistory: loadHistory,
    reloadTextPaths: () => loadTextPaths(0),
  };
});

// The list changes (load, live checkpoints, pins): recompute; a path's story may have grown.
let historyTimer: ReturnType<typeof setTimeout> | null = null;
let textPathsTimer: ReturnType<typeof setTimeout> | null = null;
useTimeline.subscribe((s, prev) => {
  if (s.checkpoints === prev.checkpoints && s.workspace === prev.workspace) return;
  const { filter, history, textPaths } = useFilter.getState();
  if (!isFiltering(filter)) return;
  const grown = s.workspace !== prev.workspace || s.checkpoints.length !== prev.checkpoints.length;
  if (filter.path && grown) {
    if (historyTimer) clearTimeout(historyTimer);
    historyTimer = setTimeout(() => useFilter.getState().reloadHistory(), s.workspace !== prev.workspace ? 0 : 250);
  }
  if (filter.text && grown) {
    if (textPathsTimer) clearTimeout(textPathsTimer);
    textPathsTimer = setTimeout(() => useFilter.getState().reloadTextPaths(), s.workspace !== prev.workspace ? 0 : 250);
  }
  useFilter.setState({ matches: compute(filter, history, textPaths) });
  keepSelectionInside(useFilter.getState().matches);
});


// The prompts arrived or changed (their words are searched): recompute.
usePrompts.subscribe((s, prev) => {
  if (s.byId === prev.byId) return;
  const { filter, history, textPaths } = useFilter.getState();
  if (!isFiltering(filter)) return;
  useFilter.setState({ matches: compute(filter, history, textPaths) });
});
