// A stand-in for the part of Electron's main-process API the shell uses
// (`ShellElectron` in electron/shell/electron-api.ts), for tests under Node.
//
// Why a stand-in at all: Electron's binary cannot be downloaded on these
// machines, so the real shell cannot start here. e2e/electron.spec.ts runs the
// real flows wherever the binary exists; this file exists only so the shell's
// wiring (which window owns the IPC, what a second launch or a closed window
// does, where "Show in timeline" leads) is tested at all. It implements only
// the calls the shell makes, and follows Electron's documented order:
//
//   main script runs (setPath, requestSingleInstanceLock, registerSchemesAsPrivileged)
//   → ready (control.ready(); BrowserWindow, Tray, screen, session, protocol.handle only from here)
//   → new BrowserWindow (web-contents-created is emitted inside the constructor)
//   → loadURL: did-start-loading, the request through the protocol handler,
//     the page's scripts run and call ipcRenderer.invoke, dom-ready, ready-to-show,
//     did-finish-load, then loadURL's promise resolves — so IPC arrives before did-finish-load
//   → second-instance (only after ready), close → closed → window-all-closed (or quit
//     when nothing listens), quit → before-quit (preventable) → will-quit → quit.
//
// The page side is a test-supplied function given the frame's ipcRenderer; the
// tests run the real renderer stores and transport in it.
import { EventEmitter } from 'node:events';
import type { ShellElectron } from '../../electron/shell/electron-api.js';

type Listener = (event: unknown, ...args: unknown[]) => void;

export interface Frame {
  processId: number;
  routingId: number;
  url: string;
}

/** What the page's scripts get: the frame's ipcRenderer (the preload's view of it). */
export interface PageContext {
  url: string;
  ipcRenderer: {
    invoke(channel: string, ...args: unknown[]): Promise<unknown>;
    on(channel: string, listener: Listener): void;
    off(channel: string, listener: Listener): void;
  };
  /** Whether did-finish-load had fired (for asserting that IPC came before it). */
  loaded(): boolean;
}

export type Page = (context: PageContext) => void | Promise<void>;

export interface StandInOptions {
  appPath: string;
  isPackaged?: boolean;
  /** Another instance already holds the single-instance lock. */
  otherInstance?: boolean;
  /** The renderer: what the page does once its document is committed. */
  page?: Page;
}

interface PrivilegedScheme {
  scheme: string;
}

let nextProcessId = 100;
let nextWebContentsId = 1;

const immediate = () => new Promise<void>((resolve) => setImmediate(resolve));

function preventable(extra: Record<string, unknown> = {}) {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
    ...extra,
  };
  return event;
}

