// The desktop app's wiring: a window, the IPC channels, the menu and the tray
// around the app service and the router (plain Node, tested without Electron).
// Electron comes in as a parameter (main.ts passes the real module), so this
// runs under Node against a stand-in in tests/shell.
//
// Lifecycle, in Electron's order: before ready (paths, single-instance lock,
// privileged scheme), ready (permissions, app:// handler, service, IPC, menu,
// tray, window), then second launches, window closes and quit.
import { join } from 'node:path';
import type { EffectRecord } from '../../shared/model.js';
import { toSerializedError } from '../../shared/errors.js';
import type { AppService } from '../app/api.js';
import { createRouter } from '../router/index.js';
import { APP_URL, registerAppScheme, serveAppScheme } from './app-protocol.js';
import type { BrowserWindow, ShellElectron } from './electron-api.js';
import { bindIpc } from './ipc-host.js';
import { buildAppMenu } from './menu.js';
import { allowPermission } from './permissions.js';
import { createTray, type TrayHandle } from './tray.js';
import { notifyApprovalRequests } from './approval-notifications.js';
import { createMainWindow, focusWindow, lockDownContents } from './window.js';

/** electron-builder's appId: Windows attributes notifications to the installer's shortcut by it. */
export const APP_ID = 'dev.chronoscope.app';

export interface DesktopAppOptions {
  /** The store home (also Electron's userData). */
  home: string;
  platform: NodeJS.Platform;
  /** dist/electron/shell/preload.cjs */
  preload: string;
  /** dist/renderer, served as app://chronoscope/ */
  rendererDir: string;
  /** build/ inside the app: icon.png, icon.ico, icons/tray* */
  resourcesDir: string;
  /** Whether a tray icon would be seen on this desktop now (tray-visibility.ts). */
  trayHostVisible(): Promise<boolean>;
  createService(home: string, version: string): Promise<AppService>;
}

export interface DesktopApp {
  /** Settles once the service, IPC, menu, tray and first window are up. */
  started: Promise<void>;
  /** The app's window from the moment it is constructed, until it closes. */
  window(): BrowserWindow | null;
}

interface OpenWindow {
  win: BrowserWindow;
  /** Settles when the renderer finished loading (events sent before that are lost). */
  loaded: Promise<void>;
}

function trayIconFile(platform: NodeJS.Platform): string {
  if (platform === 'win32') return 'tray.ico';
  return platform === 'darwin' ? 'trayTemplate.png' : 'tray-32.png';
}

