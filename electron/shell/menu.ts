// The standard application menu. Reload is a development convenience only: in
// the packaged app a reload would just drop the person's scroll and selection.
import { app, Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  addWorkspace(): void;
  isDev: boolean;
}

export function buildAppMenu(actions: MenuActions): Menu {
  const isMac = process.platform === 'darwin';
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
        ...(actions.isDev ? ([{ role: 'reload' }, { role: 'forceReload' }] as const) : []),
        { role: 'toggleDevTools' },
        { type: 'separator' },
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
      submenu: [{ label: `Chronoscope ${app.getVersion()}`, enabled: false }],
    },
  ];
  return Menu.buildFromTemplate(template);
}
