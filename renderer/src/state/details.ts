// checkpoints:show results, cached by checkpoint id. The slider never waits for
// them. `want` keeps at most one request in flight and, when it lands, asks
// for whatever is wanted *now* (latest wins): while the handle is dragged the
// answers follow it at the host's pace, the ones scrubbed past are never
// asked, and nothing waits for a pause. When the wanted one is here, its
// neighbours are fetched one by one (arrow keys land on warm entries).
import { create } from 'zustand';
import type { CheckpointDetail } from '../../../shared/ipc.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: string };

const MAX_CACHED = 2000;

interface DetailsState {
  workspace: string | null;
  entries: Record<string, Loadable<CheckpointDetail>>;
  reset(workspace: string | null): void;
  /** The person stopped on this id (debounced fetch); neighbours are prefetched after. */
  want(id: string, neighbours?: string[]): void;
  fetch(id: string): Promise<void>;
}

let inFlight = false;
let wanted: string | null = null;
let warm: string[] = [];

export const useDetails = create<DetailsState>()((set, get) => {
  // Errors are not retried on their own (the Retry button calls fetch).
  const needs = (id: string): boolean => get().entries[id] === undefined;
  const pump = (): void => {
    if (inFlight) return;
    const next = wanted && needs(wanted) ? wanted : warm.find(needs);
    if (!next) return;
    inFlight = true;
    void get()
      .fetch(next)
      .finally(() => {
        inFlight = false;
        pump();
      });
  };
  return {
  workspace: null,
  entries: {},

  reset: (workspace) => {
    wanted = null;
    warm = [];
    set({ workspace, entries: {} });
  },

  want: (id, neighbours = []) => {
    wanted = id;
    warm = neighbours;
    pump();
  },

  fetch: async (id) => {
    const { workspace } = get();
    if (!workspace) return;
    const existing = get().entries[id];
    if (existing && existing.status !== 'error') return;
    set((s) => ({ entries: { ...s.entries, [id]: { status: 'loading' } } }));
    let next: Loadable<CheckpointDetail>;
    try {
      next = { status: 'ready', value: await client().invoke('checkpoints:show', { workspace, id }) };
    } catch (err) {
      next = { status: 'error', error: errorLine(err) };
    }
    if (get().workspace !== workspace) return;
    set((s) => {
      const entries = { ...s.entries, [id]: next };
      const keys = Object.keys(entries);
      if (keys.length > MAX_CACHED) for (const k of keys.slice(0, keys.length - MAX_CACHED)) delete entries[k];
      return { entries };
    });
  },
  };
});
