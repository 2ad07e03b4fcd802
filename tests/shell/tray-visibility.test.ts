// Whether a tray icon would be seen (electron/shell/tray-visibility.ts): the
// answers of gdbus and dbus-send as they print them, the fallbacks, and this
// machine's real answer (a headless box has no tray host: false).
import { describe, expect, it } from 'vitest';
import { isAppUrl } from '../../electron/shell/app-protocol.js';
import { trayHostVisible, type RunCommand } from '../../electron/shell/tray-visibility.js';

const answers = (byCommand: Record<string, string | null>): RunCommand => async (file) => byCommand[file] ?? null;

describe('trayHostVisible', () => {
  it('macOS and Windows always show it', async () => {
    const never: RunCommand = async () => {
      throw new Error('must not ask the bus');
    };
    expect(await trayHostVisible('darwin', never)).toBe(true);
    expect(await trayHostVisible('win32', never)).toBe(true);
  });

  it('Linux: a StatusNotifierWatcher on the session bus, asked through gdbus or dbus-send', async () => {
    expect(await trayHostVisible('linux', answers({ gdbus: '(true,)\n' }))).toBe(true);
    expect(await trayHostVisible('linux', answers({ gdbus: '(false,)\n' }))).toBe(false);
    expect(await trayHostVisible('linux', answers({ 'dbus-send': 'method return time=1 sender=org.freedesktop.DBus\n   boolean true\n' }))).toBe(true);
    expect(await trayHostVisible('linux', answers({ 'dbus-send': '   boolean false\n' }))).toBe(false);
  });

  it('Linux without a way to ask (no bus, no tools): not visible, so closing the window quits', async () => {
    expect(await trayHostVisible('linux', answers({}))).toBe(false);
    const real = await trayHostVisible('linux');
    if (!process.env['DBUS_SESSION_BUS_ADDRESS']) expect(real).toBe(false);
    else expect(typeof real).toBe('boolean');
  });
});

describe('isAppUrl in the main process (Node’s URL)', () => {
  it('recognises app://chronoscope/ by protocol and host (its origin here is "null")', () => {
    expect(new URL('app://chronoscope/index.html').origin).toBe('null');
    expect(isAppUrl('app://chronoscope/index.html')).toBe(true);
    expect(isAppUrl('app://chronoscope/assets/x.js?y#z')).toBe(true);
    expect(isAppUrl('app://evil/index.html')).toBe(false);
    expect(isAppUrl('https://chronoscope/index.html')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});
