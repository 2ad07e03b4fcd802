// What the diff pane compares: the selected checkpoint against the previous
// one or against the files on disk now, which file is open, and caches of the
// file lists and file diffs. Diffs against the workspace go stale whenever the
// disk changes, so they are dropped on every new checkpoint or restore.
import { create } from 'zustand';
import type { DiffResult, FileDiff } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';
import type { Loadable } from './details.js';

export type DiffMode = 'previous' | 'workspace';
export type DiffLayout = 'side' | 'inline';

const LAYOUT_KEY = 'chronoscope.diffLayout';
const WRAP_KEY = 'chronoscope.diffWrap';
const WHITESPACE_KEY = 'chronoscope.ignoreWhitespace';
/** The compare mode of each workspace: switching workspace does not carry one's "vs workspace now" to another. */
const MODES_KEY = 'chronoscope.diffModes';

function readModes(): Record<string, DiffMode> {
  try {
    const raw = JSON.parse(localStorage.getItem(MODES_KEY) ?? '{}') as Record<string, unknown>;
    const out: Record<string, DiffMode> = {};
    for (const [k, v] of Object.entries(raw)) if (v === 'previous' || v === 'workspace') out[k] = v;
    return out;
  } catch {
    return {};
  }
}


export interface FileDiffRequest {
  from: string;
  to: string;
  path: string;
  /** A rename: where the file was on the `from` side. */
  old_path?: string;
  /** Text over the viewer's limit, asked for by the person (up to LARGE_VIEWER_MAX_BYTES). */
  large?: boolean;
}

export function rangeKey(from: string, to: string): string {
  return `${from}>${to}`;
}

export function fileDiffKey(r: FileDiffRequest): string {
  return `${r.from}>${r.to}:${r.path}${r.old_path ? `<${r.old_path}` : ''}${r.large ? '+large' : ''}`;
}

interface DiffState {
  workspace: string | null;
  mode: DiffMode;
  layout: DiffLayout;
  /** Wrap long lines; off by default, as in code editors, so columns line up. */
  wrap: boolean;
  /** Hide leading/trailing whitespace changes in the editor (the header still says they exist). */
  ignoreWhitespace: boolean;
  setIgnoreWhitespace(on: boolean): void;
  selectedPath: string | null;
  workspaceDiffs: Record<string, Loadable<DiffResult>>;
  /** Changes between two checkpoints (a prompt's whole change: the state before it → its last), by rangeKey. */
  rangeDiffs: Record<string, Loadable<DiffResult>>;
  loadRangeDiff(from: string, to: string): Promise<void>;
  fileDiffs: Record<string, Loadable<FileDiff>>;
  reset(workspace: string | null): void;
  setMode(mode: DiffMode): void;
  setLayout(layout: DiffLayout): void;
  setWrap(wrap: boolean): void;
  selectFile(path: string | null): void;
  loadWorkspaceDiff(id: string): Promise<void>;
  loadFileDiff(request: FileDiffRequest): Promise<void>;
  /** Latest wins: one file diff in flight; when it lands, the one wanted now is asked (drags skip the rest). */
  wantFileDiff(request: FileDiffRequest): void;
  invalidateWorkspace(): void;
}

function readLayout(): DiffLayout {
  try {
    return localStorage.getItem(LAYOUT_KEY) === 'inline' ? 'inline' : 'side';
  } catch {
    return 'side';
  }
}

function readFlag(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'on';
  } catch {
    return false;
  }
}

function remember(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // session-only then
  }
}

let fileInFlight = false;
let fileWanted: FileDiffRequest | null = null;

