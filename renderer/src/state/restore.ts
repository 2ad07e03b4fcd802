// Restore in two steps. `arm` fetches the preview and starts a short window;
// only `confirm` inside that window, with the preview shown, runs the restore.
// Timeout, Escape (the UI calls disarm) or selecting another checkpoint disarm.
import { create } from 'zustand';
import type { RestorePreviewWithEffects } from '../../../shared/ipc.js';
import type { RestoreResult } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';
import type { Loadable } from './details.js';

export const CONFIRM_WINDOW_MS = 6000;

export type RestoreScope = 'tree' | 'file';

export interface ArmedRestore {
  token: number;
  scope: RestoreScope;
  workspace: string;
  id: string;
  paths?: string[];
  /** When the confirm window closes (restarted when the preview arrives, so the person gets to read it). */
  deadline: number;
  preview: Loadable<RestorePreviewWithEffects>;
}

export interface RestoreOutcome {
  workspace: string;
  scope: RestoreScope;
  paths?: string[];
  result: RestoreResult;
}

interface RestoreState {
  armed: ArmedRestore | null;
  running: boolean;
  error: string | null;
  outcome: RestoreOutcome | null;
  arm(workspace: string, id: string, scope: RestoreScope, paths?: string[]): Promise<void>;
  disarm(): void;
  confirm(): Promise<RestoreOutcome | null>;
  dismissOutcome(): void;
  clearError(): void;
}

let nextToken = 1;
let timer: ReturnType<typeof setTimeout> | null = null;

function schedule(ms: number, token: number): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    const { armed, running } = useRestore.getState();
    if (armed?.token === token && !running) useRestore.getState().disarm();
  }, ms);
}

export const useRestore = create<RestoreState>()((set, get) => ({
  armed: null,
  running: false,
  error: null,
  outcome: null,

  arm: async (workspace, id, scope, paths) => {
    if (get().running) return;
    const token = nextToken++;
    const deadline = Date.now() + CONFIRM_WINDOW_MS;
    set({ armed: { token, scope, workspace, id, paths, deadline, preview: { status: 'loading' } }, error: null });
    schedule(CONFIRM_WINDOW_MS, token);
    let preview: Loadable<RestorePreviewWithEffects>;
    try {
      const request = paths ? { workspace, id, paths } : { workspace, id };
      preview = { status: 'ready', value: await client().invoke('restore:preview', request) };
    } catch (err) {
      preview = { status: 'error', error: errorLine(err) };
    }
    const current = get().armed;
    if (current?.token !== token) return;
    const fresh = Date.now() + CONFIRM_WINDOW_MS;
    set({ armed: { ...current, preview, deadline: fresh } });
    schedule(CONFIRM_WINDOW_MS, token);
  },

  disarm: () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (get().armed && !get().running) set({ armed: null });
  },

  confirm: async () => {
    const { armed, running } = get();
    // The second step only counts with the preview on screen and inside the window.
    if (!armed || running || armed.preview.status !== 'ready' || Date.now() > armed.deadline) return null;
    if (timer) clearTimeout(timer);
    set({ running: true, error: null });
    try {
      const request = armed.paths ? { workspace: armed.workspace, id: armed.id, paths: armed.paths } : { workspace: armed.workspace, id: armed.id };
      const result = await client().invoke('restore:run', request);
      const outcome: RestoreOutcome = { workspace: armed.workspace, scope: armed.scope, paths: armed.paths, result };
      set({ running: false, armed: null, outcome });
      return outcome;
    } catch (err) {
      set({ running: false, armed: null, error: errorLine(err) });
      return null;
    }
  },

  dismissOutcome: () => set({ outcome: null }),
  clearError: () => set({ error: null }),
}));
