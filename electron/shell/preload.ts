// The sandboxed preload (bundled to CJS by `npm run build:preload`): the page
// gets window.chronoscope and nothing else — no ipcRenderer, no Node. Invokes
// answer with the InvokeResult envelope; events are limited to EVENT_CHANNELS.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNELS, type EventChannel } from '../../shared/events.js';
import type { InvokeChannel, InvokeResult, PreloadApi } from '../../shared/ipc.js';
import { IPC_EVENT, IPC_INVOKE } from './ipc-channels.js';

const api: PreloadApi = {
  invoke(channel: InvokeChannel, request: unknown): Promise<InvokeResult<unknown>> {
    return ipcRenderer.invoke(IPC_INVOKE, channel, request) as Promise<InvokeResult<unknown>>;
  },
  on(event: EventChannel, listener: (payload: unknown) => void): () => void {
    if (!EVENT_CHANNELS.includes(event)) throw new Error(`unknown event: ${String(event)}`);
    const forward = (_e: IpcRendererEvent, channel: unknown, payload: unknown) => {
      if (channel === event) listener(payload);
    };
    ipcRenderer.on(IPC_EVENT, forward);
    return () => {
      ipcRenderer.off(IPC_EVENT, forward);
    };
  },
};

contextBridge.exposeInMainWorld('chronoscope', api);
