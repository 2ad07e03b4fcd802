// The standard application menu. Reload and DevTools are development
// conveniences only: in the packaged app a reload would just drop the person's
// scroll and selection, and DevTools are switched off there.
import type { Menu as ElectronMenu, MenuItemConstructorOptions } from 'electron';
import type { ShellElectron } from './electron-api.js';

export interface MenuActions {
  addWorkspace(): void;
  isDev: boolean;
  version: string;
  platform: NodeJS.Platform;
}

export function buildAppMenu(Menu: ShellElectron['Menu'], actions: MenuActions): ElectronMenu {
  const isMac = actions.platform === 'darwin';
  const devItems: MenuItemConstructorOptions[] = actions.isDev
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }]
    : [];
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Add Workspace…', accelerator: 'CmdOrCtrl+O', click: () => actions.addWorkspace() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...devItems,
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: `Chronoscope ${actions.version}`, enabled: false }],
    },
  ];
  return Menu.buildFromTemplate(template);
}
