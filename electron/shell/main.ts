// The Electron main process: a thin host. All behaviour lives in the app
// service and the router (plain Node, tested without Electron); this file
// wires them to a window, the IPC channels, the menu and the tray.
import { app, BrowserWindow, dialog, Menu, session } from 'electron';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EffectRecord } from '../../shared/model.js';
import { toSerializedError } from '../../shared/errors.js';
import type { AppService } from '../app/api.js';
import { createAppService } from '../app/app-service.js';
import { defaultStoreHome } from '../engine/paths.js';
import { createRouter } from '../router/index.js';
import { rendererDir } from '../server/paths.js';
import { registerAppScheme, serveAppScheme } from './app-protocol.js';
import { bindIpc } from './ipc-host.js';
import { buildAppMenu } from './menu.js';
import { createTray, type TrayHandle } from './tray.js';
import { createMainWindow, focusWindow, lockDownContents } from './window.js';

// ---- before ready: synchronous, so nothing races the ready event ----

// One store for the app, the CLI and the hooks ($CHRONOSCOPE_HOME or the
// platform's app-data folder); Chromium's own profile data goes in a
// subfolder so it never mixes with the store's files.
const home = defaultStoreHome();
app.setPath('userData', home);
app.setPath('sessionData', join(home, 'electron-session'));

if (!app.requestSingleInstanceLock()) {
  // Another instance owns the store's watchers; it focuses its window (below).
  app.exit(0);
} else {
  registerAppScheme();
  void start().catch((err: unknown) => {
    dialog.showErrorBox('Chronoscope could not start', toSerializedError(err).message);
    app.exit(1);
  });
}

function iconsDir(): string {
  // build/icons ships inside the app (electron-builder `files`); getAppPath is the app root, asar or not.
  return join(app.getAppPath(), 'build', 'icons');
}

async function start(): Promise<void> {
  let win: BrowserWindow | null = null;
  let tray: TrayHandle | null = null;
  let service: AppService | null = null;
  let quitting = false;

  app.on('second-instance', () => {
    if (win) focusWindow(win);
  });
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents));

  await app.whenReady();
  // The renderer asks for nothing (no camera, no geolocation, no notifications of its own).
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  serveAppScheme(rendererDir());

  const svc = await createAppService({ home, host: 'electron', version: app.getVersion() });
  service = svc;

  const pickFolder = async (): Promise<string | null> => {
    const options = { title: 'Add a workspace', properties: ['openDirectory' as const, 'createDirectory' as const] };
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
  const router = createRouter(svc, { pickFolder });

  /** The native dialog from the menu or the tray; the list and the renderer learn of it through the service. */
  const addWorkspace = async (): Promise<void> => {
    const dir = await pickFolder();
    if (!dir) return;
    try {
      await svc.addWorkspace(dir);
    } catch (err) {
      dialog.showErrorBox('Cannot add this folder', toSerializedError(err).message);
    }
    tray?.refresh();
  };

  const preload = fileURLToPath(new URL('./preload.cjs', import.meta.url));
  const trayIcon = join(iconsDir(), process.platform === 'darwin' ? 'trayTemplate.png' : 'tray-32.png');
  const appIcon = join(app.getAppPath(), 'build', 'icon.png');

  const openWindow = async (): Promise<BrowserWindow> => {
    if (win && !win.isDestroyed()) {
      focusWindow(win);
      return win;
    }
    const created = await createMainWindow({ home, preload, icon: existsSync(appIcon) ? appIcon : undefined });
    created.on('closed', () => {
      if (win === created) win = null;
    });
    win = created;
    return created;
  };

  const showEffect = async (effect: EffectRecord): Promise<void> => {
    const target = await openWindow();
    focusWindow(target);
    svc.emit('ui:focusEffect', { workspace: effect.workspace, effect });
  };

  const unbindIpc = bindIpc(router, svc, () => win);
  Menu.setApplicationMenu(buildAppMenu({ addWorkspace: () => void addWorkspace(), isDev: !app.isPackaged }));

  try {
    tray = createTray({
      app: svc,
      iconPath: trayIcon,
      showWindow: () => void openWindow(),
      showEffect: (effect) => void showEffect(effect),
      addWorkspace: () => void addWorkspace(),
      quit: () => app.quit(),
    });
  } catch {
    // No tray on this desktop (some Linux sessions): the window is the app.
    tray = null;
  }

  // With a tray the app keeps watching after its window closes; without one, closing quits.
  app.on('window-all-closed', () => {
    if (!tray || quitting) app.quit();
  });
  app.on('activate', () => void openWindow());
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    unbindIpc();
    tray?.dispose();
    tray = null;
    void (service?.dispose() ?? Promise.resolve()).finally(() => app.exit(0));
  });

  await openWindow();
}
