// Chooses the transport once, at start: the preload's API means Electron;
// otherwise the page was served by `chronoscope serve` and talks WebSocket.
import type { ChronoscopeClient, PreloadApi } from '../../../shared/ipc.js';
import type { TransportInfo } from './connection.js';
import { createElectronClient } from './electron-transport.js';
import { createWebSocketClient, socketUrl } from './websocket-transport.js';

export type AppClient = ChronoscopeClient & TransportInfo;

declare global {
  interface Window {
    chronoscope?: PreloadApi;
  }
}

export function createClient(): AppClient {
  if (window.chronoscope) return createElectronClient(window.chronoscope);
  return createWebSocketClient(socketUrl(window.location));
}
