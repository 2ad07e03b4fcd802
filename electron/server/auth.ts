// Who may talk to the browser host. The model is Jupyter's: the URL printed at
// start carries a random token; the first request that shows it gets a session
// cookie (a separate secret, so the token never has to live in a cookie), and
// later requests may show either. On top of that, two checks any page on the
// machine could otherwise get around: the Host header must name our loopback
// address and port (a DNS-rebinding page reaches us under its own host name),
// and an Origin, when sent, must be our own (a foreign page's fetch or socket).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface AuthSecrets {
  /** Shown once, in the URL printed at start. */
  readonly token: string;
  /** The session cookie's value; never printed. */
  readonly session: string;
}

export function newSecrets(): AuthSecrets {
  return { token: randomBytes(32).toString('base64url'), session: randomBytes(32).toString('base64url') };
}

/**
 * Cookies are not isolated by port, so two servers on one machine would
 * overwrite each other's cookie under a shared name: the port is in the name.
 */
export function sessionCookieName(port: number): string {
  return `chronoscope_session_${port}`;
}

export function sessionCookieHeader(port: number, session: string): string {
  return `${sessionCookieName(port)}=${session}; HttpOnly; SameSite=Strict; Path=/`;
}

/** Constant-time equality; hashing first makes the lengths equal so length leaks nothing either. */
export function secretEquals(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

export type AuthVerdict =
  | { ok: true; via: 'token' | 'cookie' }
  | { ok: false; status: 403; why: string };

export interface AuthContext {
  secrets: AuthSecrets;
  port: number;
}

/** The host names a loopback server can honestly be reached under. */
function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function checkHost(req: IncomingMessage, port: number): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  return allowedHosts(port).includes(host);
}

/** Origin must be the page's own origin, i.e. http:// plus the (already checked) Host. */
export function checkOrigin(req: IncomingMessage, port: number, required: boolean): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return !required;
  return allowedHosts(port).some((h) => origin === `http://${h}`) && origin === `http://${req.headers.host ?? ''}`;
}

export function tokenFromUrl(url: URL): string | null {
  return url.searchParams.get('token');
}

/**
 * Every request and every socket goes through here. `requireOrigin` is set for
 * the WebSocket: browsers always send Origin on a socket, so a missing one is
 * a non-browser client that must not be let in by cookie alone.
 */
export function authorize(req: IncomingMessage, url: URL, ctx: AuthContext, requireOrigin: boolean): AuthVerdict {
  if (!checkHost(req, ctx.port)) return { ok: false, status: 403, why: 'Host header is not this server (127.0.0.1 or localhost with its port)' };
  if (!checkOrigin(req, ctx.port, requireOrigin)) return { ok: false, status: 403, why: 'foreign or missing Origin' };
  const token = tokenFromUrl(url);
  if (token !== null && secretEquals(token, ctx.secrets.token)) return { ok: true, via: 'token' };
  const cookie = parseCookies(req.headers.cookie).get(sessionCookieName(ctx.port));
  if (cookie !== undefined && secretEquals(cookie, ctx.secrets.session)) return { ok: true, via: 'cookie' };
  return { ok: false, status: 403, why: 'no valid token or session cookie' };
}