export const useDiff = create<DiffState>()((set, get) => ({
  workspace: null,
  mode: 'previous',
  layout: readLayout(),
  wrap: readFlag(WRAP_KEY),
  ignoreWhitespace: readFlag(WHITESPACE_KEY),
  setIgnoreWhitespace: (ignoreWhitespace) => {
    remember(WHITESPACE_KEY, ignoreWhitespace ? 'on' : 'off');
    set({ ignoreWhitespace });
  },

  selectedPath: null,
  workspaceDiffs: {},
  rangeDiffs: {},
  fileDiffs: {},

  reset: (workspace) =>
    set({ workspace, mode: (workspace && readModes()[workspace]) || 'previous', selectedPath: null, workspaceDiffs: {}, rangeDiffs: {}, fileDiffs: {} }),
  setMode: (mode) => {
    const { workspace } = get();
    if (workspace) {
      const modes = readModes();
      if (mode === 'previous') delete modes[workspace];
      else modes[workspace] = mode;
      remember(MODES_KEY, JSON.stringify(modes));
    }
    set({ mode });
  },
  setLayout: (layout) => {
    remember(LAYOUT_KEY, layout);
    set({ layout });
  },
  setWrap: (wrap) => {
    remember(WRAP_KEY, wrap ? 'on' : 'off');
    set({ wrap });
  },
  selectFile: (selectedPath) => set({ selectedPath }),

  loadWorkspaceDiff: async (id) => {
    const { workspace } = get();
    if (!workspace) return;
    const existing = get().workspaceDiffs[id];
    if (existing && existing.status !== 'error') return;
    set((s) => ({ workspaceDiffs: { ...s.workspaceDiffs, [id]: { status: 'loading' } } }));
    let next: Loadable<DiffResult>;
    try {
      next = { status: 'ready', value: await client().invoke('checkpoints:diff', { workspace, from: id, to: 'workspace' }) };
    } catch (err) {
      next = { status: 'error', error: errorLine(err) };
    }
    if (get().workspace !== workspace) return;
    set((s) => ({ workspaceDiffs: { ...s.workspaceDiffs, [id]: next } }));
  },

  loadRangeDiff: async (from, to) => {
    const { workspace } = get();
    if (!workspace) return;
    const key = rangeKey(from, to);
    const existing = get().rangeDiffs[key];
    if (existing && existing.status !== 'error') return;
    set((s) => ({ rangeDiffs: { ...s.rangeDiffs, [key]: { status: 'loading' } } }));
    let next: Loadable<DiffResult>;
    try {
      next = { status: 'ready', value: await client().invoke('checkpoints:diff', { workspace, from, to }) };
    } catch (err) {
      next = { status: 'error', error: errorLine(err) };
    }
    if (get().workspace !== workspace) return;
    set((s) => ({ rangeDiffs: { ...s.rangeDiffs, [key]: next } }));
  },

  loadFileDiff: async (request) => {
    const { workspace } = get();
    if (!workspace) return;
    const key = fileDiffKey(request);
    const existing = get().fileDiffs[key];
    if (existing && existing.status !== 'error') return;
    set((s) => ({ fileDiffs: { ...s.fileDiffs, [key]: { status: 'loading' } } }));
    let next: Loadable<FileDiff>;
    try {
      next = { status: 'ready', value: await client().invoke('checkpoints:fileDiff', { workspace, ...request }) };
    } catch (err) {
      next = { status: 'error', error: errorLine(err) };
    }
    if (get().workspace !== workspace) return;
    set((s) => ({ fileDiffs: { ...s.fileDiffs, [key]: next } }));
  },

  wantFileDiff: (request) => {
    fileWanted = request;
    const pump = (): void => {
      if (fileInFlight || !fileWanted) return;
      const next = fileWanted;
      fileWanted = null;
      if (get().fileDiffs[fileDiffKey(next)]) return;
      fileInFlight = true;
      void get()
        .loadFileDiff(next)
        .finally(() => {
          fileInFlight = false;
          pump();
        });
    };
    pump();
  },

  invalidateWorkspace: () =>
    set((s) => {
      const fileDiffs: Record<string, Loadable<FileDiff>> = {};
      for (const [key, value] of Object.entries(s.fileDiffs)) if (!key.includes('>workspace:')) fileDiffs[key] = value;
      return { workspaceDiffs: {}, fileDiffs };
    }),
}));
