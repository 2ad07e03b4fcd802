// The checkpoints of the open workspace, newest first (as checkpoints:list
// returns them), and which one is selected. Selection is by id so a checkpoint
// arriving live never moves what the person is looking at.
import { create } from 'zustand';
import { FIRST_PAGE_LIMIT, type Checkpoint, type SnapshotResult } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';
import { useDetails } from './details.js';
import { useDiff } from './diff.js';

const LIST_LIMIT = 100_000;
/**
 * The newest this many come first, so the newest checkpoint and its diff show
 * while the rest of a long history is still on its way (at 10,000 checkpoints
 * the whole list takes seconds); then the whole list replaces them.
 */
/** How long the whole list waits at most for the first page's selected diff. */
const FIRST_DIFF_MS = 1500;

/**
 * Resolves once the diff of `id` is drawn — its details in, and its first file's diff too when it
 * has files, then two frames for the editor — or after `capMs`, whichever comes first.
 */
function firstDiffDrawn(id: string | null, capMs: number): Promise<void> {
  if (id === null) return Promise.resolve();
  const settled = (): boolean => {
    const entry = useDetails.getState().entries[id];
    if (entry === undefined || entry.status === 'loading') return false;
    if (entry.status === 'error' || entry.value.files.length === 0) return true;
    return Object.entries(useDiff.getState().fileDiffs).some(([key, diff]) => (key.startsWith(`${id}>`) || key.includes(`>${id}:`)) && diff.status !== 'loading');
  };
  return new Promise((resolve) => {
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      offDetails();
      offDiff();
      resolve();
    };
    const timer = setTimeout(finish, capMs);
    const check = (): void => {
      if (settled()) requestAnimationFrame(() => requestAnimationFrame(finish));
    };
    const offDetails = useDetails.subscribe(check);
    const offDiff = useDiff.subscribe(check);
    check();
  });
}
const FOLLOW_KEY = 'chronoscope.followLive';

function readFollow(): boolean {
  try {
    return localStorage.getItem(FOLLOW_KEY) === 'on';
  } catch {
    return false;
  }
}

