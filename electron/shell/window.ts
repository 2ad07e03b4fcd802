// The main window: sandboxed, isolated, no Node; it may show our renderer and
// nothing else. Links to the web open in the system browser; every other
// navigation and every window.open is refused.
import { join } from 'node:path';
import { isAppUrl } from './app-protocol.js';
import type { BrowserWindow, ShellElectron, WebContents } from './electron-api.js';
import { DEFAULT_SIZE, fitToDisplays, loadWindowState, MIN_SIZE, saveWindowState, type WindowState } from './window-state.js';

export interface MainWindowOptions {
  /** The store home; window-state.json lives there. */
  home: string;
  /** dist/electron/shell/preload.cjs */
  preload: string;
  icon?: string;
  /** Off in packaged builds: DevTools there would only be a way to poke at the IPC. */
  devTools: boolean;
}

function openExternally(shell: ShellElectron['shell'], url: string): void {
  try {
    const { protocol } = new URL(url);
    if (protocol === 'https:' || protocol === 'http:') void shell.openExternal(url);
  } catch {
    // not a URL: nothing to open
  }
}

/** Navigation guards for every web contents; attached once, from app's web-contents-created. */
export function lockDownContents(shell: ShellElectron['shell'], contents: WebContents): void {
  contents.on('will-navigate', (event) => {
    if (!isAppUrl(event.url)) {
      event.preventDefault();
      openExternally(shell, event.url);
    }
  });
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(shell, url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * Constructs the window without loading it: the caller records it as the app's
 * window first, then loads the renderer, so IPC made during the load counts.
 */
export async function createMainWindow(electron: Pick<ShellElectron, 'BrowserWindow' | 'screen'>, options: MainWindowOptions): Promise<BrowserWindow> {
  const stateFile = join(options.home, 'window-state.json');
  const saved = await loadWindowState(stateFile);
  const bounds = fitToDisplays(
    saved.bounds,
    electron.screen.getAllDisplays().map((d) => d.workArea),
  );

  const win = new electron.BrowserWindow({
    ...(bounds ?? DEFAULT_SIZE),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    title: 'Chronoscope',
    show: false,
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      devTools: options.devTools,
    },
  });
  if (saved.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  // Remember bounds as they change (debounced) and once more on close.
  let timer: NodeJS.Timeout | undefined;
  const remember = () => {
    if (win.isDestroyed()) return;
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    void saveWindowState(stateFile, state).catch(() => undefined);
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(remember, 500);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', () => {
    clearTimeout(timer);
    remember();
  });
  return win;
}

export function focusWindow(win: BrowserWindow): void {
  if (win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
