// Restore in two steps. `arm` fetches the preview; only `confirm`, with the
// preview shown, runs the restore. The confirmation stays until the person
// acts: Cancel, Escape (the UI calls disarm) or selecting another checkpoint
// disarm it — never a timer (a preview read slowly must not silently expire).
import { create } from 'zustand';
import type { RestorePreviewWithEffects } from '../../../shared/ipc.js';
import type { RestoreResult } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';
import type { Loadable } from './details.js';


export type RestoreScope = 'tree' | 'file';
/**
 * Where the restore was asked for: absent for the restore controls of the
 * checkpoint on screen; 'undo' for the result banner's undo, which confirms in
 * the banner itself (the safety checkpoint's own diff need not list the files
 * its undo restores, so no file row of it may offer the confirm); 'prompt' for a
 * prompt's "Restore to before this prompt", which confirms beside the prompt.
 */
export type RestoreOrigin = 'undo' | 'prompt';

export interface ArmedRestore {
  token: number;
  scope: RestoreScope;
  workspace: string;
  id: string;
  paths?: string[];
  origin?: RestoreOrigin;
  /** "Restore to before this prompt": the prompt's id (the main process names the restore by its words). */
  prompt?: string;
  /** When the confirm window closes (restarted when the preview arrives, so the person gets to read it). */
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
  arm(workspace: string, id: string, scope: RestoreScope, paths?: string[], origin?: RestoreOrigin, prompt?: string): Promise<void>;
  disarm(): void;
  confirm(): Promise<RestoreOutcome | null>;
  dismissOutcome(): void;
  clearError(): void;
}

let nextToken = 1;



export const useRestore = create<RestoreState>()((set, get) => ({
  armed: null,
  running: false,
  error: null,
  outcome: null,

  arm: async (workspace, id, scope, paths, origin, prompt) => {
    if (get().running) return;
    const token = nextToken++;
    set({ armed: { token, scope, workspace, id, paths, ...(origin ? { origin } : {}), ...(prompt ? { prompt } : {}), preview: { status: 'loading' } }, error: null });
    let preview: Loadable<RestorePreviewWithEffects>;
    try {
      const request = paths ? { workspace, id, paths } : { workspace, id };
      preview = { status: 'ready', value: await client().invoke('restore:preview', request) };
    } catch (err) {
      preview = { status: 'error', error: errorLine(err) };
    }
    const current = get().armed;
    if (current?.token !== token) return;
    set({ armed: { ...current, preview } });
  },

  disarm: () => {
    if (get().armed && !get().running) set({ armed: null });
  },

  confirm: async () => {
    const { armed, running } = get();
    // The second step only counts with the preview on screen.
    if (!armed || running || armed.preview.status !== 'ready') return null;
    set({ running: true, error: null });
    try {
      const request = {
        workspace: armed.workspace,
        id: armed.id,
        ...(armed.paths ? { paths: armed.paths } : {}),
        ...(armed.prompt ? { before_prompt: armed.prompt } : {}),
      };
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
