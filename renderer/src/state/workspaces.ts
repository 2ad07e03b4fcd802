// The workspaces the person added, which one is open, and adding/removing them.
import { create } from 'zustand';
import type { WorkspaceEntry } from '../../../shared/ipc.js';
import type { WorkspaceState } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';

const CURRENT_KEY = 'chronoscope.workspace';

interface WorkspacesState {
  list: WorkspaceEntry[];
  current: string | null;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  adding: boolean;
  addError: string | null;
  /** Whether the host can show a native folder dialog (Electron) or needs a typed path. */
  canPick: boolean;
  load(): Promise<void>;
  switchTo(path: string): void;
  add(path: string): Promise<boolean>;
  pickAndAdd(): Promise<void>;
  remove(path: string): Promise<void>;
  setPaused(path: string, paused: boolean): Promise<void>;
  setState(path: string, state: WorkspaceState): void;
}

function remembered(): string | null {
  const fromUrl = new URLSearchParams(window.location.search).get('workspace');
  if (fromUrl) return fromUrl;
  try {
    return localStorage.getItem(CURRENT_KEY);
  } catch {
    return null;
  }
}

function remember(path: string | null): void {
  try {
    if (path) localStorage.setItem(CURRENT_KEY, path);
    else localStorage.removeItem(CURRENT_KEY);
  } catch {
    // not fatal: the choice lasts this session
  }
}

export const useWorkspaces = create<WorkspacesState>()((set, get) => ({
  list: [],
  current: null,
  status: 'loading',
  error: null,
  adding: false,
  addError: null,
  canPick: false,

  load: async () => {
    try {
      const list = await client().invoke('workspaces:list', {});
      const { current } = get();
      const wanted = current ?? remembered();
      const next = list.find((w) => w.path === wanted)?.path ?? list[0]?.path ?? null;
      set({ list, current: next, status: 'ready', error: null });
      remember(next);
    } catch (err) {
      set({ status: 'error', error: errorLine(err) });
    }
  },

  switchTo: (path) => {
    if (get().current === path) return;
    set({ current: path });
    remember(path);
  },

  add: async (path) => {
    const trimmed = path.trim();
    if (!trimmed) {
      set({ addError: 'Type the absolute path of a folder to add.' });
      return false;
    }
    set({ adding: true, addError: null });
    try {
      const entry = await client().invoke('workspaces:add', { workspace: trimmed });
      set((s) => ({
        list: [...s.list.filter((w) => w.path !== entry.path), entry],
        current: entry.path,
        adding: false,
      }));
      remember(entry.path);
      return true;
    } catch (err) {
      set({ adding: false, addError: errorLine(err) });
      return false;
    }
  },

  pickAndAdd: async () => {
    set({ addError: null });
    try {
      const picked = await client().invoke('workspaces:pick', {});
      if (!picked.supported) {
        set({ canPick: false });
        return;
      }
      if (picked.path) await get().add(picked.path);
    } catch (err) {
      set({ addError: errorLine(err) });
    }
  },

  remove: async (path) => {
    try {
      await client().invoke('workspaces:remove', { workspace: path });
      set((s) => {
        const list = s.list.filter((w) => w.path !== path);
        const current = s.current === path ? (list[0]?.path ?? null) : s.current;
        remember(current);
        return { list, current };
      });
    } catch (err) {
      set({ addError: errorLine(err) });
    }
  },

  setPaused: async (path, paused) => {
    try {
      const entry = await client().invoke('workspaces:setPaused', { workspace: path, paused });
      set((s) => ({ list: s.list.map((w) => (w.path === path ? entry : w)) }));
    } catch (err) {
      set({ addError: errorLine(err) });
    }
  },

  setState: (path, state) => {
    // A path we do not list was added elsewhere (the app's menu or tray, another host): re-read the list.
    if (!get().list.some((w) => w.path === path)) {
      void get().load();
      return;
    }
    set((s) => ({ list: s.list.map((w) => (w.path === path ? { ...w, state } : w)) }));
  },
}));
