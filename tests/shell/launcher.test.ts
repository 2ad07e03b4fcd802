// `npm start`'s launcher (scripts/start-electron.mjs) as a real process, in a
// copy of the project whose node_modules/electron has no binary, against a
// local mirror (ELECTRON_MIRROR) standing in for Electron's download host —
// serving a small zip with the files Electron's install.js looks for. The real
// @electron/get downloads it and the real install.js extracts it. Plus the
// Ubuntu 24.04 sandbox check, fed the files such a machine has.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxProblem } from '../../scripts/launcher/linux-sandbox.mjs';
import { tempDirs, type TempDirs } from '../app/helpers.js';
import { REPO_ROOT } from '../paths.js';

/** A zip with stored (uncompressed) entries: enough for an installer to extract. */
function zip(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const nameBuf = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made on unix: the mode is in the external attributes
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(((0o100755 << 16) >>> 0), 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const electronPkg = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string };
const version = electronPkg.version;
const artifact = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const executable = process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';

let dirs: TempDirs;
let project: string;
let electronDir: string;
let server: Server;
let mirror: string;
let served: Buffer;
const requests: string[] = [];

/** A copy of the launcher and of Electron's npm package (no binary); the downloader and extractor linked in. */
function makeProject(root: string): void {
  mkdirSync(join(root, 'scripts'), { recursive: true });
  cpSync(join(REPO_ROOT, 'scripts', 'start-electron.mjs'), join(root, 'scripts', 'start-electron.mjs'));
  cpSync(join(REPO_ROOT, 'scripts', 'launcher'), join(root, 'scripts', 'launcher'), { recursive: true });
  const electron = join(root, 'node_modules', 'electron');
  mkdirSync(electron, { recursive: true });
  for (const file of ['package.json', 'install.js', 'index.js', 'checksums.json']) {
    cpSync(join(REPO_ROOT, 'node_modules', 'electron', file), join(electron, file));
  }
  for (const scope of ['@electron', '@electron-internal']) {
    symlinkSync(join(REPO_ROOT, 'node_modules', scope), join(root, 'node_modules', scope), 'dir');
  }
}

function launch(env: Record<string, string>, args = ['--install-only']): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(project, 'scripts', 'start-electron.mjs'), ...args],
      {
        cwd: project,
        env: { PATH: process.env['PATH'] ?? '', HOME: dirs.home, electron_config_cache: join(dirs.home, 'cache'), ...env },
        timeout: 60_000,
      },
      (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
    );
  });
}

