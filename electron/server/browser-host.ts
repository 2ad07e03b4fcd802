// The browser host: one node:http server on 127.0.0.1 serving the built
// renderer, and one WebSocket at /ws carrying the same router the Electron
// host binds. Every request and socket is authorised (auth.ts) before anything
// else happens.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { ChronoscopeError } from '../../shared/errors.js';
import type { AppService } from '../app/api.js';
import { authorize, newSecrets, sessionCookieHeader, type AuthContext } from './auth.js';
import { contentSecurityPolicy, securityHeaders } from './csp.js';
import { resolveStatic, sendFile } from './static-files.js';
import { bridgeSockets, MAX_MESSAGE_BYTES, type InvokeRouter, type Log } from './ws-bridge.js';

export const LOOPBACK = '127.0.0.1';
/** A fixed default makes an SSH tunnel (`ssh -L 4317:127.0.0.1:4317 box`) one memorable line. */
export const DEFAULT_PORT = 4317;

export interface BrowserHostOptions {
  app: Pick<AppService, 'on'>;
  router: InvokeRouter;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port: number;
  /** When the requested port is taken, take a free one instead of failing (used for the default port). */
  fallbackToFreePort?: boolean;
  log?: Log;
}

export interface BrowserHost {
  /** The URL to open, token included. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Only loopback: the token is the only lock, so the door must not face the network. */
export function checkBindHost(host: string): string {
  if (host === LOOPBACK || host === 'localhost') return LOOPBACK;
  throw new ChronoscopeError('refused', `refusing to listen on ${host}: the browser host binds ${LOOPBACK} only (reach it from elsewhere through an SSH tunnel)`);
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, LOOPBACK);
  });
}

function refuseUpgrade(socket: Duplex, status: 403 | 404): void {
  const text = status === 403 ? 'Forbidden' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/** Give sockets that were sent 1001 a moment to finish the close handshake, then cut the rest. */
async function drainSockets(wss: WebSocketServer, graceMs: number): Promise<void> {
  const open = [...wss.clients];
  if (open.length === 0) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, graceMs);
    let left = open.length;
    for (const socket of open)
      socket.once('close', () => {
        if (--left === 0) {
          clearTimeout(timer);
          resolve();
        }
      });
  });
  for (const socket of wss.clients) socket.terminate();
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const log = options.log ?? (() => undefined);
  const secrets = newSecrets();
  const ctx: AuthContext = { secrets, port: 0 };
  let headers: Record<string, string> = {};

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    const verdict = authorize(req, url, ctx, false);
    if (!verdict.ok) {
      res.writeHead(verdict.status, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(
        `This address is not (or no longer) valid for this Chronoscope server (${verdict.why}). ` +
          'If the server was restarted, it has a new token: open the URL that `chronoscope serve` printed last, with its ?token=.\n',
      );
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    // Only a page load trades the token for the session cookie (never a POST a foreign page could send).
    if (verdict.via === 'token') res.setHeader('Set-Cookie', sessionCookieHeader(ctx.port, secrets.session));
    if (url.pathname === '/ws') {
      res.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('This is the WebSocket endpoint\n');
      return;
    }
    const resolved = await resolveStatic(options.rendererDir, url.pathname);
    if (resolved.kind === 'file') {
      sendFile(res, resolved, req.method === 'HEAD');
      return;
    }
    if (resolved.kind === 'missing' && (url.pathname === '/' || url.pathname === '/index.html')) {
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('The renderer is not built: run `npm run build` (or `npm run build:renderer`) and reload.\n');
      return;
    }
    res.writeHead(resolved.kind === 'forbidden' ? 403 : 404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(resolved.kind === 'forbidden' ? 'Forbidden path\n' : 'Not found\n');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal error\n');
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}`);
    if (url.pathname !== '/ws') return refuseUpgrade(socket, 404);
    const verdict = authorize(req, url, ctx, true);
    if (!verdict.ok) {
      log(`refused a WebSocket: ${verdict.why}`);
      return refuseUpgrade(socket, 403);
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  let port: number;
  try {
    port = await listen(server, options.port);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' && options.fallbackToFreePort) {
      log(`port ${options.port} is in use; taking a free one`);
      port = await listen(server, 0);
    } else if (code === 'EADDRINUSE') {
      throw new ChronoscopeError('refused', `port ${options.port} is in use (use --port 0 for a free one)`);
    } else {
      throw err;
    }
  }
  ctx.port = port;
  const origins = [`ws://${LOOPBACK}:${port}`, `ws://localhost:${port}`];
  headers = securityHeaders(contentSecurityPolicy({ connect: origins }));
  const bridge = bridgeSockets(wss, options.router, options.app, log);

  let closing: Promise<void> | null = null;
  return {
    url: `http://${LOOPBACK}:${port}/?token=${secrets.token}`,
    port,
    close() {
      closing ??= (async () => {
        bridge.close();
        await drainSockets(wss, 1000);
        wss.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive connections would hold close() open.
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