export function createElectronStandIn(options: StandInOptions) {
  let ready = false;
  let markReady!: () => void;
  const whenReadyPromise = new Promise<void>((resolve) => (markReady = resolve));
  const requireReady = (what: string) => {
    if (!ready) throw new Error(`${what} cannot be used before the app is ready`);
  };

  // ---- app ----
  class StandInApp extends EventEmitter {
    readonly paths = new Map<string, string>();
    isPackaged = options.isPackaged ?? false;
    appUserModelId: string | null = null;
    exitCode: number | null = null;
    quitCalls = 0;
    setPath(name: string, path: string): void {
      this.paths.set(name, path);
    }
    getAppPath(): string {
      return options.appPath;
    }
    getVersion(): string {
      return '0.0.0-stand-in';
    }
    setAppUserModelId(id: string): void {
      this.appUserModelId = id;
    }
    requestSingleInstanceLock(): boolean {
      return !options.otherInstance;
    }
    isReady(): boolean {
      return ready;
    }
    whenReady(): Promise<void> {
      return whenReadyPromise;
    }
    /** Ends at once: no before-quit, no close events. */
    exit(code = 0): void {
      if (this.exitCode === null) this.exitCode = code;
      for (const win of [...windows]) win.destroyForExit();
    }
    quit(): void {
      this.quitCalls++;
      const event = preventable();
      this.emit('before-quit', event);
      if (event.defaultPrevented) return;
      for (const win of [...windows]) win.close();
      this.emit('will-quit', preventable());
      this.emit('quit', preventable(), 0);
      this.exit(0);
    }
  }
  const app = new StandInApp();

  // ---- protocol ----
  type ProtocolHandler = (request: Request) => Response | Promise<Response>;
  const privileged: PrivilegedScheme[] = [];
  const protocolHandlers = new Map<string, ProtocolHandler>();
  const protocol = {
    registerSchemesAsPrivileged(schemes: PrivilegedScheme[]): void {
      if (ready) throw new Error('registerSchemesAsPrivileged must be called before the app is ready');
      privileged.push(...schemes);
    },
    handle(scheme: string, handler: ProtocolHandler): void {
      requireReady('protocol.handle');
      protocolHandlers.set(scheme, handler);
    },
  };

  // ---- session ----
  type CheckHandler = (contents: unknown, permission: string, origin: string, details: { requestingUrl?: string }) => boolean;
  type RequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl: string }) => void;
  const defaultSession = {
    checkHandler: null as CheckHandler | null,
    requestHandler: null as RequestHandler | null,
    setPermissionCheckHandler(handler: CheckHandler | null): void {
      this.checkHandler = handler;
    },
    setPermissionRequestHandler(handler: RequestHandler | null): void {
      this.requestHandler = handler;
    },
  };
  const session = {
    get defaultSession() {
      requireReady('session.defaultSession');
      return defaultSession;
    },
  };

  // ---- ipcMain ----
  type InvokeHandler = (event: unknown, ...args: unknown[]) => unknown;
  const handlers = new Map<string, InvokeHandler>();
  const ipcMain = {
    handle(channel: string, handler: InvokeHandler): void {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, handler);
    },
    removeHandler(channel: string): void {
      handlers.delete(channel);
    },
  };

  /** An invoke as Electron delivers it: the handler sees the sending webContents and frame; values are cloned. */
  async function invokeFrom(sender: StandInWebContents, frame: Frame, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const event = { sender, senderFrame: frame, processId: frame.processId, frameId: frame.routingId };
    return structuredClone(await handler(event, ...structuredClone(args)));
  }

  // ---- web contents and windows ----
  class StandInWebContents extends EventEmitter {
    readonly id = nextWebContentsId++;
    readonly mainFrame: Frame;
    readonly childFrames: Frame[] = [];
    windowOpenHandler: ((details: { url: string }) => { action: 'deny' | 'allow' }) | null = null;
    finishedLoads = 0;
    private destroyed = false;
    private pageListeners = new Map<string, Set<Listener>>();
    constructor() {
      super();
      const processId = nextProcessId++;
      this.mainFrame = { processId, routingId: 1, url: '' };
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    destroy(): void {
      this.destroyed = true;
      this.pageListeners.clear();
    }
    getURL(): string {
      return this.mainFrame.url;
    }
    setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' | 'allow' }): void {
      this.windowOpenHandler = handler;
    }
    /** main → page; delivered asynchronously, lost if no page listens (as in Electron). */
    send(channel: string, ...args: unknown[]): void {
      if (this.destroyed) throw new Error('Object has been destroyed');
      const payload = structuredClone(args);
      setImmediate(() => {
        for (const listener of this.pageListeners.get(channel) ?? []) listener({ sender: null }, ...payload);
      });
    }
    /** An iframe inside the page (same process, its own routing id). */
    addChildFrame(url: string): Frame {
      const frame = { processId: this.mainFrame.processId, routingId: this.mainFrame.routingId + 1 + this.childFrames.length, url };
      this.childFrames.push(frame);
      return frame;
    }
    async loadURL(url: string): Promise<void> {
      this.emit('did-start-loading');
      const scheme = new URL(url).protocol.replace(/:$/, '');
      const handler = protocolHandlers.get(scheme);
      if (handler) {
        const response = await handler(new Request(url));
        if (response.status !== 200) {
          this.emit('did-fail-load', preventable(), -6, 'ERR_FILE_NOT_FOUND', url, true);
          throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`);
        }
      } else if (scheme !== 'about') {
        throw new Error(`ERR_UNKNOWN_URL_SCHEME (-302) loading '${url}'`);
      }
      if (this.destroyed) throw new Error('ERR_ABORTED (-3)');
      // The document commits: a new page, with no listeners yet.
      this.mainFrame.url = url;
      this.pageListeners = new Map();
      let finished = false;
      const frame = this.mainFrame;
      const context: PageContext = {
        url,
        ipcRenderer: {
          invoke: (channel, ...args) => invokeFrom(this, frame, channel, ...args),
          on: (channel, listener) => {
            const set = this.pageListeners.get(channel) ?? new Set<Listener>();
            set.add(listener);
            this.pageListeners.set(channel, set);
          },
          off: (channel, listener) => {
            this.pageListeners.get(channel)?.delete(listener);
          },
        },
        loaded: () => finished,
      };
      await options.page?.(context);
      this.emit('dom-ready');
      owners.get(this)?.emit('ready-to-show');
      // The page's first IPC calls are in flight now; the load event does not wait for them.
      await immediate();
      if (this.destroyed) throw new Error('ERR_ABORTED (-3)');
      finished = true;
      this.finishedLoads++;
      this.emit('did-finish-load');
    }
  }

  const owners = new WeakMap<StandInWebContents, StandInBrowserWindow>();
  const windows: StandInBrowserWindow[] = [];
  const created: StandInBrowserWindow[] = [];

  class StandInBrowserWindow extends EventEmitter {
    static getAllWindows(): StandInBrowserWindow[] {
      return [...windows];
    }
    readonly webContents = new StandInWebContents();
    readonly options: Record<string, unknown>;
    visible = false;
    focused = false;
    minimized = false;
    maximized = false;
    private destroyed = false;
    constructor(windowOptions: Record<string, unknown> = {}) {
      requireReady('BrowserWindow');
      super();
      this.options = windowOptions;
      owners.set(this.webContents, this);
      windows.push(this);
      created.push(this);
      app.emit('web-contents-created', preventable(), this.webContents);
    }
    loadURL(url: string): Promise<void> {
      return this.webContents.loadURL(url);
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    show(): void {
      this.visible = true;
    }
    focus(): void {
      this.focused = true;
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    restore(): void {
      this.minimized = false;
    }
    maximize(): void {
      this.maximized = true;
    }
    isMaximized(): boolean {
      return this.maximized;
    }
    getNormalBounds() {
      return { x: 10, y: 10, width: 1280, height: 820 };
    }
    close(): void {
      if (this.destroyed) return;
      const event = preventable();
      this.emit('close', event);
      if (event.defaultPrevented) return;
      this.finishClose(true);
    }
    destroyForExit(): void {
      if (!this.destroyed) this.finishClose(false);
    }
    private finishClose(announce: boolean): void {
      this.destroyed = true;
      this.webContents.destroy();
      windows.splice(windows.indexOf(this), 1);
      this.emit('closed');
      if (!announce || windows.length > 0) return;
      // Electron quits on its own when the last window closes, unless the app listens.
      if (app.listenerCount('window-all-closed') > 0) app.emit('window-all-closed');
      else app.quit();
    }
  }

  // ---- menu, tray, notifications, the rest ----
  interface MenuItem {
    label?: string;
    role?: string;
    type?: string;
    enabled?: boolean;
    click?: () => void;
    submenu?: MenuItem[] | StandInMenu;
  }
  class StandInMenu {
    constructor(readonly items: MenuItem[]) {}
  }
  let applicationMenu: StandInMenu | null = null;
  const Menu = {
    buildFromTemplate(template: MenuItem[]): StandInMenu {
      return new StandInMenu(template);
    },
    setApplicationMenu(menu: StandInMenu | null): void {
      applicationMenu = menu;
    },
  };

  const trays: StandInTray[] = [];
  class StandInTray extends EventEmitter {
    menu: StandInMenu | null = null;
    toolTip = '';
    destroyed = false;
    constructor(readonly image: { path: string }) {
      requireReady('Tray');
      super();
      trays.push(this);
    }
    setToolTip(text: string): void {
      this.toolTip = text;
    }
    setContextMenu(menu: StandInMenu | null): void {
      this.menu = menu;
    }
    destroy(): void {
      this.destroyed = true;
    }
  }

  const notifications: StandInNotification[] = [];
  class StandInNotification extends EventEmitter {
    static isSupported(): boolean {
      return true;
    }
    shown = false;
    constructor(readonly options: { title?: string; body?: string; actions?: { type: string; text: string }[] }) {
      super();
      notifications.push(this);
    }
    show(): void {
      this.shown = true;
    }
    close(): void {
      this.emit('close', preventable());
    }
  }

  const clipboardWrites: string[] = [];
  const errorBoxes: { title: string; content: string }[] = [];
  const opened: string[] = [];
  let nextFolder: string | null = null;

  const electron = {
    app,
    BrowserWindow: StandInBrowserWindow,
    clipboard: {
      writeText(text: string): void {
        clipboardWrites.push(text);
      },
    },
    dialog: {
      async showOpenDialog(..._args: unknown[]) {
        const folder = nextFolder;
        nextFolder = null;
        return folder ? { canceled: false, filePaths: [folder] } : { canceled: true, filePaths: [] };
      },
      showErrorBox(title: string, content: string): void {
        errorBoxes.push({ title, content });
      },
    },
    ipcMain,
    Menu,
    nativeImage: {
      createFromPath(path: string) {
        return { path };
      },
    },
    Notification: StandInNotification,
    protocol,
    screen: {
      getAllDisplays() {
        requireReady('screen');
        return [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }];
      },
    },
    session,
    shell: {
      async openExternal(url: string): Promise<void> {
        opened.push(url);
      },
    },
    Tray: StandInTray,
  };

  return {
    /** Cast once, here: the stand-in implements the calls the shell makes, not all of Electron. */
    electron: electron as unknown as ShellElectron,
    app,
    defaultSession,
    /** Every window ever constructed, in order (closed ones included). */
    windows: created,
    trays,
    notifications,
    clipboardWrites,
    errorBoxes,
    openedExternally: opened,
    privilegedSchemes: privileged,
    applicationMenu: () => applicationMenu,
    control: {
      /** The ready event: Electron emits it once, after the main script ran. */
      ready(): void {
        ready = true;
        app.emit('ready', preventable(), {});
        markReady();
      },
      /** What the first instance sees when the app is started again. */
      launchAgain(argv: string[] = []): void {
        requireReady('second-instance');
        app.emit('second-instance', preventable(), argv, process.cwd(), {});
      },
      /** The answer the next folder dialog gives (null: cancelled). */
      chooseFolder(path: string | null): void {
        nextFolder = path;
      },
      /** An invoke from any frame of any web contents (a foreign sender, an iframe). */
      invokeFrom,
      /** A window the app did not make, e.g. one a dependency opened. */
      foreignWindow(): StandInBrowserWindow {
        return new StandInBrowserWindow({});
      },
    },
  };
}

export type ElectronStandIn = ReturnType<typeof createElectronStandIn>;

/** Finds a menu item by its path of labels (e.g. 'File', 'Add Workspace…'). */
export function menuItem(items: readonly { label?: string; submenu?: unknown }[], ...labels: string[]) {
  let level: readonly { label?: string; submenu?: unknown; click?: () => void; role?: string }[] = items;
  let found: { label?: string; submenu?: unknown; click?: () => void; role?: string } | undefined;
  for (const label of labels) {
    found = level.find((i) => i.label === label || i.label?.startsWith(label));
    if (!found) return undefined;
    const sub = found.submenu as { items?: unknown[] } | unknown[] | undefined;
    level = (Array.isArray(sub) ? sub : ((sub as { items?: unknown[] } | undefined)?.items ?? [])) as typeof level;
  }
  return found;
}
