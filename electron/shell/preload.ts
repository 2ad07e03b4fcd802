// The sandboxed preload (bundled to CJS by `npm run build:preload`): the page
// gets window.chronoscope and nothing else — no ipcRenderer, no Node. Invokes
// answer with the InvokeResult envelope; events are limited to EVENT_CHANNELS.
import { contextBridge, ipcRenderer } from 'electron';
import { createPreloadApi } from './preload-api.js';

contextBridge.exposeInMainWorld('chronoscope', createPreloadApi(ipcRenderer));
