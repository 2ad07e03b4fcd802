// Restores agents asked for (through MCP) that wait for the person's answer,
// kept live by approvals:changed; answering goes back to the main process,
// which restores only on approval.
import { create } from 'zustand';
import type { ApprovalRequest } from '../../../shared/model.js';
import { errorLine } from '../client/client-error.js';
import { client } from './client.js';

interface ApprovalsState {
  pending: ApprovalRequest[];
  answering: Record<string, boolean>;
  error: string | null;
  load(): Promise<void>;
  set(pending: ApprovalRequest[]): void;
  answer(id: string, approve: boolean): Promise<ApprovalRequest | null>;
}

export const useApprovals = create<ApprovalsState>()((set) => ({
  pending: [],
  answering: {},
  error: null,
  load: async () => {
    try {
      set({ pending: await client().invoke('approvals:list', {}) });
    } catch (err) {
      set({ error: errorLine(err) });
    }
  },
  set: (pending) => set({ pending }),
  answer: async (id, approve) => {
    set((s) => ({ answering: { ...s.answering, [id]: true }, error: null }));
    try {
      const answered = await client().invoke('approvals:answer', { id, approve });
      set((s) => ({ pending: s.pending.filter((r) => r.id !== id) }));
      return answered;
    } catch (err) {
      set({ error: errorLine(err) });
      return null;
    } finally {
      set((s) => {
        const { [id]: _done, ...rest } = s.answering;
        void _done;
        return { answering: rest };
      });
    }
  },
}));
