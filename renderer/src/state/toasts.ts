// Short-lived notices in the corner: snapshot results, copied commands and,
// above all, new irreversible effects.
import { create } from 'zustand';

export interface Toast {
  id: number;
  tone: 'info' | 'success' | 'warning';
  title: string;
  body?: string;
  /** A command the person may want to copy (an effect's compensation). */
  command?: string | null;
  /** A new irreversible effect: the toast offers to open the effects panel. */
  showsEffects?: boolean;
  /** A button beside the text (a prune's Undo); the toast goes when it is pressed. */
  action?: { label: string; run: () => Promise<void> | void };
}

interface ToastState {
  toasts: Toast[];
  push(toast: Omit<Toast, 'id'>, ttlMs?: number): number;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set, get) => ({
  toasts: [],
  push: (toast, ttlMs = 6000) => {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts, { ...toast, id }].slice(-5) }));
    if (ttlMs > 0) setTimeout(() => get().dismiss(id), ttlMs);
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));
