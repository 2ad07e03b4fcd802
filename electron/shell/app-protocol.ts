// The renderer is served from app://chronoscope/ rather than file://: a real
// origin for the CSP and the sender check, module scripts and workers behave
// as on the web, and no other file on disk is reachable from the page. The
// same resolver as the browser host keeps requests inside dist/renderer.
import { readFile } from 'node:fs/promises';
import type { ShellElectron } from './electron-api.js';
import { contentSecurityPolicy, securityHeaders } from '../server/csp.js';
import { contentType, resolveStatic } from '../server/static-files.js';

export const APP_SCHEME = 'app';
export const APP_HOST = 'chronoscope';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/** Must run before the app is ready. */
export function registerAppScheme(protocol: ShellElectron['protocol']): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/**
 * Protocol and host, not `origin`: Node's URL (the main process) gives the
 * origin of a non-special scheme such as app: as the string "null".
 */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** After ready: answer app:// requests from the built renderer with the strict CSP. */
export function serveAppScheme(protocol: ShellElectron['protocol'], rendererDir: string): void {
  const headers = securityHeaders(contentSecurityPolicy());
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const resolved = url.host === APP_HOST ? await resolveStatic(rendererDir, url.pathname) : ({ kind: 'forbidden' } as const);
    if (resolved.kind !== 'file') {
      return new Response(resolved.kind === 'missing' ? 'Not found' : 'Forbidden', {
        status: resolved.kind === 'missing' ? 404 : 403,
        headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
      });
    }
    const body = await readFile(resolved.path);
    return new Response(new Uint8Array(body), { status: 200, headers: { ...headers, 'Content-Type': contentType(resolved.path) } });
  });
}
