// Whether a tray icon will actually be seen. `new Tray()` succeeds on every
// Linux desktop, but Electron's icon there is a StatusNotifierItem, shown only
// where a StatusNotifierWatcher runs on the session bus (KDE, most others;
// stock GNOME only with the AppIndicator extension). Elsewhere the icon is
// invisible, so a closed window must quit the app rather than leave a process
// nobody can reach. Plain Node (no Electron) so it is tested without the binary.
import { execFile } from 'node:child_process';

/** Runs a command and gives its stdout, or null if it could not run or failed. */
export type RunCommand = (file: string, args: readonly string[]) => Promise<string | null>;

const WATCHER = 'org.kde.StatusNotifierWatcher';

export const runCommand: RunCommand = (file, args) =>
  new Promise((resolve) => {
    execFile(file, [...args], { timeout: 2000, encoding: 'utf8' }, (err, stdout) => resolve(err ? null : stdout));
  });

/** Asks the session bus whether a tray host is there: gdbus (GLib) or dbus-send, whichever the desktop has. */
export async function trayHostVisible(platform: NodeJS.Platform, run: RunCommand = runCommand): Promise<boolean> {
  // The menu bar (macOS) and the notification area (Windows) are always there.
  if (platform === 'darwin' || platform === 'win32') return true;
  const gdbus = await run('gdbus', [
    'call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path', '/org/freedesktop/DBus',
    '--method', 'org.freedesktop.DBus.NameHasOwner', WATCHER,
  ]);
  if (gdbus !== null) return /\(\s*true\s*,?\s*\)/.test(gdbus);
  const dbusSend = await run('dbus-send', [
    '--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus',
    'org.freedesktop.DBus.NameHasOwner', `string:${WATCHER}`,
  ]);
  if (dbusSend !== null) return /boolean\s+true/.test(dbusSend);
  return false; // cannot tell: treat the tray as unseen, so closing the window quits
}