/** Returns null when another instance holds the lock (it opens its window instead). */
export function startDesktopApp(electron: ShellElectron, options: DesktopAppOptions): DesktopApp | null {
  const { app, dialog } = electron;
  const { home, platform } = options;

  // ---- before ready: synchronous, so nothing races the ready event ----
  // One store for the app, the CLI and the hooks; Chromium's own profile data
  // goes in a subfolder so it never mixes with the store's files.
  app.setPath('userData', home);
  app.setPath('sessionData', join(home, 'electron-session'));
  // Without an AppUserModelID, Windows shows no notification for the app.
  if (platform === 'win32') app.setAppUserModelId(APP_ID);
  if (!app.requestSingleInstanceLock()) {
    app.exit(0);
    return null;
  }
  registerAppScheme(electron.protocol);

  let current: OpenWindow | null = null;
  let opening: Promise<OpenWindow> | null = null;
  let tray: TrayHandle | null = null;
  let service: AppService | null = null;
  let unbindIpc: (() => void) | null = null;
  let quitting = false;

  const appIcon = join(options.resourcesDir, platform === 'win32' ? 'icon.ico' : 'icon.png');

  const loadRenderer = (win: BrowserWindow): Promise<void> =>
    win.loadURL(APP_URL).catch((err: unknown) => {
      if (!win.isDestroyed()) dialog.showErrorBox('Chronoscope could not show its window', toSerializedError(err).message);
      throw err;
    });

  const createAndLoad = async (): Promise<OpenWindow> => {
    const win = await createMainWindow(electron, { home, preload: options.preload, icon: appIcon, devTools: !app.isPackaged });
    win.on('closed', () => {
      if (current?.win === win) current = null;
    });
    // The window is ours from now on, before its page loads: the renderer's
    // first IPC calls arrive during the load and must pass the sender check.
    const opened: OpenWindow = { win, loaded: Promise.resolve() };
    current = opened;
    opened.loaded = loadRenderer(win);
    opened.loaded.catch(() => undefined);
    return opened;
  };

  /** Focus the window, or create one; concurrent calls (a Dock click during a load) share one window. */
  const openWindow = (): Promise<OpenWindow> => {
    if (current && !current.win.isDestroyed()) {
      focusWindow(current.win);
      return Promise.resolve(current);
    }
    opening ??= createAndLoad().finally(() => {
      opening = null;
    });
    return opening;
  };

  const started = (async () => {
    await app.whenReady();
    const ses = electron.session.defaultSession;
    ses.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowPermission(permission, details.requestingUrl)));
    ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
      allowPermission(permission, details.requestingUrl ?? requestingOrigin),
    );
    serveAppScheme(electron.protocol, options.rendererDir);

    const svc = await options.createService(home, app.getVersion());
    service = svc;

    const pickFolder = async (): Promise<string | null> => {
      const dialogOptions = { title: 'Add a workspace', properties: ['openDirectory' as const, 'createDirectory' as const] };
      const win = current && !current.win.isDestroyed() ? current.win : null;
      const result = win ? await dialog.showOpenDialog(win, dialogOptions) : await dialog.showOpenDialog(dialogOptions);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    };
    const router = createRouter(svc, { pickFolder });

    /** The native dialog from the menu or the tray; the renderer and the tray learn of it through the service's events. */
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

    const showEffect = async (effect: EffectRecord): Promise<void> => {
      const { win, loaded } = await openWindow();
      focusWindow(win);
      // An event sent before the page listens is lost: a window opened for this waits for its load.
      await loaded;
      if (!win.isDestroyed()) svc.emit('ui:focusEffect', { workspace: effect.workspace, effect });
    };

    unbindIpc = bindIpc(electron.ipcMain, router, svc, () => current?.win ?? null);
    notifyApprovalRequests(electron, svc, () => void openWindow()); // ends with the service's bus
    electron.Menu.setApplicationMenu(
      buildAppMenu(electron.Menu, { addWorkspace: () => void addWorkspace(), isDev: !app.isPackaged, version: app.getVersion(), platform }),
    );

    try {
      tray = createTray(electron, {
        app: svc,
        platform,
        iconPath: join(options.resourcesDir, 'icons', trayIconFile(platform)),
        showWindow: () => void openWindow(),
        showEffect: (effect) => void showEffect(effect).catch(() => undefined),
        addWorkspace: () => void addWorkspace(),
        quit: () => app.quit(),
      });
    } catch {
      // No tray on this desktop: the window is the app.
      tray = null;
    }

    await openWindow();
  })();

  // Electron emits second-instance and activate only after ready; the service may still be starting.
  const whenStarted = (then: () => unknown) => void started.then(then, () => undefined);

  app.on('web-contents-created', (_event, contents) => lockDownContents(electron.shell, contents));
  // A second launch (the other process exits at once): show the window, opening one if it was closed.
  app.on('second-instance', () => whenStarted(() => openWindow()));
  app.on('activate', () => whenStarted(() => openWindow()));
  // The app keeps watching after its window closes only where the person can reach it again
  // from a tray icon they can see (an invisible GNOME status icon does not count).
  app.on('window-all-closed', () => {
    void (async () => {
      const keep = !quitting && tray !== null && (await options.trayHostVisible().catch(() => false));
      if (!keep && !current && !opening) app.quit();
    })();
  });
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    unbindIpc?.();
    tray?.dispose();
    tray = null;
    void (service?.dispose() ?? Promise.resolve()).finally(() => app.exit(0));
  });

  started.catch((err: unknown) => {
    dialog.showErrorBox('Chronoscope could not start', toSerializedError(err).message);
    app.exit(1);
  });

  return { started, window: () => current?.win ?? null };
}
