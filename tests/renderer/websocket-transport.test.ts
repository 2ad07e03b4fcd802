// The browser-host transport against a real WebSocket server (the `ws`
// package): request ids, error envelopes, events, the outbox before open, and
// reconnection after the server drops the socket.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { createWebSocketClient, socketUrl } from '../../renderer/src/client/websocket-transport.js';
import { ClientError } from '../../renderer/src/client/client-error.js';
import type { ConnectionStatus } from '../../renderer/src/client/connection.js';
import type { ClientMessage, ServerMessage } from '../../shared/ipc.js';

type Impl = new (url: string) => globalThis.WebSocket;
const Impl = WebSocket as unknown as Impl;

let server: WebSocketServer;
let url: string;
const received: ClientMessage[] = [];
let hold = false;

function send(socket: WebSocket, message: ServerMessage): void {
  socket.send(JSON.stringify(message));
}

beforeEach(async () => {
  received.length = 0;
  hold = false;
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  server.on('connection', (socket) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ClientMessage;
      received.push(message);
      if (hold) return;
      if (message.channel === 'app:info') {
        send(socket, { type: 'result', id: message.id, result: { ok: true, value: { host: 'browser', version: '1', store: '/s' } } });
      } else {
        send(socket, { type: 'result', id: message.id, result: { ok: false, error: { code: 'not_found', message: 'no such checkpoint: abcd' } } });
      }
    });
  });
});

afterEach(async () => {
  for (const client of server.clients) client.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function waitFor(predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (predicate() ? resolve() : setTimeout(check, 10));
    check();
  });
}

describe('websocket transport', () => {
  it('resolves values and turns error envelopes into ClientErrors with the code', async () => {
    const client = createWebSocketClient(url, { WebSocketImpl: Impl });
    try {
      // Sent before the socket opened: queued, then delivered.
      const info = await client.invoke('app:info', {});
      expect(info).toEqual({ host: 'browser', version: '1', store: '/s' });
      const failure = await client.invoke('checkpoints:show', { workspace: '/w', id: 'abcd' }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ClientError);
      expect((failure as ClientError).code).toBe('not_found');
      expect((failure as ClientError).message).toBe('no such checkpoint: abcd');
      expect(received.map((m) => m.channel)).toEqual(['app:info', 'checkpoints:show']);
      expect(new Set(received.map((m) => m.id)).size).toBe(2);
    } finally {
      client.close();
    }
  });

  it('delivers events to listeners until they unsubscribe', async () => {
    const client = createWebSocketClient(url, { WebSocketImpl: Impl });
    try {
      const seen: string[] = [];
      const off = client.on('progress', (p) => seen.push(p.message));
      await client.invoke('app:info', {});
      const [socket] = [...server.clients];
      send(socket!, { type: 'event', channel: 'progress', payload: { workspace: '/w', message: 'one' } });
      send(socket!, { type: 'event', channel: 'error', payload: { error: { code: 'internal', message: 'x' } } });
      await waitFor(() => seen.length === 1);
      off();
      send(socket!, { type: 'event', channel: 'progress', payload: { workspace: '/w', message: 'two' } });
      await client.invoke('app:info', {}); // a round trip: 'two' has arrived by now
      expect(seen).toEqual(['one']);
    } finally {
      client.close();
    }
  });

  it('rejects in-flight invokes on a dropped socket, reconnects, and keeps listeners', async () => {
    const statuses: ConnectionStatus['state'][] = [];
    const client = createWebSocketClient(url, { WebSocketImpl: Impl, backoffMs: [20] });
    try {
      client.onStatus((s) => statuses.push(s.state));
      let reconnects = 0;
      client.onReconnect(() => reconnects++);
      const seen: string[] = [];
      client.on('progress', (p) => seen.push(p.message));
      await client.invoke('app:info', {});

      hold = true;
      const inFlight = client.invoke('app:info', {}).catch((e: unknown) => e);
      await waitFor(() => received.length === 2);
      for (const socket of server.clients) socket.terminate();
      const failure = await inFlight;
      expect(failure).toBeInstanceOf(ClientError);
      expect((failure as ClientError).code).toBe('disconnected');

      hold = false;
      await waitFor(() => reconnects === 1);
      expect(statuses).toContain('reconnecting');
      expect(statuses.at(-1)).toBe('open');
      const [socket] = [...server.clients];
      send(socket!, { type: 'event', channel: 'progress', payload: { workspace: '/w', message: 'after' } });
      await waitFor(() => seen.length === 1);
      expect(seen).toEqual(['after']);
      // The in-flight invoke was never resent.
      expect(received.length).toBe(2);
    } finally {
      client.close();
    }
  });

  it('builds the socket URL from the page location, carrying the token only when present', () => {
    const at = (href: string) => new URL(href) as unknown as Location;
    expect(socketUrl(at('http://127.0.0.1:4317/?token=a%2Bb'))).toBe('ws://127.0.0.1:4317/ws?token=a%2Bb');
    expect(socketUrl(at('http://127.0.0.1:4317/'))).toBe('ws://127.0.0.1:4317/ws');
    expect(socketUrl(at('https://example.test/app/?x=1'))).toBe('wss://example.test/ws');
  });

  describe('a socket the page opened before its script loaded (early-socket.js)', () => {
    const connections = (): number => server.clients.size;
    const opened = (socket: globalThis.WebSocket): Promise<void> => new Promise((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));

    it('takes it over when it is already open: no second connection, invokes go through it', async () => {
      const socket = new Impl(url);
      await opened(socket);
      const statuses: ConnectionStatus[] = [];
      const client = createWebSocketClient(url, { WebSocketImpl: Impl, early: { socket } });
      try {
        client.onStatus((s) => statuses.push(s));
        expect(statuses.at(-1)).toEqual({ state: 'open' });
        expect(await client.invoke('app:info', {})).toMatchObject({ host: 'browser' });
        expect(connections()).toBe(1);
      } finally {
        client.close();
      }
    });

    it('takes it over while it still connects: what is asked meanwhile goes out on open', async () => {
      const socket = new Impl(url);
      const client = createWebSocketClient(url, { WebSocketImpl: Impl, early: { socket } });
      try {
        expect(await client.invoke('app:info', {})).toMatchObject({ host: 'browser' });
        expect(connections()).toBe(1);
      } finally {
        client.close();
      }
    });

    it('opens its own, and closes the early one, when that one is to another address', async () => {
      const socket = new Impl(`${url}?token=other`);
      await opened(socket);
      const client = createWebSocketClient(url, { WebSocketImpl: Impl, early: { socket } });
      try {
        expect(await client.invoke('app:info', {})).toMatchObject({ host: 'browser' });
        await waitFor(() => socket.readyState === 3);
        expect(received.filter((m) => m.channel === 'app:info')).toHaveLength(1);
      } finally {
        client.close();
      }
    });
  });
});
