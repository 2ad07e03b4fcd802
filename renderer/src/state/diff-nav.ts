// Next/previous change in the diff on screen, for the buttons and the keys
// (n / p, F7 / Shift+F7): the open diff editor registers how to move; the
// count of changes is shown beside the buttons.
import { create } from 'zustand';

type Move = (direction: 'next' | 'previous') => void;

interface DiffNavState {
  count: number;
  move: Move | null;
  setCount(count: number): void;
  /** Returns the unregister function. */
  register(move: Move): () => void;
  go(direction: 'next' | 'previous'): void;
}

export const useDiffNav = create<DiffNavState>()((set, get) => ({
  count: 0,
  move: null,
  setCount: (count) => {
    if (get().count !== count) set({ count });
  },
  register: (move) => {
    set({ move });
    return () => {
      if (get().move === move) set({ move: null, count: 0 });
    };
  },
  go: (direction) => get().move?.(direction),
}));
