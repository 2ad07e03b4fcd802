// checkpoints:show results, cached by checkpoint id. The slider never waits for
// them: `want` debounces, so scrubbing through many checkpoints asks the host
// only about where the person stops, and answers for checkpoints already
// scrubbed past are kept (a checkpoint never changes) but not waited for.
import { create } from 'zustand';
import type { CheckpointDetail } from '../../../shared/ipc.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';

export type Loadable<T> = { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; error: string };

const DEBOUNCE_MS = 90;
const MAX_CACHED = 2000;

interface DetailsState {
  workspace: string | null;
  entries: Record<string, Loadable<CheckpointDetail>>;
  reset(workspace: string | null): void;
  /** The person stopped on this id (debounced fetch); neighbours are prefetched after. */
  want(id: string, neighbours?: string[]): void;
  fetch(id: string): Promise<void>;
}

let timer: ReturnType<typeof setTimeout> | null = null;

export const useDetails = create<DetailsState>()((set, get) => ({
  workspace: null,
  entries: {},

  reset: (workspace) => {
    if (timer) clearTimeout(timer);
    set({ workspace, entries: {} });
  },

  want: (id, neighbours = []) => {
    if (timer) clearTimeout(timer);
    const existing = get().entries[id];
    const run = () => {
      void get()
        .fetch(id)
        .then(() => {
          for (const n of neighbours) void get().fetch(n);
        });
    };
    if (existing && existing.status !== 'error') {
      // Already here or on its way: only the neighbours are left to warm.
      timer = setTimeout(() => neighbours.forEach((n) => void get().fetch(n)), DEBOUNCE_MS * 2);
      return;
    }
    timer = setTimeout(run, DEBOUNCE_MS);
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
}));
