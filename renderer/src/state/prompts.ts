// The open workspace's prompts (prompts:list, sorted oldest first here): what the person asked each
// agent, with the checkpoints its calls took and the calls that failed. The
// list groups its checkpoints under them, the timeline marks where each began,
// and a prompt can be selected as a whole: its change from the state before it
// to its last checkpoint (`selected`), with "Restore to before this prompt".
// Kept fresh as checkpoints arrive; a host without the channel gives none.
import { create } from 'zustand';
import type { CallRecord, PromptRecord } from '../../../shared/model.js';
import { client } from './client.js';
import type { Checkpoint } from '../../../shared/model.js';
import { indexOfId, useTimeline } from './timeline.js';

interface PromptsState {
  workspace: string | null;
  /** Oldest first, as prompts:list returns them. */
  list: PromptRecord[];
  byId: ReadonlyMap<string, PromptRecord>;
  /** prompts:list has answered for this workspace (until then a header knows its prompt by id only). */
  loaded: boolean;
  /** The prompt whose whole change is shown (its last checkpoint is the timeline's selection). */
  selected: string | null;
  /** A prompt picked before the prompts were in: selected when they arrive. */
  pending: string | null;
  /** A failed call whose card is open (from its mark on the timeline). */
  shownCall: CallRecord | null;
  showCall(call: CallRecord | null): void;
  /** Another workspace: nothing known yet (read once its whole list is in). */
  reset(workspace: string | null): void;
  refresh(): Promise<void>;
  /** Show the prompt's whole change: selects its last checkpoint and compares it with the state before the prompt. Before the prompts are in, asks for them now and selects it when they arrive. */
  select(id: string): void;
  clearSelection(): void;
}

let token = 0;

function indexed(list: PromptRecord[]): Map<string, PromptRecord> {
  return new Map(list.map((p) => [p.id, p]));
}

export const usePrompts = create<PromptsState>()((set, get) => ({
  workspace: null,
  list: [],
  byId: new Map(),
  loaded: false,
  selected: null,
  pending: null,
  shownCall: null,
  showCall: (shownCall) => set({ shownCall }),

  reset: (workspace) => {
    token++;
    set({ workspace, list: [], byId: new Map(), loaded: false, selected: null, pending: null, shownCall: null });
  },

  refresh: async () => {
    const { workspace } = get();
    if (!workspace) return;
    const mine = ++token;
    let list: PromptRecord[];
    try {
      list = await client().invoke('prompts:list', { workspace });
    } catch {
      // An older host, or a ledger it cannot read: the list groups by what the checkpoints carry.
      list = [];
    }
    if (mine !== token || get().workspace !== workspace) return;
    const sorted = [...list].sort((a, b) => a.time_ms - b.time_ms);
    const { selected, pending } = get();
    set({ list: sorted, byId: indexed(sorted), loaded: true, pending: null, selected: selected && sorted.some((p) => p.id === selected) ? selected : null });
    if (pending !== null) get().select(pending);
  },

  select: (id) => {
    const { byId, loaded, pending } = get();
    const prompt = byId.get(id);
    if (!prompt && !loaded) {
      // Clicked while the whole list is still coming in (prompts:list waits for it): ask now.
      set({ pending: id });
      if (pending === null) void get().refresh();
      return;
    }
    if (!prompt || prompt.last === null) return;
    set({ selected: id });
    useTimeline.getState().select(prompt.last);
  },

  clearSelection: () => {
    if (get().selected !== null || get().pending !== null) set({ selected: null, pending: null });
  },
}));

/**
 * The state before a prompt, as the listing measures its change from: its `before`, or where that is no
 * longer listed (pruned), the checkpoint before its first; null when there is none.
 */
export function promptBase(prompt: PromptRecord, newestFirst: readonly Checkpoint[]): string | null {
  if (prompt.before !== null && indexOfId(newestFirst, prompt.before) >= 0) return prompt.before;
  const first = prompt.first === null ? -1 : indexOfId(newestFirst, prompt.first);
  return first >= 0 ? (newestFirst[first + 1]?.id ?? null) : prompt.before;
}

/** The selected prompt, when its last checkpoint is still the one selected. */
export function selectedPrompt(s: Pick<PromptsState, 'selected' | 'byId'>, selectedId: string | null): PromptRecord | null {
  const p = s.selected ? s.byId.get(s.selected) : undefined;
  return p && p.last === selectedId ? p : null;
}

// Selecting any other checkpoint (the list, the slider, the keyboard) leaves the prompt's whole change.
// The prompts are read once the whole list is in (prompts:list walks every checkpoint on the host: asked
// with the first page, it would hold up the newest diff), and again after a pause as checkpoints arrive.
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
useTimeline.subscribe((s, prev) => {
  if (s.workspace !== prev.workspace) {
    if (refreshTimer) clearTimeout(refreshTimer);
    usePrompts.getState().reset(s.workspace);
  }
  if (s.selectedId !== prev.selectedId) {
    const { selected, byId, pending } = usePrompts.getState();
    // A prompt still awaited is given up too: the person has moved on.
    if (pending !== null || (selected && byId.get(selected)?.last !== s.selectedId)) usePrompts.getState().clearSelection();
  }
  const whole = s.status === 'ready' && !s.partial;
  const wasWhole = prev.status === 'ready' && !prev.partial && prev.workspace === s.workspace;
  if (whole && (!wasWhole || s.checkpoints.length !== prev.checkpoints.length)) {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void usePrompts.getState().refresh(), wasWhole ? 300 : 0);
  }
});
