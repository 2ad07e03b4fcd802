// The desktop app's wiring (electron/shell/desktop-app.ts) under Node, against
// the Electron stand-in of ./electron-stand-in.ts — used only because Electron's
// binary cannot run on these machines (e2e/electron.spec.ts runs the real app
// where it can). Everything else is real: the app service on a temporary
// store with real git, the router, the preload's pipe, and in each page the
// renderer's own transport, stores and wiring, loaded fresh per page load.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppService } from '../../electron/app/app-service.js';
import type { AppService } from '../../electron/app/api.js';
import { EffectLedger } from '../../electron/effects/ledger.js';
import { APP_URL } from '../../electron/shell/app-protocol.js';
import { APP_ID, startDesktopApp, type DesktopApp } from '../../electron/shell/desktop-app.js';
import { IPC_INVOKE } from '../../electron/shell/ipc-channels.js';
import type { InvokeResult } from '../../shared/ipc.js';
import { tempDirs, waitFor, type TempDirs } from '../app/helpers.js';
import { REPO_ROOT } from '../paths.js';
import { createElectronStandIn, menuItem, type ElectronStandIn, type PageContext } from './electron-stand-in.js';

// The renderer's workspace store reads window.location; nothing else in the stores needs a DOM.
(globalThis as unknown as { window: unknown }).window = { location: { search: '' } };

/** One loaded page: the renderer's stores as that page's modules hold them. */
interface RendererPage {
  context: PageContext;
  workspaces: typeof import('../../renderer/src/state/workspaces.js').useWorkspaces;
  timeline: typeof import('../../renderer/src/state/timeline.js').useTimeline;
  banners: typeof import('../../renderer/src/state/banners.js').useBanners;
  /** The renderer's first invoke, made while the page loads, and whether did-finish-load had fired then. */
  firstInvoke: { result: Promise<unknown>; afterLoad: boolean };
}

/** What main.tsx does, with the preload's pipe over the frame's ipcRenderer. */
async function runRenderer(context: PageContext, pages: RendererPage[]): Promise<void> {
  vi.resetModules(); // a new page is a new renderer: fresh module state
  const [{ createPreloadApi }, { createElectronClient }, { setClient }, { startWiring }, ws, tl, bn] = await Promise.all([
    import('../../electron/shell/preload-api.js'),
    import('../../renderer/src/client/electron-transport.js'),
    import('../../renderer/src/state/client.js'),
    import('../../renderer/src/state/wiring.js'),
    import('../../renderer/src/state/workspaces.js'),
    import('../../renderer/src/state/timeline.js'),
    import('../../renderer/src/state/banners.js'),
  ]);
  const api = createPreloadApi(context.ipcRenderer as never);
  const firstInvoke = { result: api.invoke('app:info', {}), afterLoad: context.loaded() };
  // A test that never looks at it may end (and take the app down) while it is in flight: its
  // rejection then is the teardown's, not a finding. Tests that look at it still see it.
  firstInvoke.result.catch(() => undefined);
  setClient(createElectronClient(api));
  startWiring();
  pages.push({ context, workspaces: ws.useWorkspaces, timeline: tl.useTimeline, banners: bn.useBanners, firstInvoke });
}

interface Harness {
  dirs: TempDirs;
  standIn: ElectronStandIn;
  desktop: DesktopApp;
  pages: RendererPage[];
  service: () => AppService;
  trayVisible: { value: boolean };
  lastPage(): RendererPage;
}

