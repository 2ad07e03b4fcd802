// A long answer or event crosses the browser host's socket in slices
// (shared/ipc-frames.ts): the real bridge on one side, the renderer's
// transport on the other, and the `ws` package between them.
import { afterEach, beforeEach, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import { bridgeSockets, type Bridge } from '../../electron/server/ws-bridge.js';
import { createWebSocketClient } from '../../renderer/src/client/websocket-transport.js';
import { SLICE_CHARS } from '../../shared/ipc-frames.js';
import type { EventChannel } from '../../shared/ipc.js';

type Impl = new (url: string) => globalThis.WebSocket;

let server: WebSocketServer;
let bridge: Bridge;
let url: string;
const listeners = new Map<EventChannel, (payload: unknown) => void>();
const framesSent: string[] = [];
// Text with emoji at every position, so slice boundaries fall inside surrogate pairs.
const LONG = 'line 😀 of a large file\r\n'.repeat(Math.ceil((SLICE_CHARS * 2.5) / 25));

beforeEach(async () => {
  framesSent.length = 0;
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
  server.on('connection', (socket) => {
    const send = socket.send.bind(socket);
    socket.send = ((data: string, ...rest: never[]) => {
      framesSent.push(String(data));
      return send(data, ...rest);
    }) as typeof socket.send;
  });
  const router = { invoke: async (channel: string) => ({ ok: true as const, value: channel === 'app:info' ? { text: LONG } : 'short' }) };
  const events = {
    on: (channel: EventChannel, listener: (payload: unknown) => void) => {
      listeners.set(channel, listener);
      return () => listeners.delete(channel);
    },
  };
  bridge = bridgeSockets(server, router, events as never, () => undefined);
});

afterEach(async () => {
  bridge.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('answers and events of megabytes arrive whole, in slices, between short messages', async () => {
  const client = createWebSocketClient(url, { WebSocketImpl: WebSocket as unknown as Impl });
  try {
    const seen: unknown[] = [];
    client.on('progress', (p) => seen.push(p));
    const [long, short] = await Promise.all([client.invoke('app:info', {}), client.invoke('settings:get', {})]);
    expect((long as unknown as { text: string }).text).toBe(LONG);
    expect(short).toBe('short');
    // On the wire: a header naming N, then N slices, none over the slice size, that join to the answer.
    const header = framesSent.findIndex((f) => f.startsWith('{"type":"sliced"'));
    const parts = (JSON.parse(framesSent[header]!) as { parts: number }).parts;
    expect(parts).toBeGreaterThanOrEqual(3);
    const joined = JSON.parse(framesSent.slice(header + 1, header + 1 + parts).join('')) as { result: { value: { text: string } } };
    expect(joined.result.value.text).toBe(LONG);
    expect(Math.max(...framesSent.map((f) => f.length))).toBeLessThanOrEqual(SLICE_CHARS);

    listeners.get('progress')!({ workspace: '/w', message: LONG });
    listeners.get('progress')!({ workspace: '/w', message: 'after' });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual([
      { workspace: '/w', message: LONG },
      { workspace: '/w', message: 'after' },
    ]);
  } finally {
    client.close();
  }
});
