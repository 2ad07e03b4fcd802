// ipcMain side of the contract: one handler hands every invoke to the router
// (which validates the payload), after checking that it came from our own
// window's top frame showing our renderer; app events go to that window.
// The window counts from the moment it exists: the renderer asks for its
// first data while the page is still loading.
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { EVENT_CHANNELS, type InvokeResult } from '../../shared/ipc.js';
import type { AppService } from '../app/api.js';
import type { Router } from '../router/index.js';
import { isAppUrl } from './app-protocol.js';
import type { ShellElectron } from './electron-api.js';
import { IPC_EVENT, IPC_INVOKE } from './ipc-channels.js';

type WindowGetter = () => BrowserWindow | null;

function fromOurWindow(event: IpcMainInvokeEvent, getWindow: WindowGetter): boolean {
  const win = getWindow();
  const frame = event.senderFrame;
  return (
    win !== null &&
    !win.isDestroyed() &&
    event.sender === win.webContents &&
    frame !== null &&
    // The top frame (no iframe can reach us), compared by identity Electron keeps stable across wrappers.
    frame.processId === win.webContents.mainFrame.processId &&
    frame.routingId === win.webContents.mainFrame.routingId &&
    isAppUrl(frame.url)
  );
}

/** Returns the function that undoes the binding. */
export function bindIpc(ipcMain: ShellElectron['ipcMain'], router: Router, app: Pick<AppService, 'on'>, getWindow: WindowGetter): () => void {
  ipcMain.handle(IPC_INVOKE, async (event, channel: unknown, payload: unknown): Promise<InvokeResult<unknown>> => {
    if (!fromOurWindow(event, getWindow)) {
      return { ok: false, error: { code: 'refused', message: 'invoke from a frame that is not the Chronoscope window' } };
    }
    return router.invoke(typeof channel === 'string' ? channel : '', payload);
  });
  const unsubscribe = EVENT_CHANNELS.map((channel) =>
    app.on(channel, (payload) => {
      const win = getWindow();
      if (win && !win.isDestroyed()) win.webContents.send(IPC_EVENT, channel, payload);
    }),
  );
  return () => {
    ipcMain.removeHandler(IPC_INVOKE);
    for (const off of unsubscribe) off();
  };
}
