// Electron's binary for `npm start`: found in node_modules/electron/dist, or
// downloaded now. The project installs with ignore-scripts (.npmrc), so
// Electron's postinstall never ran. The download goes through @electron/get
// (Electron's own downloader) with a progress line, into its cache; then
// Electron's install.js finds it there and does the rest (extract, path.txt)
// exactly as a postinstall would. Any failure removes what was half-extracted
// and ends in one paragraph that says why and what to use instead.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A failure the person can act on: `message` is the whole paragraph to print. */
export class LaunchError extends Error {}

/** No progress for this long means the host is unreachable (a firewall that drops, not refuses). */
const STALL_MS = 60_000;

export function electronDir(fromUrl) {
  return dirname(createRequire(fromUrl).resolve('electron/package.json'));
}

function packageVersion(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
}

/** The binary as Electron's index.js finds it — and of this package's version — or null. */
export function binaryPath(dir) {
  try {
    const binary = join(dir, 'dist', readFileSync(join(dir, 'path.txt'), 'utf8').trim());
    const version = readFileSync(join(dir, 'dist', 'version'), 'utf8').trim().replace(/^v/, '');
    return version === packageVersion(dir) && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Words wrapped at `width`, as one paragraph; a `quoted command` is never split. */
export function paragraph(text, width = 78) {
  const lines = [];
  let line = '';
  for (const word of text.match(/(?:`[^`]*`|\S)+/g) ?? []) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

const WAY_ON =
  'To use Chronoscope on this machine without the desktop app, run the browser host: `npm run serve -- --workspace /path/to/project` prints a URL to open in any browser.';

function skipRequested(env) {
  const value = env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

function describe(err) {
  const cause = err && typeof err === 'object' && 'cause' in err && err.cause ? err.cause : null;
  const base = err instanceof Error ? err.message : String(err);
  const detail = cause ? [cause.code ?? cause.message ?? String(cause), cause.hostname].filter(Boolean).join(' ') : null;
  return (detail && !base.includes(detail) ? `${base}: ${detail}` : base).split('\n')[0];
}

function progressLine(stream, label) {
  let shown = -1;
  return {
    update({ total, percent }) {
      const pct = Math.floor(percent * 100);
      const size = total ? ` of ${(total / 1e6).toFixed(0)} MB` : '';
      if (stream.isTTY) {
        if (pct !== shown) stream.write(`\r${label}: ${pct}%${size}`);
      } else if (shown < 0 || pct >= shown + 10 || (pct === 100 && shown !== 100)) {
        stream.write(`${label}: ${pct}%${size}\n`);
      } else {
        return;
      }
      shown = pct;
    },
    done() {
      if (stream.isTTY && shown >= 0) stream.write('\n');
    },
  };
}

/** The artifact install.js will ask for, fetched now with progress (a cache hit costs nothing). */
async function download(dir, env, stderr) {
  const requireFromElectron = createRequire(join(dir, 'package.json'));
  const { downloadArtifact } = await import(pathToFileURL(requireFromElectron.resolve('@electron/get')).href);
  const version = packageVersion(dir);
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform;
  const arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch;
  const remoteChecksums = env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums;
  const progress = progressLine(stderr, `chronoscope: downloading Electron ${version} (${platform}-${arch})`);
  const abort = new AbortController();
  let stall = setTimeout(() => abort.abort(new Error(`no data for ${STALL_MS / 1000} s`)), STALL_MS);
  try {
    await downloadArtifact({
      version,
      artifactName: 'electron',
      platform,
      arch,
      force: env.force_no_cache === 'true',
      cacheRoot: env.electron_config_cache,
      checksums: remoteChecksums ? undefined : JSON.parse(readFileSync(join(dir, 'checksums.json'), 'utf8')),
      downloadOptions: {
        quiet: true,
        signal: abort.signal,
        getProgressCallback: (p) => {
          clearTimeout(stall);
          stall = setTimeout(() => abort.abort(new Error(`no data for ${STALL_MS / 1000} s`)), STALL_MS);
          progress.update(p);
        },
      },
    });
  } catch (err) {
    throw abort.signal.aborted ? abort.signal.reason : err;
  } finally {
    clearTimeout(stall);
    progress.done();
  }
}

/** Electron's own installer: finds the artifact in the cache, extracts it, writes path.txt. */
function runInstaller(dir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(dir, 'install.js')], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve();
      const line = stderr.split('\n').map((l) => l.trim()).find((l) => l && !l.startsWith('at '));
      reject(new Error(line ?? `Electron's installer ended with ${signal ?? `code ${code}`}`));
    });
  });
}

/** Whatever an interrupted extraction left: with no usable binary, dist/ and path.txt are only debris. */
function removePartialInstall(dir) {
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  rmSync(join(dir, 'path.txt'), { force: true });
}

export async function ensureBinary(dir, { env = process.env, stderr = process.stderr } = {}) {
  const found = binaryPath(dir);
  if (found) return found;
  if (skipRequested(env)) {
    throw new LaunchError(
      paragraph(
        `chronoscope: cannot start the desktop app: Electron's binary is not installed, and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it was not downloaded. Unset that variable to let \`npm start\` fetch it (about 100 MB, once). ${WAY_ON}`,
      ),
    );
  }
  stderr.write("chronoscope: Electron's binary is not installed yet (the project installs with ignore-scripts); fetching it once.\n");
  try {
    await download(dir, env, stderr);
    await runInstaller(dir);
    const installed = binaryPath(dir);
    if (!installed) throw new Error("Electron's installer finished but left no binary");
    return installed;
  } catch (err) {
    removePartialInstall(dir);
    throw new LaunchError(
      paragraph(
        `chronoscope: cannot start the desktop app: Electron's binary is not installed and could not be downloaded (${describe(err)}). Nothing was left half-installed; \`npm start\` tries again next time (a mirror can be set with ELECTRON_MIRROR). ${WAY_ON}`,
      ),
    );
  }
}
