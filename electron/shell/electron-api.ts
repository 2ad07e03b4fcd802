// The part of Electron's main-process API the shell uses. The shell's modules
// take it as a parameter instead of importing 'electron', so main.ts (which
// passes the real module, checked against electron.d.ts) is the only file that
// needs Electron's binary, and the wiring runs under Node in tests.
import type * as Electron from 'electron';

export type ShellElectron = Pick<
  typeof Electron,
  | 'app'
  | 'BrowserWindow'
  | 'clipboard'
  | 'dialog'
  | 'ipcMain'
  | 'Menu'
  | 'nativeImage'
  | 'Notification'
  | 'protocol'
  | 'screen'
  | 'session'
  | 'shell'
  | 'Tray'
>;

export type { BrowserWindow, WebContents } from 'electron';
