// The browser host against hostile and stale requests: a POST carrying the
// token never earns the session cookie; a page from before a restart is told
// in plain words to open the new URL (and stops reconnecting); the token
// leaves the address bar; a multi-line exclude pattern is refused when set.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { createAppService } from '../../electron/app/app-service.js';
import { createRouter } from '../../electron/router/index.js';
import { forgetToken } from '../../renderer/src/client/create-client.js';
import type { ConnectionStatus } from '../../renderer/src/client/connection.js';
import { createWebSocketClient } from '../../renderer/src/client/websocket-transport.js';
import { httpGet, startServe, type ServeProcess } from '../server/serve-process.js';
import { waitFor } from '../app/helpers.js';

let base: string;
let home: string;
let workspace: string;
const servers: ServeProcess[] = [];

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'chronoscope-host-'));
  home = join(base, 'store');
  workspace = join(base, 'project');
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, 'a.txt'), 'one\n');
});
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  await rm(base, { recursive: true, force: true });
});

async function serve(port = 0): Promise<ServeProcess> {
  const s = await startServe(['--workspace', workspace, '--port', String(port), '--no-watch'], { CHRONOSCOPE_HOME: home });
  servers.push(s);
  return s;
}

function post(port: number, path: string): Promise<{ status: number; cookie: string | string[] | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { Host: `127.0.0.1:${port}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie'] }));
    });
    req.on('error', reject);
    req.end('x');
  });
}

describe('browser host', () => {
  it('a POST /?token= gets 405 and no session cookie; a GET still gets one', async () => {
    const s = await serve();
    const answer = await post(s.port, `/?token=${s.token}`);
    expect(answer.status).toBe(405);
    expect(answer.cookie).toBeUndefined();
    expect((await httpGet(s.port, `/?token=${s.token}`)).headers['set-cookie']).toBeDefined();
  });

  it('after a restart with a new token, an old cookie gets a plain-words answer naming the new URL', async () => {
    const first = await serve();
    const cookie = String((await httpGet(first.port, `/?token=${first.token}`)).headers['set-cookie']).split(';')[0] ?? '';
    first.child.kill('SIGTERM');
    await first.exited;
    servers.splice(servers.indexOf(first), 1);
    const second = await serve(first.port);
    const stale = await httpGet(second.port, '/', { Cookie: cookie });
    expect(stale.status).toBe(403);
    expect(stale.body).toMatch(/restarted/);
    expect(stale.body).toMatch(/\?token=/);
  });
});

describe('the page', () => {
  it('takes the token out of the address bar, keeping the rest', () => {
    let replaced: string | null = null;
    const history = { state: null, replaceState: (_s: unknown, _t: string, url: string) => void (replaced = url) } as unknown as History;
    forgetToken({ href: 'http://127.0.0.1:4317/?token=abc&x=1#top' } as Location, history);
    expect(replaced).toBe('/?x=1#top');
    replaced = null;
    forgetToken({ href: 'http://127.0.0.1:4317/' } as Location, history);
    expect(replaced).toBeNull();
  });

  it('stops reconnecting and says so when the host refuses the page (restarted with a new token)', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
    server.on('connection', (socket) => socket.close());
    const statuses: ConnectionStatus[] = [];
    const client = createWebSocketClient(url, {
      WebSocketImpl: WebSocket as unknown as new (url: string) => globalThis.WebSocket,
      backoffMs: [50],
      probeSession: async () => 'expired',
    });
    client.onStatus((s) => statuses.push(s));
    try {
      await waitFor('the expired state', () => statuses.some((s) => s.state === 'expired'));
      const seen = statuses.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(statuses.length).toBe(seen); // no more attempts
    } finally {
      client.close();
      server.close();
    }
  });
});

describe('settings', () => {
  it('an extra_excludes pattern with a line break is refused when set, and the file is left as it was', async () => {
    const app = await createAppService({ home, host: 'browser', version: '0', watch: false });
    try {
      const router = createRouter(app);
      const before = await readFile(join(home, 'config.json'), 'utf8').catch(() => null);
      const r = await router.invoke('settings:set', { extra_excludes: ['*.log\n!important.log'] });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('bad_input');
      expect(await readFile(join(home, 'config.json'), 'utf8').catch(() => null)).toBe(before);
    } finally {
      await app.dispose();
    }
  });
});
