// The tray: an icon whose menu lists the workspaces and the recent
// irreversible effects, and a notification for each new effect with the two
// things to do about it — copy the compensation command, or open the timeline
// at that moment. Notification buttons exist on macOS only (Electron's
// `actions`); elsewhere a click on the notification opens the timeline at the
// effect, and the tray menu (and the effects panel) offer the copy.
import type { MenuItemConstructorOptions, Notification } from 'electron';
import type { EffectRecord } from '../../shared/model.js';
import type { WorkspaceEntry } from '../../shared/ipc.js';
import type { AppService } from '../app/api.js';
import { effectBody, effectMenuLabel, effectTitle, notificationKey, shouldNotify } from './effect-text.js';
import type { ShellElectron } from './electron-api.js';

const RECENT_EFFECTS = 8;

export type TrayElectron = Pick<ShellElectron, 'clipboard' | 'Menu' | 'nativeImage' | 'Notification' | 'Tray'>;

export interface TrayDeps {
  app: AppService;
  platform: NodeJS.Platform;
  /** An ICO on Windows; elsewhere a PNG (16 or 32 px; the @2x file beside it is picked up by nativeImage). */
  iconPath: string;
  showWindow(): void;
  /** Focus the window and ask the renderer to select the moment of this effect. */
  showEffect(effect: EffectRecord): void;
  addWorkspace(): void;
  quit(): void;
}

export interface TrayHandle {
  /** Re-read workspaces and effects (after a change the service did not announce). */
  refresh(): void;
  dispose(): void;
}

export function createTray(electron: TrayElectron, deps: TrayDeps): TrayHandle {
  const { clipboard, Menu, nativeImage } = electron;
  const tray = new electron.Tray(nativeImage.createFromPath(deps.iconPath));
  const buttons = deps.platform === 'darwin';
  tray.setToolTip('Chronoscope');
  tray.on('click', () => deps.showWindow());

  // Notifications are kept referenced until closed: a collected one loses its handlers.
  const live = new Set<Notification>();
  const notified = new Set<string>();
  let disposed = false;

  const copy = (effect: EffectRecord) => {
    if (effect.compensation) clipboard.writeText(effect.compensation);
  };

  const effectItem = (effect: EffectRecord): MenuItemConstructorOptions => ({
    label: effectMenuLabel(effect),
    submenu: [
      { label: effect.compensation ? `Copy: ${effect.compensation}` : 'No compensation known', enabled: effect.compensation !== null, click: () => copy(effect) },
      { label: 'Show in timeline', click: () => deps.showEffect(effect) },
    ],
  });

  const workspaceItem = (ws: WorkspaceEntry): MenuItemConstructorOptions => ({
    label: `${ws.path}${ws.state === 'paused' ? ' (paused)' : ws.state === 'missing' ? ' (missing)' : ''}`,
    click: () => deps.showWindow(),
  });

  async function recentEffects(workspaces: WorkspaceEntry[]): Promise<EffectRecord[]> {
    const lists = await Promise.all(workspaces.map((ws) => deps.app.effects(ws.path).catch(() => [] as EffectRecord[])));
    return lists
      .flat()
      .sort((a, b) => b.time_ms - a.time_ms)
      .slice(0, RECENT_EFFECTS);
  }

  let rebuilding: Promise<void> | null = null;
  let rebuildAgain = false;
  async function rebuild(): Promise<void> {
    const workspaces = await deps.app.listWorkspaces().catch(() => [] as WorkspaceEntry[]);
    const effects = await recentEffects(workspaces);
    if (disposed) return;
    const template: MenuItemConstructorOptions[] = [
      { label: 'Open Chronoscope', click: () => deps.showWindow() },
      { label: 'Add Workspace…', click: () => deps.addWorkspace() },
      { type: 'separator' },
      { label: 'Workspaces', enabled: false },
      ...(workspaces.length ? workspaces.map(workspaceItem) : [{ label: 'None yet', enabled: false }]),
      { type: 'separator' },
      { label: 'Recent irreversible effects', enabled: false },
      ...(effects.length ? effects.map(effectItem) : [{ label: 'None recorded', enabled: false }]),
      { type: 'separator' },
      { label: 'Quit Chronoscope', click: () => deps.quit() },
    ];
    tray.setContextMenu(Menu.buildFromTemplate(template));
  }
  /** Coalesces bursts of events into at most one rebuild in flight and one queued. */
  function refresh(): void {
    if (rebuilding) {
      rebuildAgain = true;
      return;
    }
    rebuilding = rebuild()
      .catch(() => undefined)
      .finally(() => {
        rebuilding = null;
        if (rebuildAgain && !disposed) {
          rebuildAgain = false;
          refresh();
        }
      });
  }

  function notify(effect: EffectRecord): void {
    if (!shouldNotify(effect) || !electron.Notification.isSupported()) return;
    const key = notificationKey(effect);
    if (notified.has(key)) return;
    notified.add(key);
    const notification = new electron.Notification({
      title: effectTitle(effect),
      body: effectBody(effect, { buttons }),
      urgency: 'critical',
      ...(buttons
        ? {
            actions: [
              { type: 'button' as const, text: 'Copy compensation' },
              { type: 'button' as const, text: 'Show in timeline' },
            ],
          }
        : {}),
    });
    if (buttons) notification.on('action', (_event, index) => (index === 0 ? copy(effect) : deps.showEffect(effect)));
    notification.on('click', () => deps.showEffect(effect));
    notification.on('close', () => live.delete(notification));
    live.add(notification);
    notification.show();
  }

  const unsubscribe = [
    deps.app.on('effect:recorded', ({ effect }) => {
      notify(effect);
      refresh();
    }),
    deps.app.on('workspace:state', () => refresh()),
  ];
  refresh();

  return {
    refresh,
    dispose() {
      disposed = true;
      for (const off of unsubscribe) off();
      for (const n of live) n.close();
      live.clear();
      tray.destroy();
    },
  };
}
