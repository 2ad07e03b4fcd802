// The settings dialog's state: whether it is open, the host's settings as last
// read, and saving a patch of what changed. The host validates again and
// answers with the merged settings (or one line saying why not).
import { create } from 'zustand';
import type { Settings, SettingsPatch } from '../../../shared/settings.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';

interface SettingsState {
  open: boolean;
  status: 'idle' | 'loading' | 'ready' | 'error';
  settings: Settings | null;
  loadError: string | null;
  saving: boolean;
  saveError: string | null;
  show(): void;
  hide(): void;
  load(): Promise<void>;
  /** True once the host took the patch; an empty patch sends nothing. */
  save(patch: SettingsPatch): Promise<boolean>;
}

/** The settings read under way, if any (see load). */
let inflight: Promise<void> | null = null;

export const useSettings = create<SettingsState>()((set, get) => ({
  open: false,
  status: 'idle',
  settings: null,
  loadError: null,
  saving: false,
  saveError: null,

  show: () => {
    set({ open: true, saveError: null });
    // Read afresh each time: the CLI may have changed config.json since.
    void get().load();
  },

  hide: () => set({ open: false, saveError: null }),

  load: () => {
    // One read at a time: a caller that needs the settings (a toast naming the size limit) waits
    // for a read another component started, instead of going on with none.
    if (inflight !== null) return inflight;
    set({ status: 'loading', loadError: null });
    inflight = (async () => {
      try {
        const settings = await client().invoke('settings:get', {});
        set({ settings, status: 'ready' });
      } catch (err) {
        set({ status: 'error', loadError: errorLine(err) });
      } finally {
        inflight = null;
      }
    })();
    return inflight;
  },

  save: async (patch) => {
    if (Object.keys(patch).length === 0) return true;
    set({ saving: true, saveError: null });
    try {
      const settings = await client().invoke('settings:set', patch);
      set({ settings, saving: false });
      return true;
    } catch (err) {
      set({ saving: false, saveError: errorLine(err) });
      return false;
    }
  },
}));
