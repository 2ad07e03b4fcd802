// The preload's API over an ipcRenderer: a thin pipe, no Node for the page.
// Apart from preload.ts so the pipe runs under Node in tests with a stand-in.
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { EVENT_CHANNELS, type EventChannel } from '../../shared/events.js';
import type { InvokeChannel, InvokeResult, PreloadApi } from '../../shared/ipc.js';
import { IPC_EVENT, IPC_INVOKE } from './ipc-channels.js';

export function createPreloadApi(ipcRenderer: Pick<IpcRenderer, 'invoke' | 'on' | 'off'>): PreloadApi {
  return {
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
}
