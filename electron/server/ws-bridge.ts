// The browser host's half of the IPC contract: each socket message is one
// ClientMessage handed to the router; each answer is one ServerMessage (a long
// one in slices: shared/ipc-frames.ts). App events go to every open socket. A
// message that is not the contract's shape closes that socket with one log
// line: our renderer never sends one, so it is someone else talking.
import type { WebSocket, WebSocketServer } from 'ws';
import { EVENT_CHANNELS, type ClientMessage, type EventChannel, type InvokeResult, type ServerMessage } from '../../shared/ipc.js';
import { toSerializedError } from '../../shared/errors.js';
import { framesOf } from '../../shared/ipc-frames.js';
import type { AppService } from '../app/api.js';

/** What the host needs of the router: validates and answers, never throws. */
export interface InvokeRouter {
  invoke(channel: string, payload: unknown): Promise<InvokeResult<unknown>>;
}

export type Log = (line: string) => void;

/** 4 MiB: far above any real request (a restore of thousands of paths), far below harm. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export function parseClientMessage(data: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  if (m.type !== 'invoke' || typeof m.id !== 'number' || !Number.isSafeInteger(m.id) || typeof m.channel !== 'string') return null;
  // The channel name is validated by the router (unknown → a typed error answer).
  return { type: 'invoke', id: m.id, channel: m.channel as ClientMessage['channel'], payload: m.payload };
}

// All frames of one message are queued in one go, so no other message comes between them.
function sendFrames(socket: WebSocket, frames: string[]): void {
  if (socket.readyState !== socket.OPEN) return;
  for (const frame of frames) socket.send(frame);
}

export interface Bridge {
  /** Close every socket (1001 going away) and stop forwarding events. */
  close(): void;
}

export function bridgeSockets(wss: WebSocketServer, router: InvokeRouter, events: Pick<AppService, 'on'>, log: Log): Bridge {
  const unsubscribe = EVENT_CHANNELS.map((channel: EventChannel) =>
    events.on(channel, (payload) => {
      const message: ServerMessage = { type: 'event', channel, payload };
      const frames = framesOf(JSON.stringify(message));
      for (const socket of wss.clients) sendFrames(socket, frames);
    }),
  );

  wss.on('connection', (socket: WebSocket) => {
    socket.on('message', (data, isBinary) => {
      const message = isBinary ? null : parseClientMessage(data.toString());
      if (!message) {
        log('closed a socket that sent a message outside the contract');
        socket.close(1008, 'not a ClientMessage');
        return;
      }
      void router
        .invoke(message.channel, message.payload)
        .catch((err: unknown): InvokeResult<unknown> => ({ ok: false, error: toSerializedError(err) }))
        .then((result) => {
          const answer: ServerMessage = { type: 'result', id: message.id, result };
          sendFrames(socket, framesOf(JSON.stringify(answer)));
        });
    });
    // A socket error (oversized frame, reset) ends that socket only.
    socket.on('error', (err) => log(`socket error: ${err.message}`));
  });

  return {
    close() {
      for (const off of unsubscribe) off();
      for (const socket of wss.clients) socket.close(1001, 'server stopping');
    },
  };
}