beforeEach(async () => {
  dirs = await tempDirs('chronoscope-launcher-');
  project = join(dirs.workspace, 'project');
  makeProject(project);
  electronDir = join(project, 'node_modules', 'electron');
  served = zip({ [executable]: '#!/bin/sh\necho stand-in\n', version: `v${version}` });
  requests.length = 0;
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === `/v${version}/${artifact}`) {
      res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': served.length });
      res.end(served);
    } else if (req.url === `/v${version}/SHASUMS256.txt`) {
      res.end(`${createHash('sha256').update(served).digest('hex')} *${artifact}\n`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await dirs.cleanup();
});

const nothingInstalled = () => {
  expect(existsSync(join(electronDir, 'dist'))).toBe(false);
  expect(existsSync(join(electronDir, 'path.txt'))).toBe(false);
};

describe('the Electron launcher', () => {
  it('downloads the binary with progress through Electron\'s own installer, then finds it without downloading again', async () => {
    const first = await launch({ ELECTRON_MIRROR: mirror, electron_use_remote_checksums: '1' });
    expect(first.stderr).toContain(`chronoscope: downloading Electron ${version} (${process.platform}-${process.arch}): 100%`);
    expect(first.code).toBe(0);
    expect(readFileSync(join(electronDir, 'path.txt'), 'utf8')).toBe(executable);
    expect(existsSync(join(electronDir, 'dist', executable))).toBe(true);

    requests.length = 0;
    const again = await launch({ ELECTRON_MIRROR: mirror, electron_use_remote_checksums: '1' });
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
    expect(requests).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('a binary that cannot be run: one paragraph and exit 1, not a crash', async () => {
    expect((await launch({ ELECTRON_MIRROR: mirror, electron_use_remote_checksums: '1' })).code).toBe(0);
    chmodSync(join(electronDir, 'dist', executable), 0o644);
    const result = await launch({}, []);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^chronoscope: cannot start the desktop app: Electron's binary\s+\S+\s+could not\s+be run \(spawn\s+\S+\s+EACCES\)/);
    expect(result.stderr).not.toContain('    at ');
  });

  it('without network: one paragraph with the reason and `npm run serve`, exit 1, nothing installed', async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.listen(0); // keep afterEach's close harmless
    const result = await launch({ ELECTRON_MIRROR: mirror, electron_use_remote_checksums: '1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot start the desktop app: Electron's binary is not installed\s+and could not be downloaded \(fetch failed: ECONNREFUSED/);
    expect(result.stderr).toContain('`npm run serve -- --workspace /path/to/project`');
    // The "fetching" line, then one paragraph.
    const [fetching, ...rest] = result.stderr.trim().split('\n');
    expect(fetching).toContain('fetching it once');
    expect(rest[0]).toMatch(/^chronoscope: cannot start the desktop app/);
    expect(rest.every((line) => line.trim() !== '')).toBe(true);
    nothingInstalled();
  });

  it('a download that cannot be extracted leaves nothing half-installed', async () => {
    const whole = served;
    served = whole.subarray(0, whole.length - 30); // torn: the zip's directory is gone, the checksum still matches
    const result = await launch({ ELECTRON_MIRROR: mirror, electron_use_remote_checksums: '1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Nothing was left half-installed');
    nothingInstalled();
  });

  it('a download that does not match Electron\'s published checksums is refused', async () => {
    const result = await launch({ ELECTRON_MIRROR: mirror });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/checksum|sha256/i);
    nothingInstalled();
  });

  it('ELECTRON_SKIP_BINARY_DOWNLOAD: says so and what to do, downloads nothing', async () => {
    const result = await launch({ ELECTRON_MIRROR: mirror, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD is set/);
    expect(result.stderr).toContain('npm run serve');
    expect(result.stderr).not.toContain('without a message');
    expect(requests).toEqual([]);
    nothingInstalled();
  });
});

describe('the Linux sandbox check', () => {
  const binary = '/home/me/chronoscope/node_modules/electron/dist/electron';
  const helper = '/home/me/chronoscope/node_modules/electron/dist/chrome-sandbox';
  const ubuntu = (files: Record<string, string>, helperStat = { uid: 1000, mode: 0o100755 }) => ({
    platform: 'linux' as const,
    uid: 1000,
    binary,
    args: [],
    read: (path: string) => files[path] ?? null,
    stat: (path: string) => (path === helper ? helperStat : null),
    list: (dir: string) => (dir === '/etc/apparmor.d' ? Object.keys(files).filter((f) => f.startsWith('/etc/apparmor.d/')).map((f) => f.slice('/etc/apparmor.d/'.length)) : []),
  });
  const restricted = { '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '1\n' };

  it('on Ubuntu 24.04 from node_modules: names the cause and prints the exact fix commands', () => {
    const problem = sandboxProblem(ubuntu(restricted));
    expect(problem?.why).toContain('apparmor_restrict_unprivileged_userns is 1');
    expect(problem?.commands).toContain(`profile chronoscope-electron "${binary}" flags=(unconfined) {`);
    expect(problem?.commands).toContain('sudo apparmor_parser -r /etc/apparmor.d/chronoscope-electron');
    expect(problem?.commands).toContain(`sudo chown root:root '${helper}'`);
    expect(problem?.commands).toContain(`sudo chmod 4755 '${helper}'`);
  });

  it('is quiet where the sandbox works: helper set up, a profile present, no restriction, --no-sandbox, other OSes', () => {
    expect(sandboxProblem(ubuntu(restricted, { uid: 0, mode: 0o104755 }))).toBeNull();
    expect(sandboxProblem(ubuntu({ ...restricted, '/etc/apparmor.d/electron': `profile e "${binary}" flags=(unconfined) {\n userns,\n}` }))).toBeNull();
    expect(sandboxProblem(ubuntu({ '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '0\n' }))).toBeNull();
    expect(sandboxProblem({ ...ubuntu(restricted), args: ['--no-sandbox'] })).toBeNull();
    expect(sandboxProblem({ ...ubuntu(restricted), platform: 'darwin' })).toBeNull();
  });

  it('a kernel without unprivileged user namespaces (Debian knob): only the setuid fix', () => {
    const problem = sandboxProblem(ubuntu({ '/proc/sys/kernel/unprivileged_userns_clone': '0\n' }));
    expect(problem?.commands).toEqual([`sudo chown root:root '${helper}'`, `sudo chmod 4755 '${helper}'`]);
  });
});
