import { create } from 'zustand';
import type { ConnectionStatus } from '../client/connection.js';
import type { AppInfo } from '../../../shared/ipc.js';

interface ConnectionState {
  status: ConnectionStatus;
  info: AppInfo | null;
  setStatus(status: ConnectionStatus): void;
  setInfo(info: AppInfo): void;
}

export const useConnection = create<ConnectionState>()((set) => ({
  status: { state: 'connecting', attempt: 0 },
  info: null,
  setStatus: (status) => set({ status }),
  setInfo: (info) => set({ info }),
}));
