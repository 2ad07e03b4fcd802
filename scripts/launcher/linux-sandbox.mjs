// Why Electron's Chromium would abort at start on this Linux box, and the
// exact commands that fix it. Ubuntu 23.10+ (AppArmor's
// apparmor_restrict_unprivileged_userns=1) and Debian-style kernels with
// unprivileged_userns_clone=0 deny the user-namespace sandbox; Chromium then
// needs its setuid helper, chrome-sandbox, owned by root with mode 4755 —
// which an npm install never makes it. Pure (all reads injected) so it is
// tested without such a machine.
import { dirname, join } from 'node:path';

const APPARMOR_KNOB = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';
const DEBIAN_KNOB = '/proc/sys/kernel/unprivileged_userns_clone';
const PROFILE_NAME = 'chronoscope-electron';

/**
 * @typedef {object} SandboxProbe
 * @property {NodeJS.Platform} platform
 * @property {number | null} uid            the launcher's user id (root may make namespaces)
 * @property {string} binary                Electron's executable
 * @property {readonly string[]} args       the app's arguments (--no-sandbox is the person's choice)
 * @property {(path: string) => string | null} read          a file's text, or null
 * @property {(path: string) => { uid: number, mode: number } | null} stat
 * @property {(dir: string) => string[]} list               file names in a folder ([] if none)
 */

/** @param {SandboxProbe} probe @returns {{ why: string, commands: string[] } | null} */
export function sandboxProblem(probe) {
  if (probe.platform !== 'linux' || probe.uid === 0 || probe.args.includes('--no-sandbox')) return null;
  const apparmor = probe.read(APPARMOR_KNOB)?.trim() === '1';
  const debian = probe.read(DEBIAN_KNOB)?.trim() === '0';
  if (!apparmor && !debian) return null;

  const helper = join(dirname(probe.binary), 'chrome-sandbox');
  const st = probe.stat(helper);
  if (st && st.uid === 0 && (st.mode & 0o4777) === 0o4755) return null;
  if (apparmor && hasAppArmorProfile(probe)) return null;

  const setuid = [`sudo chown root:root '${helper}'`, `sudo chmod 4755 '${helper}'`];
  if (!apparmor) {
    return {
      why: `this kernel does not let unprivileged users create namespaces (${DEBIAN_KNOB} is 0), and Electron's sandbox helper ${helper} is not root-owned with mode 4755`,
      commands: setuid,
    };
  }
  const profile = `/etc/apparmor.d/${PROFILE_NAME}`;
  return {
    why: `AppArmor restricts unprivileged user namespaces here (Ubuntu 23.10 and later: ${APPARMOR_KNOB} is 1), no AppArmor profile allows them for ${probe.binary}, and its sandbox helper chrome-sandbox is not root-owned with mode 4755`,
    commands: [
      `# either: an AppArmor profile that allows Electron's sandbox (the way Ubuntu recommends)`,
      `sudo tee ${profile} >/dev/null <<'EOF'`,
      'abi <abi/4.0>,',
      'include <tunables/global>',
      `profile ${PROFILE_NAME} "${probe.binary}" flags=(unconfined) {`,
      '  userns,',
      `  include if exists <local/${PROFILE_NAME}>`,
      '}',
      'EOF',
      `sudo apparmor_parser -r ${profile}`,
      `# or: make the setuid sandbox helper usable`,
      ...setuid,
    ],
  };
}

function hasAppArmorProfile(probe) {
  for (const name of probe.list('/etc/apparmor.d')) {
    const text = probe.read(join('/etc/apparmor.d', name));
    if (text && text.includes(probe.binary) && /\buserns\b/.test(text)) return true;
  }
  return false;
}
