// Verification results of the open workspace (the newest per checkpoint: what
// the slider's green/red marks and the details pane show), verify runs in
// flight, forks, and the one background bisect ("find where it broke").
import { create } from 'zustand';
import type { BisectResult, ForkResult, VerificationRecord } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';

export interface BisectJob {
  workspace: string;
  job: string | null;
  good: string;
  bad: string;
  status: 'starting' | 'running' | 'done' | 'error' | 'cancelled';
  message: string;
  runs: number;
  remaining_at_most: number;
  result?: BisectResult;
  error?: string;
}

interface VerifyState {
  workspace: string | null;
  byId: Record<string, VerificationRecord>;
  running: Record<string, boolean>;
  errors: Record<string, string>;
  forks: Record<string, ForkResult>;
  bisect: BisectJob | null;
  load(workspace: string | null): Promise<void>;
  record(workspace: string, record: VerificationRecord): void;
  verify(workspace: string, id: string): Promise<void>;
  fork(workspace: string, id: string): Promise<void>;
  startBisect(workspace: string, good: string, bad: string): Promise<void>;
  cancelBisect(): Promise<void>;
  bisectProgress(job: string, message: string, runs: number, remaining: number): void;
  bisectDone(job: string, outcome: { result?: BisectResult; error?: string; cancelled?: boolean }): void;
  dismissBisect(): void;
}

/** The newest record of each checkpoint. */
export function latestById(records: readonly VerificationRecord[]): Record<string, VerificationRecord> {
  const out: Record<string, VerificationRecord> = {};
  for (const r of records) {
    const seen = out[r.id];
    if (!seen || seen.time_ms <= r.time_ms) out[r.id] = r;
  }
  return out;
}

let loadToken = 0;

export const useVerify = create<VerifyState>()((set, get) => ({
  workspace: null,
  byId: {},
  running: {},
  errors: {},
  forks: {},
  bisect: null,

  load: async (workspace) => {
    const token = ++loadToken;
    set({ workspace, byId: {}, running: {}, errors: {}, forks: {}, bisect: get().bisect?.workspace === workspace ? get().bisect : null });
    if (!workspace) return;
    try {
      const records = await client().invoke('verify:list', { workspace });
      if (token === loadToken) set({ byId: latestById(records) });
    } catch {
      // no results is the same as none recorded; verify shows its own errors
    }
  },

  record: (workspace, record) => {
    if (workspace !== get().workspace) return;
    set((s) => ({ byId: latestById([...Object.values(s.byId), record]) }));
  },

  verify: async (workspace, id) => {
    set((s) => ({ running: { ...s.running, [id]: true }, errors: omit(s.errors, id) }));
    try {
      const record = await client().invoke('verify:run', { workspace, id });
      get().record(workspace, record);
    } catch (err) {
      set((s) => ({ errors: { ...s.errors, [id]: errorLine(err) } }));
    } finally {
      set((s) => ({ running: omit(s.running, id) }));
    }
  },

  fork: async (workspace, id) => {
    set((s) => ({ errors: omit(s.errors, id) }));
    try {
      const result = await client().invoke('fork:run', { workspace, id });
      set((s) => ({ forks: { ...s.forks, [id]: result } }));
    } catch (err) {
      set((s) => ({ errors: { ...s.errors, [id]: errorLine(err) } }));
    }
  },

  startBisect: async (workspace, good, bad) => {
    set({ bisect: { workspace, job: null, good, bad, status: 'starting', message: 'Starting…', runs: 0, remaining_at_most: 0 } });
    try {
      const { job } = await client().invoke('bisect:start', { workspace, good, bad });
      set((s) => (s.bisect && s.bisect.job === null ? { bisect: { ...s.bisect, job, status: s.bisect.status === 'starting' ? 'running' : s.bisect.status } } : {}));
    } catch (err) {
      set((s) => (s.bisect ? { bisect: { ...s.bisect, status: 'error', error: errorLine(err) } } : {}));
    }
  },

  cancelBisect: async () => {
    const job = get().bisect?.job;
    if (!job) return;
    set((s) => (s.bisect ? { bisect: { ...s.bisect, message: 'Cancelling…' } } : {}));
    await client().invoke('bisect:cancel', { job }).catch(() => undefined);
  },

  bisectProgress: (job, message, runs, remaining) => {
    set((s) => (s.bisect && (s.bisect.job === job || s.bisect.job === null) ? { bisect: { ...s.bisect, job, status: 'running', message, runs, remaining_at_most: remaining } } : {}));
  },

  bisectDone: (job, outcome) => {
    set((s) => {
      if (!s.bisect || (s.bisect.job !== job && s.bisect.job !== null)) return {};
      const status = outcome.result ? 'done' : outcome.cancelled ? 'cancelled' : 'error';
      return { bisect: { ...s.bisect, job, status, message: '', ...(outcome.result ? { result: outcome.result } : {}), ...(outcome.error ? { error: outcome.error } : {}) } };
    });
  },

  dismissBisect: () => set({ bisect: null }),
}));

function omit<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  void _gone;
  return rest;
}
