// The browser-host transport: one WebSocket to /ws on the page's own host,
// request ids with a pending-promise map, events fanned out to listeners, and
// reconnection with backoff. Listeners live in this object, not on the socket,
// so they survive a reconnect without re-registering.
import type {
  ChronoscopeClient,
  ClientMessage,
  EventChannel,
  EventMap,
  InvokeChannel,
  InvokeRequest,
  InvokeResponse,
  ServerMessage,
} from '../../../shared/ipc.js';
import { createFrameJoiner } from '../../../shared/ipc-frames.js';
import { ClientError } from './client-error.js';
import type { ConnectionListener, ConnectionStatus, TransportInfo } from './connection.js';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const OPEN = 1; // WebSocket.OPEN, spelled out so an injected implementation works the same

export interface WebSocketClientOptions {
  /** The WebSocket implementation (the browser's by default; tests under Node pass the `ws` package's). */
  WebSocketImpl?: new (url: string) => WebSocket;
  backoffMs?: number[];
  /**
   * Asked after a dropped connection: 'expired' when the host answers but
   * refuses this page (a restarted server has a new token and forgot our
   * session), which no reconnect can mend.
   */
  probeSession?: () => Promise<'ok' | 'expired' | 'unreachable'>;
  /** A socket the page opened before its script loaded (public/early-socket.js): the first connection, when it is to `url` and not closed. */
  early?: EarlySocket;
}

export interface EarlySocket {
  socket: WebSocket;
}

/** The same address, however each was spelled (WebSocket.url is normalised). */
function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/** The page's own origin, asked without the token: 403 means the session is gone. */
export async function probeSessionOverHttp(): Promise<'ok' | 'expired' | 'unreachable'> {
  try {
    const res = await fetch('/', { method: 'HEAD', credentials: 'same-origin', cache: 'no-store' });
    return res.status === 403 ? 'expired' : 'ok';
  } catch {
    return 'unreachable';
  }
}

/** ws(s)://<host>/ws, carrying the page's ?token= if it had one (later loads rely on the session cookie). */
export function socketUrl(location: Location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const token = new URLSearchParams(location.search).get('token');
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}://${location.host}/ws${query}`;
}

export function createWebSocketClient(url: string, options: WebSocketClientOptions = {}): ChronoscopeClient & TransportInfo {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const backoff = options.backoffMs ?? BACKOFF_MS;
  let closed = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let socket: WebSocket | null = null;
  let nextId = 1;
  let attempt = 0;
  let everConnected = false;
  let status: ConnectionStatus = { state: 'connecting', attempt: 0 };
  const pending = new Map<number, Pending>();
  // Invokes made while the socket is not open wait here and go out on open.
  const outbox: ClientMessage[] = [];
  const eventListeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const statusListeners = new Set<ConnectionListener>();
  const reconnectListeners = new Set<() => void>();

  const setStatus = (next: ConnectionStatus) => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };

  const handleMessage = (data: string) => {
    let message: ServerMessage;
    try {
      message = JSON.parse(data) as ServerMessage;
    } catch {
      return;
    }
    if (message.type === 'result') {
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.result.ok) waiter.resolve(message.result.value);
      else waiter.reject(ClientError.from(message.result.error));
    } else if (message.type === 'event') {
      const listeners = eventListeners.get(message.channel);
      if (!listeners) return;
      for (const listener of [...listeners]) {
        try {
          listener(message.payload);
        } catch (err) {
          console.error(`listener for ${message.channel} failed`, err);
        }
      }
    }
  };

  let early = options.early && sameUrl(options.early.socket.url, url) && options.early.socket.readyState <= OPEN ? options.early : null;
  if (options.early && !early) options.early.socket.close(); // to another address, or already closing: not ours to keep
  const connect = () => {
    retryTimer = null;
    const adopted = early;
    early = null;
    const ws = adopted?.socket ?? new Impl(url);
    socket = ws;
    ws.onopen = () => {
      const wasReconnect = everConnected;
      everConnected = true;
      attempt = 0;
      setStatus({ state: 'open' });
      for (const message of outbox.splice(0)) ws.send(JSON.stringify(message));
      if (wasReconnect) for (const listener of reconnectListeners) listener();
    };
    // A long message comes in slices (shared/ipc-frames.ts); each socket joins its own.
    const join = createFrameJoiner();
    ws.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      const text = join(event.data);
      if (text !== null) handleMessage(text);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      // Whatever was in flight may or may not have run: report it, never resend it.
      for (const [id, waiter] of pending) {
        if (outbox.some((m) => m.id === id)) continue;
        pending.delete(id);
        waiter.reject(new ClientError('disconnected', 'connection to Chronoscope was lost'));
      }
      if (closed) return;
      const delay = backoff[Math.min(attempt, backoff.length - 1)] ?? 8000;
      attempt += 1;
      setStatus({ state: 'reconnecting', attempt, retryInMs: delay, everConnected });
      retryTimer = setTimeout(connect, delay);
      void options.probeSession?.().then((verdict) => {
        if (verdict !== 'expired' || closed || socket !== null) return;
        // No reconnect can work: stop, and say what does.
        closed = true;
        if (retryTimer) clearTimeout(retryTimer);
        retryTimer = null;
        setStatus({ state: 'expired' });
      });
    };
    // Taken over already open: its open event went by before our handler was set.
    if (adopted && ws.readyState === OPEN) ws.onopen(new Event('open'));
  };

  connect();

  return {
    kind: 'websocket',
    invoke<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<InvokeResponse<C>> {
      const id = nextId++;
      const message: ClientMessage = { type: 'invoke', id, channel, payload: request };
      return new Promise<InvokeResponse<C>>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        if (closed) reject(new ClientError('disconnected', 'the connection was closed'));
        else if (socket && socket.readyState === OPEN) socket.send(JSON.stringify(message));
        else outbox.push(message);
      });
    },
    on<E extends EventChannel>(event: E, listener: (payload: EventMap[E]) => void): () => void {
      let set = eventListeners.get(event);
      if (!set) {
        set = new Set();
        eventListeners.set(event, set);
      }
      const wrapped = (payload: unknown) => listener(payload as EventMap[E]);
      set.add(wrapped);
      return () => {
        set.delete(wrapped);
      };
    },
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => {
        statusListeners.delete(listener);
      };
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => {
        reconnectListeners.delete(listener);
      };
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      outbox.length = 0;
      for (const [id, waiter] of pending) {
        pending.delete(id);
        waiter.reject(new ClientError('disconnected', 'the connection was closed'));
      }
      socket?.close();
      socket = null;
    },
  };
}
