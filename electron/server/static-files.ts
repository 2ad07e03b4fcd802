// Serves the built renderer (dist/renderer) and nothing else: a request path is
// decoded, normalised and resolved under the root, and the file's real path
// must still be inside it (no `..`, no escape through a symlink).
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Vite puts content-hashed bundles under assets/: those never change under
 * their name. Everything else (index.html first) is revalidated, so a rebuild
 * shows up on reload. `private`: responses sit behind the token.
 */
export function cacheControl(relative: string): string {
  return relative.startsWith('assets/') ? 'private, max-age=31536000, immutable' : 'no-cache';
}

export type Resolved = { kind: 'file'; path: string; relative: string; size: number } | { kind: 'missing' } | { kind: 'forbidden' };

/** Map a URL pathname to a file under root, or say why not. */
export async function resolveStatic(root: string, pathname: string): Promise<Resolved> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: 'forbidden' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'forbidden' };
  const relative = normalize(decoded === '/' ? '/index.html' : decoded).replace(/^\/+/, '');
  if (relative.split('/').includes('..')) return { kind: 'forbidden' };
  const candidate = join(root, relative);
  let real: string;
  let realRoot: string;
  try {
    [real, realRoot] = await Promise.all([realpath(candidate), realpath(root)]);
  } catch {
    return { kind: 'missing' };
  }
  if (real !== realRoot && !real.startsWith(realRoot + sep)) return { kind: 'forbidden' };
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) return { kind: 'missing' };
  return { kind: 'file', path: real, relative, size: info.size };
}

export function sendFile(res: ServerResponse, file: Extract<Resolved, { kind: 'file' }>, headOnly: boolean): void {
  res.writeHead(200, {
    'Content-Type': contentType(file.path),
    'Content-Length': String(file.size),
    'Cache-Control': cacheControl(file.relative),
  });
  if (headOnly) {
    res.end();
    return;
  }
  const stream = createReadStream(file.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
