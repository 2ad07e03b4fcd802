// Pane sizes and folds, remembered across reloads: the checkpoint list's and
// the file list's widths, the sidebar and list folded away, and the
// full-width diff (everything but the diff folded). In a narrow window the
// file list sits above the diff; its height there is `filesHeight` (0: not
// set by the person, the stylesheet's share of the pane). Below NARROW_QUERY the
// sidebar and the checkpoint list fold by themselves (the diff needs the room;
// the timeline above still picks checkpoints); opening one there lasts until
// the window widens, and leaves the remembered wide-window choice alone.
// The sidebar folds to a rail of icons, and starts folded: at 1440 px its
// 248 px are what the diff needs to show 100 columns (docs/design.md, "Room for the diff").
import { create } from 'zustand';

const KEY = 'chronoscope.layout';

export interface Layout {
  listWidth: number;
  filesWidth: number;
  filesHeight: number;
  sidebarCollapsed: boolean;
  listCollapsed: boolean;
  fullDiff: boolean;
}

const DEFAULTS: Layout = { listWidth: 260, filesWidth: 200, filesHeight: 0, sidebarCollapsed: true, listCollapsed: false, fullDiff: false };
export const PANE_LIMITS = { listWidth: [200, 560], filesWidth: [150, 480], filesHeight: [60, 600] } as const;

function clampWidth(key: keyof typeof PANE_LIMITS, value: number): number {
  const [lo, hi] = PANE_LIMITS[key];
  return Math.round(Math.max(lo, Math.min(hi, Number.isFinite(value) ? value : DEFAULTS[key])));
}

function read(): Layout {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Record<keyof Layout, unknown>>;
    return {
      listWidth: clampWidth('listWidth', Number(raw.listWidth ?? DEFAULTS.listWidth)),
      filesWidth: clampWidth('filesWidth', Number(raw.filesWidth ?? DEFAULTS.filesWidth)),
      filesHeight: raw.filesHeight === undefined || raw.filesHeight === 0 ? 0 : clampWidth('filesHeight', Number(raw.filesHeight)),
      sidebarCollapsed: raw.sidebarCollapsed === undefined ? DEFAULTS.sidebarCollapsed : raw.sidebarCollapsed === true,
      listCollapsed: raw.listCollapsed === true,
      fullDiff: raw.fullDiff === true,
    };
  } catch {
    return DEFAULTS;
  }
}

// The stylesheet's narrow layout (@media (max-width: 1100px)): the same edge.
const NARROW_QUERY = '(max-width: 1100px)';
// The stylesheet's stacked file list (@media (max-width: 1400px)): above the diff, so its divider turns with it.
const STACKED_QUERY = '(max-width: 1400px)';

function matchesNow(query: string): boolean {
  return typeof matchMedia === 'function' && matchMedia(query).matches;
}

interface LayoutState extends Layout {
  /** The window is narrow: the sidebar and the checkpoint list are folded unless opened for now. */
  narrow: boolean;
  narrowSidebarOpen: boolean;
  narrowListOpen: boolean;
  /** The file list sits above the diff (not beside it). */
  stacked: boolean;
  setWidth(key: keyof typeof PANE_LIMITS, value: number): void;
  toggle(key: 'sidebarCollapsed' | 'listCollapsed' | 'fullDiff'): void;
}

export const useLayout = create<LayoutState>()((set, get) => {
  const save = (): void => {
    const { listWidth, filesWidth, filesHeight, sidebarCollapsed, listCollapsed, fullDiff } = get();
    try {
      localStorage.setItem(KEY, JSON.stringify({ listWidth, filesWidth, filesHeight, sidebarCollapsed, listCollapsed, fullDiff }));
    } catch {
      // session-only then
    }
  };
  if (typeof matchMedia === 'function') {
    matchMedia(NARROW_QUERY).addEventListener('change', (e) => set({ narrow: e.matches, narrowSidebarOpen: false, narrowListOpen: false }));
    matchMedia(STACKED_QUERY).addEventListener('change', (e) => set({ stacked: e.matches }));
  }
  return {
    ...read(),
    narrow: matchesNow(NARROW_QUERY),
    narrowSidebarOpen: false,
    narrowListOpen: false,
    stacked: matchesNow(STACKED_QUERY),
    setWidth: (key, value) => {
      set({ [key]: clampWidth(key, value) } as Pick<Layout, typeof key>);
      save();
    },
    toggle: (key) => {
      if (key === 'sidebarCollapsed' && get().narrow && !get().fullDiff) {
        set({ narrowSidebarOpen: !get().narrowSidebarOpen });
        return;
      }
      if (key === 'listCollapsed' && get().narrow && !get().fullDiff) {
        set({ narrowListOpen: !get().narrowListOpen });
        return;
      }
      set({ [key]: !get()[key] } as Pick<Layout, typeof key>);
      save();
    },
  };
});

/** Whether the sidebar is folded to its rail now: by hand (the default), or by a narrow window. */
export function sidebarFolded(s: LayoutState): boolean {
  return s.narrow ? !s.narrowSidebarOpen : s.sidebarCollapsed;
}

/** Whether the checkpoint list is out of view now: folded by hand, by the full-width diff, or by a narrow window. */
export function listFolded(s: LayoutState): boolean {
  return s.fullDiff || (s.narrow ? !s.narrowListOpen : s.listCollapsed);
}
