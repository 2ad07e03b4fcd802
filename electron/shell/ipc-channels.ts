// The two Electron IPC channel names; the preload and the main process share
// them. Every typed invoke channel of shared/ipc.ts travels inside the first,
// every event inside the second, so the preload stays a thin pipe.
export const IPC_INVOKE = 'chronoscope:invoke';
export const IPC_EVENT = 'chronoscope:event';
