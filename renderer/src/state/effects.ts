// The ledger of irreversible effects for the open workspace, newest first,
// kept live by effect:recorded (a record may arrive twice: intended, then happened).
import { create } from 'zustand';
import type { EffectRecord } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';

export type NotificationState = NotificationPermission | 'unsupported';

interface EffectsState {
  workspace: string | null;
  list: EffectRecord[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  notifications: NotificationState;
  /** The effects panel is open (from the header's badge, a toast or a system notification). */
  panelOpen: boolean;
  setPanelOpen(open: boolean): void;
  load(workspace: string | null): Promise<void>;
  upsert(effect: EffectRecord): boolean;
  requestNotifications(): Promise<void>;
}

function notificationState(): NotificationState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

let loadToken = 0;

export const useEffects = create<EffectsState>()((set, get) => ({
  workspace: null,
  list: [],
  status: 'idle',
  error: null,
  notifications: notificationState(),
  panelOpen: false,
  setPanelOpen: (open) => set({ panelOpen: open }),

  load: async (workspace) => {
    const token = ++loadToken;
    if (!workspace) {
      set({ workspace: null, list: [], status: 'idle', error: null });
      return;
    }
    set({ workspace, list: [], status: 'loading', error: null });
    try {
      const list = await client().invoke('effects:list', { workspace });
      if (token !== loadToken) return;
      set({ list: [...list].sort((a, b) => b.time_ms - a.time_ms), status: 'ready' });
    } catch (err) {
      if (token !== loadToken) return;
      set({ status: 'error', error: errorLine(err) });
    }
  },

  /** Returns true when the effect is new to this list (worth announcing). */
  upsert: (effect) => {
    const existing = get().list.findIndex((e) => e.id === effect.id);
    if (existing >= 0) {
      set((s) => ({ list: s.list.map((e) => (e.id === effect.id ? effect : e)) }));
      return false;
    }
    set((s) => ({ list: [effect, ...s.list].sort((a, b) => b.time_ms - a.time_ms) }));
    return true;
  },

  requestNotifications: async () => {
    if (typeof Notification === 'undefined') return;
    try {
      const permission = await Notification.requestPermission();
      set({ notifications: permission });
    } catch (err) {
      set({ error: errorLine(err) });
    }
  },
}));
