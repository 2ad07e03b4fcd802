// build/electron-builder.yml and the icons, checked without building (which
// needs Electron's binary and the network): electron-builder's own loader and
// schema validation (app-builder-lib, its core package) read the file, its own
// default Linux dependencies are the baseline the packages must keep, and the
// committed ICO/ICNS files are what build/pack-icons.mjs makes of the PNGs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ID } from '../../electron/shell/desktop-app.js';
import { ICNS_TYPES, packIcons, pngSize } from '../../build/pack-icons.mjs';
import { REPO_ROOT } from '../paths.js';

const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};
const { default: FpmTarget } = require('app-builder-lib/out/targets/FpmTarget.js') as {
  default: { prototype: { getDefaultDepends(target: string): string[] } };
};

interface BuilderConfig {
  appId: string;
  /** As the loader normalises it: one file set. */
  files: { filter: string[] }[];
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
  deb: { depends: string[] };
  rpm: { depends: string[] };
  linux: { target: string[]; icon: string };
  mac: { icon: string };
  win: { icon: string };
}

async function loadConfig(): Promise<BuilderConfig> {
  const config = await getConfig(REPO_ROOT, join(REPO_ROOT, 'build', 'electron-builder.yml'), null);
  await validateConfiguration(config, { isEnabled: false, add() {} });
  return config as unknown as BuilderConfig;
}

describe('electron-builder configuration', () => {
  it("passes electron-builder's schema; its appId is the app's Windows AppUserModelID", async () => {
    const config = await loadConfig();
    expect(config.appId).toBe(APP_ID);
  });

  it('deb and rpm keep the default dependencies and add git; AppImage, deb and rpm are built', async () => {
    const config = await loadConfig();
    for (const target of ['deb', 'rpm'] as const) {
      const defaults = FpmTarget.prototype.getDefaultDepends(target);
      expect(defaults.length).toBeGreaterThan(3);
      expect(config[target].depends).toEqual([...defaults, 'git']);
    }
    expect(config.linux.target).toEqual(['AppImage', 'deb', 'rpm']);
  });

  it('the fuses close the doors a desktop app does not use', async () => {
    const { electronFuses } = await loadConfig();
    expect(electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it("@parcel/watcher's native binary is unpacked from the asar", async () => {
    const { asarUnpack } = await loadConfig();
    const { matchesGlob } = (await import('node:path')) as unknown as { matchesGlob(path: string, glob: string): boolean };
    const natives = readdirSync(join(REPO_ROOT, 'node_modules', '@parcel'))
      .flatMap((pkg) => readdirSync(join(REPO_ROOT, 'node_modules', '@parcel', pkg)).map((f) => join(REPO_ROOT, 'node_modules', '@parcel', pkg, f)))
      .filter((f) => f.endsWith('.node'))
      .map((f) => relative(REPO_ROOT, f).split(sep).join('/'));
    expect(natives.length).toBeGreaterThan(0);
    for (const file of natives) expect(asarUnpack.some((glob) => matchesGlob(file, glob))).toBe(true);
  });

  it('package.json has the homepage and author (with email) the Linux packages need', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { homepage?: string; author?: { name?: string; email?: string } };
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author?.name).toBeTruthy();
    expect(pkg.author?.email).toMatch(/@/);
  });

  it('icons in the format each OS wants, shipped where the app reads them at run time', async () => {
    const config = await loadConfig();
    expect(config.win.icon).toBe('build/icon.ico');
    expect(config.mac.icon).toBe('build/icon.icns');
    expect(existsSync(join(REPO_ROOT, config.linux.icon, '512x512.png'))).toBe(true);
    for (const file of ['build/icon.png', 'build/icon.ico', 'build/icons/tray.ico', 'build/icons/tray-32.png', 'build/icons/trayTemplate.png']) {
      expect(existsSync(join(REPO_ROOT, file))).toBe(true);
      expect(config.files[0]?.filter).toContain(file.endsWith('.png') && file.startsWith('build/icons/') ? 'build/icons/**/*.png' : file);
    }
  });
});

describe('the packed icons', () => {
  const packed = packIcons();

  it('are committed as pack-icons.mjs makes them from the PNGs', () => {
    for (const [name, bytes] of Object.entries(packed)) {
      expect(readFileSync(join(REPO_ROOT, 'build', name)).equals(bytes)).toBe(true);
    }
  });

  it('ICO: a directory of PNGs whose sizes match their entries', () => {
    for (const [name, sizes] of [['icon.ico', [16, 32, 48, 64, 128, 256]], ['icons/tray.ico', [16, 32, 64]]] as const) {
      const ico = readFileSync(join(REPO_ROOT, 'build', name));
      expect(ico.readUInt16LE(2)).toBe(1);
      expect(ico.readUInt16LE(4)).toBe(sizes.length);
      sizes.forEach((size, i) => {
        const at = 6 + 16 * i;
        expect(ico.readUInt8(at) || 256).toBe(size);
        const png = ico.subarray(ico.readUInt32LE(at + 12), ico.readUInt32LE(at + 12) + ico.readUInt32LE(at + 8));
        expect(pngSize(png)).toEqual({ width: size, height: size });
      });
    }
  });

  it('ICNS: every element holds a PNG of its type\'s size, and the lengths add up', () => {
    const icns = readFileSync(join(REPO_ROOT, 'build', 'icon.icns'));
    expect(icns.toString('ascii', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const seen: [string, number][] = [];
    for (let at = 8; at < icns.length; at += icns.readUInt32BE(at + 4)) {
      const png = icns.subarray(at + 8, at + icns.readUInt32BE(at + 4));
      seen.push([icns.toString('ascii', at, at + 4), pngSize(png).width]);
    }
    expect(seen).toEqual(ICNS_TYPES);
  });
});