async function startHarness(opts: { platform?: NodeJS.Platform; trayVisible?: boolean; isPackaged?: boolean } = {}): Promise<Harness> {
  const dirs = await tempDirs('chronoscope-shell-');
  const rendererDir = join(dirs.home, '..', 'renderer');
  await mkdir(rendererDir, { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Chronoscope</title><div id="root"></div>');
  const pages: RendererPage[] = [];
  const standIn = createElectronStandIn({ appPath: REPO_ROOT, isPackaged: opts.isPackaged, page: (context) => runRenderer(context, pages) });
  const trayVisible = { value: opts.trayVisible ?? false };
  let service: AppService | null = null;
  const desktop = startDesktopApp(standIn.electron, {
    home: dirs.home,
    platform: opts.platform ?? 'linux',
    preload: join(REPO_ROOT, 'dist', 'electron', 'shell', 'preload.cjs'),
    rendererDir,
    resourcesDir: join(REPO_ROOT, 'build'),
    trayHostVisible: async () => trayVisible.value,
    createService: async (home, version) => {
      service = await createAppService({ home, host: 'electron', version, watch: false, pollMs: 50 });
      return service;
    },
  });
  if (!desktop) throw new Error('the stand-in refused the single-instance lock');
  standIn.control.ready();
  await desktop.started;
  return {
    dirs,
    standIn,
    desktop,
    pages,
    trayVisible,
    service: () => {
      if (!service) throw new Error('no service');
      return service;
    },
    lastPage: () => {
      const page = pages[pages.length - 1];
      if (!page) throw new Error('no page loaded');
      return page;
    },
  };
}

async function loadedWindow(h: Harness, index: number) {
  const win = await waitFor(`window ${index}`, () => h.standIn.windows[index]);
  await waitFor(`window ${index} loaded`, () => win.webContents.finishedLoads > 0);
  return win;
}

let h: Harness | null = null;

async function stop(): Promise<void> {
  if (!h) return;
  const { standIn, dirs } = h;
  h = null;
  if (standIn.app.exitCode === null) standIn.app.quit();
  await waitFor('the app to exit', () => standIn.app.exitCode !== null);
  await dirs.cleanup();
}

afterEach(stop);

describe('the desktop app under the Electron stand-in', () => {
  describe('IPC', () => {
    beforeEach(async () => {
      h = await startHarness();
    });

    it("accepts the window's own IPC from the moment the window exists, during its load", async () => {
      const win = await loadedWindow(h!, 0);
      const page = h!.lastPage();
      expect(page.firstInvoke.afterLoad).toBe(false); // it was sent before did-finish-load
      const result = (await page.firstInvoke.result) as InvokeResult<{ host: string }>;
      expect(result).toMatchObject({ ok: true, value: { host: 'electron' } });
      // The renderer's own start-up calls (app:info, workspaces:list) passed too.
      await waitFor('the workspace list', () => page.workspaces.getState().status !== 'loading');
      expect(page.workspaces.getState().status).toBe('ready');
      expect(page.banners.getState()).not.toMatchObject({ banners: [expect.anything()] });
      expect(win.webContents.getURL()).toBe(APP_URL);
    });

    it('refuses IPC from any other sender: another window, an iframe, a page that is not ours', async () => {
      const win = await loadedWindow(h!, 0);
      const { control } = h!.standIn;
      const refused = { ok: false, error: { code: 'refused' } };

      const other = control.foreignWindow();
      other.webContents.mainFrame.url = APP_URL;
      expect(await control.invokeFrom(other.webContents, other.webContents.mainFrame, IPC_INVOKE, 'app:info', {})).toMatchObject(refused);

      const iframe = win.webContents.addChildFrame(APP_URL);
      expect(await control.invokeFrom(win.webContents, iframe, IPC_INVOKE, 'app:info', {})).toMatchObject(refused);

      const foreign = { ...win.webContents.mainFrame, url: 'https://example.com/' };
      expect(await control.invokeFrom(win.webContents, foreign, IPC_INVOKE, 'app:info', {})).toMatchObject(refused);

      // …while the window's own top frame still gets answers.
      expect(await control.invokeFrom(win.webContents, win.webContents.mainFrame, IPC_INVOKE, 'app:info', {})).toMatchObject({ ok: true });
    });
  });

  describe('windows and quitting', () => {
    it('a second launch with no window open opens one; with one open, focuses it', async () => {
      h = await startHarness({ trayVisible: true });
      const first = await loadedWindow(h, 0);
      h.standIn.control.launchAgain();
      await new Promise((r) => setTimeout(r, 50));
      expect(h.standIn.windows).toHaveLength(1);
      expect(first.focused).toBe(true);

      first.close();
      expect(h.desktop.window()).toBeNull();
      h.standIn.control.launchAgain();
      const second = await loadedWindow(h, 1);
      expect(h.desktop.window()).toBe(second);
      await waitFor('the new page to list workspaces', () => h!.lastPage().workspaces.getState().status === 'ready');
    });

    it('closing the last window quits when no tray is known to be visible', async () => {
      h = await startHarness({ trayVisible: false });
      const win = await loadedWindow(h, 0);
      expect(h.standIn.trays).toHaveLength(1); // Electron made a tray; the desktop just does not show it
      win.close();
      await waitFor('the app to quit', () => h!.standIn.app.exitCode !== null);
      expect(h.standIn.app.quitCalls).toBe(1);
      expect(h.standIn.app.exitCode).toBe(0);
      expect(h.standIn.trays[0]?.destroyed).toBe(true);
    });

    it('closing the last window keeps the app in a visible tray', async () => {
      h = await startHarness({ trayVisible: true });
      const win = await loadedWindow(h, 0);
      win.close();
      await new Promise((r) => setTimeout(r, 100));
      expect(h.standIn.app.quitCalls).toBe(0);
      expect(h.standIn.app.exitCode).toBeNull();
      // The tray's "Open Chronoscope" brings it back.
      const open = await waitFor('the tray menu', () => {
        const menu = h!.standIn.trays[0]?.menu;
        return menu ? menuItem(menu.items, 'Open Chronoscope') : undefined;
      });
      open.click?.();
      await loadedWindow(h, 1);
    });

    it('two requests for a window during a load make one window', async () => {
      h = await startHarness({ trayVisible: true });
      (await loadedWindow(h, 0)).close();
      h.standIn.control.launchAgain();
      h.standIn.app.emit('activate');
      h.standIn.control.launchAgain();
      await loadedWindow(h, 1);
      await new Promise((r) => setTimeout(r, 50));
      expect(h.standIn.windows).toHaveLength(2);
    });
  });

  describe('workspaces and effects reach the renderer', () => {
    it('a workspace added from the menu appears in the open window', async () => {
      h = await startHarness();
      await loadedWindow(h, 0);
      const page = h.lastPage();
      await waitFor('the empty list', () => page.workspaces.getState().status === 'ready');
      expect(page.workspaces.getState().list).toHaveLength(0);

      h.standIn.control.chooseFolder(h.dirs.workspace);
      const add = menuItem(h.standIn.applicationMenu()!.items, 'File', 'Add Workspace…');
      add?.click?.();
      await waitFor('the workspace in the renderer', () => page.workspaces.getState().list.some((w) => w.path === h!.dirs.workspace));
      expect(page.workspaces.getState().current).toBe(h.dirs.workspace);
    });

    /** A workspace with three checkpoints and a push recorded at the second. */
    async function effectAtSecondCheckpoint(harness: Harness) {
      const svc = harness.service();
      await svc.addWorkspace(harness.dirs.workspace);
      const ws = await svc.workspace(harness.dirs.workspace);
      const ids: string[] = [];
      for (const text of ['one', 'two', 'three']) {
        await writeFile(join(harness.dirs.workspace, 'notes.txt'), `${text}\n`);
        const result = await ws.snapshot({ reason: text });
        if (!result.id) throw new Error('no checkpoint');
        ids.push(result.id);
      }
      const second = ids[1]!;
      await new EffectLedger(harness.dirs.home, ws.meta.id).append({
        kind: 'git_push',
        target: 'origin main',
        command: 'git push origin main',
        compensation: 'git push --force-with-lease origin abc:main',
        summary: 'pushed main to origin',
        workspace: ws.meta.path,
        source: 'hook',
        status: 'happened',
        checkpoint: second,
        time_ms: Date.now() + 1000,
      });
      const notification = await waitFor('the notification', () => harness.standIn.notifications[0]);
      return { second, notification, latest: ids[2]! };
    }

    it('clicking the notification with the window closed opens the window at that checkpoint', async () => {
      h = await startHarness({ trayVisible: true });
      (await loadedWindow(h, 0)).close();
      const { second, notification } = await effectAtSecondCheckpoint(h);
      expect(notification.shown).toBe(true);
      // Not macOS: no buttons; the body says where the actions are.
      expect(notification.options.actions).toBeUndefined();
      expect(notification.options.body).toContain('Click to show it in the timeline; the tray menu copies the command.');

      notification.emit('click');
      await loadedWindow(h, 1);
      const page = h.lastPage();
      await waitFor('the checkpoint selected', () => page.timeline.getState().selectedId === second);
      expect(page.workspaces.getState().current).toBe(h.dirs.workspace);
    });

    it("the tray's Show in timeline opens the window at that checkpoint; its Copy item copies the compensation", async () => {
      h = await startHarness({ trayVisible: true });
      (await loadedWindow(h, 0)).close();
      const { second } = await effectAtSecondCheckpoint(h);
      const tray = h.standIn.trays[0]!;
      const effectMenu = await waitFor('the effect in the tray menu', () => tray.menu?.items.find((i) => i.label?.includes('pushed main to origin')));
      menuItem([effectMenu], effectMenu.label!, 'Copy:')?.click?.();
      expect(h.standIn.clipboardWrites).toEqual(['git push --force-with-lease origin abc:main']);

      menuItem([effectMenu], effectMenu.label!, 'Show in timeline')?.click?.();
      await loadedWindow(h, 1);
      await waitFor('the checkpoint selected', () => h!.lastPage().timeline.getState().selectedId === second);
    });

    it('a "Show in timeline" that reaches a page before its list of workspaces waits for the list', async () => {
      h = await startHarness({ trayVisible: true });
      await loadedWindow(h, 0);
      const { second, notification } = await effectAtSecondCheckpoint(h);
      const page = h.lastPage();
      // As in a page that has just started: the list is still on its way.
      page.workspaces.setState({ status: 'loading', list: [], current: null });
      notification.emit('click');
      await new Promise((r) => setTimeout(r, 200));
      expect(page.timeline.getState().selectedId).not.toBe(second);
      await page.workspaces.getState().load();
      await waitFor('the checkpoint selected', () => page.timeline.getState().selectedId === second);
    });

    it('on macOS the notification has the two buttons: copy, and show in timeline', async () => {
      h = await startHarness({ platform: 'darwin' });
      await loadedWindow(h, 0);
      const { notification } = await effectAtSecondCheckpoint(h);
      expect(notification.options.actions?.map((a) => a.text)).toEqual(['Copy compensation', 'Show in timeline']);
      notification.emit('action', {}, 0);
      expect(h.standIn.clipboardWrites).toEqual(['git push --force-with-lease origin abc:main']);
    });
  });

  describe('hardening', () => {
    it('guards navigation once per web contents, lets app:// through, sends the web to the browser', async () => {
      h = await startHarness();
      const win = await loadedWindow(h, 0);
      const contents = win.webContents;
      expect(contents.listenerCount('will-navigate')).toBe(1);
      expect(contents.listenerCount('will-redirect')).toBe(1);

      const inApp = { url: 'app://chronoscope/index.html?workspace=x', defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      contents.emit('will-navigate', inApp);
      expect(inApp.defaultPrevented).toBe(false);
      const web = { url: 'https://example.com/docs', defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      contents.emit('will-navigate', web);
      expect(web.defaultPrevented).toBe(true);
      expect(h.standIn.openedExternally).toEqual(['https://example.com/docs']);
      expect(contents.windowOpenHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    });

    it('answers permission checks and requests: only clipboard writes, only from app://', async () => {
      h = await startHarness();
      const { checkHandler, requestHandler } = h.standIn.defaultSession;
      expect(checkHandler?.(null, 'clipboard-sanitized-write', 'app://chronoscope', { requestingUrl: APP_URL })).toBe(true);
      expect(checkHandler?.(null, 'clipboard-sanitized-write', 'https://example.com', { requestingUrl: 'https://example.com/' })).toBe(false);
      for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read']) {
        expect(checkHandler?.(null, permission, 'app://chronoscope', { requestingUrl: APP_URL })).toBe(false);
        const granted = await new Promise((resolve) => requestHandler?.(null, permission, resolve, { requestingUrl: APP_URL }));
        expect(granted).toBe(false);
      }
    });

    it('DevTools and reload are off in a packaged build, on in development', async () => {
      h = await startHarness({ isPackaged: true });
      const win = await loadedWindow(h, 0);
      expect((win.options['webPreferences'] as { devTools?: boolean }).devTools).toBe(false);
      const view = menuItem(h.standIn.applicationMenu()!.items, 'View');
      const roles = (view?.submenu as { role?: string }[]).map((i) => i.role);
      expect(roles).not.toContain('toggleDevTools');
      expect(roles).not.toContain('reload');
      await stop();

      h = await startHarness({ isPackaged: false });
      const dev = await loadedWindow(h, 0);
      expect((dev.options['webPreferences'] as { devTools?: boolean }).devTools).toBe(true);
    });

    it('on Windows: the AppUserModelID is the installer appId, the tray icon an ICO', async () => {
      h = await startHarness({ platform: 'win32' });
      expect(h.standIn.app.appUserModelId).toBe(APP_ID);
      expect(h.standIn.trays[0]?.image.path).toMatch(/tray\.ico$/);
      await loadedWindow(h, 0);
      expect(h.standIn.windows[0]?.options['icon']).toMatch(/icon\.ico$/);
    });

    it('the app:// scheme is registered before ready and stores Chromium data beside, not inside, the store', async () => {
      h = await startHarness();
      expect(h.standIn.privilegedSchemes.map((s) => s.scheme)).toEqual(['app']);
      expect(h.standIn.app.paths.get('userData')).toBe(h.dirs.home);
      expect(h.standIn.app.paths.get('sessionData')).toBe(join(h.dirs.home, 'electron-session'));
    });
  });

  it('a second instance exits at once and starts nothing', () => {
    const standIn = createElectronStandIn({ appPath: REPO_ROOT, otherInstance: true });
    const desktop = startDesktopApp(standIn.electron, {
      home: '/nonexistent',
      platform: 'linux',
      preload: '',
      rendererDir: '',
      resourcesDir: '',
      trayHostVisible: async () => false,
      createService: () => Promise.reject(new Error('must not start')),
    });
    expect(desktop).toBeNull();
    expect(standIn.app.exitCode).toBe(0);
    expect(standIn.privilegedSchemes).toEqual([]);
  });
});
