// The Electron main process entry: the only module that needs Electron's
// binary. Everything it starts is in desktop-app.ts, which takes Electron as a
// parameter so its wiring is tested under Node (tests/shell).
import * as electron from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAppService } from '../app/app-service.js';
import { defaultStoreHome } from '../engine/layout/paths.js';
import { rendererDir } from '../server/paths.js';
import { startDesktopApp } from './desktop-app.js';
import { trayHostVisible } from './tray-visibility.js';

startDesktopApp(electron, {
  home: defaultStoreHome(),
  platform: process.platform,
  preload: fileURLToPath(new URL('./preload.cjs', import.meta.url)),
  rendererDir: rendererDir(),
  // build/ ships inside the app (electron-builder `files`); getAppPath is the app root, asar or not.
  resourcesDir: join(electron.app.getAppPath(), 'build'),
  trayHostVisible: () => trayHostVisible(process.platform),
  createService: (home, version) => createAppService({ home, host: 'electron', version }),
});