interface TimelineState {
  workspace: string | null;
  checkpoints: Checkpoint[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The newest page is shown and the rest of the list is still on its way. */
  partial: boolean;
  error: string | null;
  selectedId: string | null;
  snapshotting: boolean;
  /** Keep the newest checkpoint selected as new ones arrive. */
  followLive: boolean;
  /** Checkpoints that arrived newer than the selection since the person last looked at the newest. */
  unseen: number;
  setFollowLive(on: boolean): void;
  load(workspace: string | null): Promise<void>;
  refresh(): Promise<void>;
  insert(checkpoint: Checkpoint): void;
  select(id: string): void;
  /** Position 0 is the oldest checkpoint, the last position the newest. */
  selectPosition(position: number): void;
  step(delta: number): void;
  snapshot(reason: string): Promise<SnapshotResult | null>;
  setPinned(id: string, pinned: boolean): Promise<void>;
}

let loadToken = 0;

function sortNewestFirst(list: Checkpoint[]): Checkpoint[] {
  return [...list].sort((a, b) => b.time_ms - a.time_ms);
}

export const useTimeline = create<TimelineState>()((set, get) => ({
  workspace: null,
  checkpoints: [],
  status: 'idle',
  partial: false,
  error: null,
  selectedId: null,
  snapshotting: false,
  followLive: readFollow(),
  unseen: 0,

  setFollowLive: (on) => {
    try {
      localStorage.setItem(FOLLOW_KEY, on ? 'on' : 'off');
    } catch {
      // session-only then
    }
    set(on ? { followLive: true, unseen: 0, selectedId: get().checkpoints[0]?.id ?? get().selectedId } : { followLive: false });
  },

  load: async (workspace) => {
    const token = ++loadToken;
    if (!workspace) {
      set({ workspace: null, checkpoints: [], status: 'idle', partial: false, error: null, selectedId: null });
      return;
    }
    set({ workspace, checkpoints: [], status: 'loading', partial: false, error: null, selectedId: null, unseen: 0 });
    try {
      const first = await client().invoke('checkpoints:list', { workspace, limit: FIRST_PAGE_LIMIT });
      if (token !== loadToken) return;
      // The newest's details are asked for now, not after the page of 200 has rendered (the details pane asks again: one request).
      if (get().selectedId === null && first[0] && useDetails.getState().workspace === workspace) useDetails.getState().want(first[0].id);
      // Events may have inserted checkpoints while the list was on its way.
      const shown = mergeById(first, get().checkpoints);
      const more = first.length >= FIRST_PAGE_LIMIT;
      set({ checkpoints: shown, status: 'ready', partial: more, selectedId: get().selectedId ?? shown[0]?.id ?? null });
      if (!more) return;
      // The whole list (2.9 MB at 10,000) would hold up the newest checkpoint's diff, on the host
      // and in this page: asked for once that diff is drawn.
      await firstDiffDrawn(get().selectedId, FIRST_DIFF_MS);
      if (token !== loadToken) return;
      const list = await client().invoke('checkpoints:list', { workspace, limit: LIST_LIMIT });
      if (token !== loadToken) return;
      // The selection stays: the person may already be looking at one of the first page.
      set({ checkpoints: mergeById(list, get().checkpoints), partial: false });
    } catch (err) {
      if (token !== loadToken) return;
      if (get().status === 'ready') set({ partial: false, error: errorLine(err) });
      else set({ status: 'error', error: errorLine(err) });
    }
  },

  refresh: async () => {
    const { workspace } = get();
    if (!workspace) return;
    const token = loadToken;
    try {
      const list = await client().invoke('checkpoints:list', { workspace, limit: LIST_LIMIT });
      if (token !== loadToken || get().workspace !== workspace) return;
      const { selectedId } = get();
      const checkpoints = sortNewestFirst(list);
      const stillThere = checkpoints.some((c) => c.id === selectedId);
      set({ checkpoints, status: 'ready', error: null, selectedId: stillThere ? selectedId : (checkpoints[0]?.id ?? null) });
    } catch (err) {
      if (get().status !== 'ready') set({ status: 'error', error: errorLine(err) });
    }
  },

  insert: (checkpoint) => {
    set((s) => {
      const exists = indexOfId(s.checkpoints, checkpoint.id);
      let checkpoints: Checkpoint[];
      if (exists >= 0) {
        checkpoints = s.checkpoints.slice();
        checkpoints[exists] = checkpoint;
      } else if (s.checkpoints.length === 0 || checkpoint.time_ms >= (s.checkpoints[0]?.time_ms ?? 0)) {
        checkpoints = [checkpoint, ...s.checkpoints];
      } else {
        checkpoints = sortNewestFirst([...s.checkpoints, checkpoint]);
      }
      const newest = exists < 0 && checkpoints[0]?.id === checkpoint.id;
      // Follow live: the newest stays selected. Otherwise count what arrived out of sight.
      const follow = newest && (s.followLive || s.selectedId === null);
      return {
        checkpoints,
        status: s.status === 'loading' ? s.status : 'ready',
        selectedId: follow ? checkpoint.id : s.selectedId,
        unseen: follow ? 0 : newest ? s.unseen + 1 : s.unseen,
      };
    });
  },

  select: (id) => {
    const s = get();
    if (s.selectedId === id) return;
    set(s.checkpoints[0]?.id === id ? { selectedId: id, unseen: 0 } : { selectedId: id });
  },

  selectPosition: (position) => {
    const { checkpoints } = get();
    const n = checkpoints.length;
    if (n === 0) return;
    const clamped = Math.max(0, Math.min(n - 1, Math.round(position)));
    const target = checkpoints[n - 1 - clamped];
    if (target) get().select(target.id);
  },

  step: (delta) => {
    const { checkpoints, selectedId } = get();
    const n = checkpoints.length;
    if (n === 0) return;
    const index = Math.max(0, indexOfId(checkpoints, selectedId));
    get().selectPosition(n - 1 - index + delta);
  },

  snapshot: async (reason) => {
    const { workspace } = get();
    if (!workspace) return null;
    set({ snapshotting: true });
    try {
      const trimmed = reason.trim();
      const result = await client().invoke('checkpoints:snapshot', trimmed ? { workspace, reason: trimmed } : { workspace });
      if (result.id !== null && get().workspace === workspace) {
        get().insert(result.checkpoint);
        set({ selectedId: result.checkpoint.id });
      }
      return result;
    } finally {
      set({ snapshotting: false });
    }
  },

  setPinned: async (id, pinned) => {
    const { workspace } = get();
    if (!workspace) return;
    const updated = await client().invoke('checkpoints:pin', { workspace, id, pinned });
    get().insert(updated);
  },
}));

function mergeById(fromHost: Checkpoint[], live: Checkpoint[]): Checkpoint[] {
  const seen = new Set(fromHost.map((c) => c.id));
  const extra = live.filter((c) => !seen.has(c.id));
  return sortNewestFirst([...fromHost, ...extra]);
}

// Selectors run for every subscriber on every store change (each step of a
// drag): a scan of 10,000 ids per selector per step adds up, so each list
// gets its id → index map once.
const indexes = new WeakMap<readonly Checkpoint[], Map<string, number>>();

/** Index (newest first) of a checkpoint in the list, or -1; O(1) after the first call per list. */
export function indexOfId(checkpoints: readonly Checkpoint[], id: string | null): number {
  if (id === null) return -1;
  let map = indexes.get(checkpoints);
  if (!map) {
    map = new Map();
    for (let i = 0; i < checkpoints.length; i++) map.set(checkpoints[i]!.id, i);
    indexes.set(checkpoints, map);
  }
  return map.get(id) ?? -1;
}

/** Oldest-first position of the selected checkpoint, or -1. */
export function selectedPosition(s: Pick<TimelineState, 'checkpoints' | 'selectedId'>): number {
  const index = indexOfId(s.checkpoints, s.selectedId);
  return index < 0 ? -1 : s.checkpoints.length - 1 - index;
}

export function selectedCheckpoint(s: Pick<TimelineState, 'checkpoints' | 'selectedId'>): Checkpoint | null {
  return s.checkpoints[indexOfId(s.checkpoints, s.selectedId)] ?? null;
}

/**
 * The checkpoint just older than the given one in its own lane (what "vs
 * previous" compares with, as checkpoints:show counts its changes): a Hermes
 * /rollback checkpoint against Hermes' one before it, ours against ours.
 */
export function previousOf(s: Pick<TimelineState, 'checkpoints'>, id: string): Checkpoint | null {
  const index = indexOfId(s.checkpoints, id);
  if (index < 0) return null;
  const origin = s.checkpoints[index]?.origin;
  for (let i = index + 1; i < s.checkpoints.length; i++) if (s.checkpoints[i]!.origin === origin) return s.checkpoints[i]!;
  return null;
}
