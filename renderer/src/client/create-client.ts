// Chooses the transport once, at start: the preload's API means Electron;
// otherwise the page was served by `chronoscope serve` and talks WebSocket.
import type { ChronoscopeClient, PreloadApi } from '../../../shared/ipc.js';
import type { TransportInfo } from './connection.js';
import { createElectronClient } from './electron-transport.js';
import { createWebSocketClient, probeSessionOverHttp, socketUrl, type EarlySocket } from './websocket-transport.js';

export type AppClient = ChronoscopeClient & TransportInfo;

declare global {
  interface Window {
    chronoscope?: PreloadApi;
    /** Opened by public/early-socket.js before this script loaded. */
    __chronoscopeEarlySocket?: EarlySocket;
  }
}

export function createClient(): AppClient {
  if (window.chronoscope) return createElectronClient(window.chronoscope);
  const url = socketUrl(window.location);
  forgetToken(window.location, window.history);
  const early = window.__chronoscopeEarlySocket;
  delete window.__chronoscopeEarlySocket;
  return createWebSocketClient(url, { probeSession: probeSessionOverHttp, ...(early ? { early } : {}) });
}

/**
 * The token has done its job once the page loaded (the session cookie carries
 * on): take it out of the address bar, the history and anything copied from it.
 */
export function forgetToken(location: Location, history: History): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
