// The host's latest `progress` line for the open workspace ("scanning 1,200
// files…"). It is shown briefly in the header and then cleared, so a stale
// message never reads as the current state.
import { create } from 'zustand';

const SHOW_MS = 4000;

interface ProgressState {
  /** Changes with every message so the view can restart its fade. */
  seq: number;
  message: string | null;
  show(message: string): void;
  clear(): void;
}

let timer: ReturnType<typeof setTimeout> | null = null;

export const useProgress = create<ProgressState>()((set, get) => ({
  seq: 0,
  message: null,
  show: (message) => {
    if (timer) clearTimeout(timer);
    set({ seq: get().seq + 1, message });
    timer = setTimeout(() => get().clear(), SHOW_MS);
  },
  clear: () => {
    if (timer) clearTimeout(timer);
    timer = null;
    set({ message: null });
  },
}));
