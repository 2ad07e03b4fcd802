// What the last check of the current workspace found, for the damage banner:
// the damaged checkpoints' lost files, a "Check again" that runs the check
// now, and a dismissal that holds until a check finds something new.
import { create } from 'zustand';
import type { WorkspaceHealth } from '../../../shared/model.js';
import { client } from './client.js';
import { useTimeline } from './timeline.js';
import { errorLine } from '../client/client-error.js';

const DISMISSED_KEY = 'chronoscope.damage.dismissed';

interface HealthState {
  workspace: string | null;
  health: WorkspaceHealth | null;
  checking: boolean;
  /** The outcome of the last "Check again", said in the banner until the next one. */
  outcome: string | null;
  /** `${workspace}\0${checked_ms}` of the check whose findings the person dismissed. */
  dismissed: string | null;
  load(workspace: string): Promise<void>;
  checkAgain(): Promise<void>;
  dismiss(): void;
}

function dismissedKey(workspace: string, health: WorkspaceHealth | null): string {
  return `${workspace}\0${health?.checked_ms ?? 'never'}`;
}

function readDismissed(): string | null {
  try {
    return localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

export const useHealth = create<HealthState>()((set, get) => ({
  workspace: null,
  health: null,
  checking: false,
  outcome: null,
  dismissed: readDismissed(),
  load: async (workspace) => {
    if (get().workspace !== workspace) set({ workspace, health: null, outcome: null });
    try {
      const health = await client().invoke('health:get', { workspace });
      if (get().workspace === workspace) set({ health });
    } catch {
      // The banner then says only what the list marks.
    }
  },
  checkAgain: async () => {
    const { workspace, checking } = get();
    if (!workspace || checking) return;
    set({ checking: true, outcome: null });
    try {
      const health = await client().invoke('health:check', { workspace });
      if (get().workspace !== workspace) return;
      const n = health.damaged.length;
      set({ health, outcome: n === 0 ? 'Checked again: no damage found. Every checkpoint reads back intact.' : `Checked again: ${n === 1 ? '1 checkpoint is' : `${n} checkpoints are`} still damaged.` });
      // The marks on the timeline come with the list.
      await useTimeline.getState().refresh();
    } catch (err) {
      if (get().workspace === workspace) set({ outcome: `The check could not run: ${errorLine(err)}` });
    } finally {
      if (get().workspace === workspace) set({ checking: false });
    }
  },
  dismiss: () => {
    const { workspace, health } = get();
    if (!workspace) return;
    const key = dismissedKey(workspace, health);
    try {
      localStorage.setItem(DISMISSED_KEY, key);
    } catch {
      // for this session only
    }
    set({ dismissed: key, outcome: null });
  },
}));

/** Whether the person dismissed these findings (a later check that finds damage shows them again). */
export function isDismissed(s: Pick<HealthState, 'workspace' | 'health' | 'dismissed'>): boolean {
  return s.workspace !== null && s.dismissed === dismissedKey(s.workspace, s.health);
}
