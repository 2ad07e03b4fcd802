// App-level error banners: one line each (the host's code and message), dismissible.
import { create } from 'zustand';
import { errorCode, errorLine } from '../client/client-error.js';

export interface Banner {
  id: number;
  code: string;
  message: string;
  context?: string;
}

interface BannerState {
  banners: Banner[];
  report(err: unknown, context?: string): void;
  reportSerialized(code: string, message: string, context?: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useBanners = create<BannerState>()((set) => ({
  banners: [],
  report: (err, context) => {
    const banner: Banner = { id: nextId++, code: errorCode(err), message: errorLine(err), context };
    set((s) => ({ banners: [...s.banners.filter((b) => b.message !== banner.message), banner].slice(-4) }));
  },
  reportSerialized: (code, message, context) => {
    const banner: Banner = { id: nextId++, code, message, context };
    set((s) => ({ banners: [...s.banners.filter((b) => b.message !== message), banner].slice(-4) }));
  },
  dismiss: (id) => set((s) => ({ banners: s.banners.filter((b) => b.id !== id) })),
}));
