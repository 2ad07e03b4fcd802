// The running app's side of delegation: hooks hand their work to the app
// (desktop or `chronoscope serve`) over a local socket, so a checkpoint uses
// the warm engine and the watcher's knowledge of what changed instead of a
// new process loading the engine and scanning the whole workspace.
//
// The socket lives in the store (owner-only like the store, and chmod 600);
// on Windows it is a named pipe. One request per connection: one JSON line in,
// one JSON line out. A socket file left by a crashed app is replaced; one held
// by another running app is left to it (its hooks are served there).
import { chmod, lstat, rm, stat } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { PROMPT_ID_PATTERN, type ClassifiedEffect } from '../../../shared/model.js';
import { EFFECT_KINDS } from '../../effects/kinds.js';
import type { CallDetails, CoreRequest, SnapshotRequest, ToolCall } from './call.js';
import { DELEGATE_PROTOCOL, agentSocketPath, someoneListens } from './delegate-socket.js';
import { serveCore, type AgentBackend } from './work.js';
import { parseControl, type ControlAnswer, type ControlRequest } from './service-control.js';
import { Withdrawal } from './withdrawal.js';
import { testPause } from '../../fs/test-pause.js';

/** Changes reach the watcher through @parcel/watcher, which batches them for up to 50 ms of quiet. */
export const WATCHER_SETTLE_MS = 60;
const MAX_REQUEST_BYTES = 4 << 20;

export interface DelegateServer {
  readonly path: string;
  close(): Promise<void>;
}

export interface DelegateOptions {
  home: string;
  /** The backend for each request (the store may be reopened when settings change). */
  backend: (request: { startedMs: number }) => AgentBackend;
  /** Answers the service's own control requests (status, stop, handover; see service-control.ts). */
  control?: (request: ControlRequest) => Promise<ControlAnswer>;
  /** A hook's request arrived (`busy` true) or was answered (false): the daemon's idle clock. */
  onActivity?: (busy: boolean) => void;
  onError?: (err: unknown) => void;
}

/** Listens for hooks; null when the socket cannot be had (another app holds it, or the path is too long). */
export async function startDelegateServer(options: DelegateOptions): Promise<DelegateServer | null> {
  const path = agentSocketPath(options.home);
  if (process.platform !== 'win32') {
    if (await someoneListens(path)) return null;
    await rm(path, { force: true }).catch(() => undefined);
  }
  const sockets = new Set<Socket>();
  // allowHalfOpen: the hook ends its side after the request; the answer still goes back.
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket, options);
  });
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolveListen();
      });
    });
  } catch (err) {
    options.onError?.(err);
    return null;
  }
  let ino: bigint | null = null;
  if (process.platform !== 'win32') {
    await chmod(path, 0o600).catch(() => undefined);
    ino = (await stat(path, { bigint: true }).catch(() => null))?.ino ?? null;
  }
  server.unref();
  let closing: Promise<void> | null = null;
  return {
    path,
    close: () => (closing ??= closeServer(server, sockets, path, ino)),
  };
}

/** How long a closing service lets requests in flight finish (a hook's checkpoint) before it cuts them. */
const CLOSE_GRACE_MS = 3000;

function closeServer(server: Server, sockets: Set<Socket>, path: string, ino: bigint | null): Promise<void> {
  return new Promise((resolveClose) => {
    const grace = setTimeout(() => {
      for (const s of sockets) s.destroy();
    }, CLOSE_GRACE_MS);
    // Idle connections (a probe that connected and said nothing) would hold close() open.
    for (const s of sockets) if (s.bytesRead === 0) s.destroy();
    server.close(() => {
      clearTimeout(grace);
      if (process.platform === 'win32') resolveClose();
      else void removeIfOurs(path, ino).then(() => resolveClose());
    });
  });
}

/** The socket file goes only if it is still the one this server made (never a successor's). */
async function removeIfOurs(path: string, ino: bigint | null): Promise<void> {
  const st = await lstat(path, { bigint: true }).catch(() => null);
  if (st !== null && (ino === null || st.ino === ino)) await rm(path, { force: true }).catch(() => undefined);
}

function serveConnection(socket: Socket, options: DelegateOptions): void {
  let text = '';
  let answered = false;
  socket.setEncoding('utf8');
  const answer = (value: unknown): void => {
    if (answered) return;
    answered = true;
    socket.end(`${JSON.stringify(value)}\n`);
  };
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    text += chunk;
    if (text.length > MAX_REQUEST_BYTES) {
      answer({ ok: false, error: 'request too large' });
      return;
    }
    const newline = text.indexOf('\n');
    if (newline === -1 || answered) return;
    const line = text.slice(0, newline);
    const control = parseControl(line);
    if (control !== null) {
      if (options.control === undefined) {
        answer({ ok: false, error: 'this service takes no control requests' });
        return;
      }
      void options.control(control).then(
        (result) => answer({ ok: true, result }),
        (err: unknown) => answer({ ok: false, error: err instanceof Error ? err.message : String(err) }),
      );
      return;
    }
    options.onActivity?.(true);
    void (async () => {
      try {
        const { request, startedMs, withdrawable } = parseRequest(line);
        // The CLI keeps its side open while it waits: its end (Ctrl-C, or the process gone) withdraws the request.
        const withdrawal = withdrawable && request.op === 'snapshot' ? new Withdrawal() : undefined;
        if (withdrawal !== undefined) {
          socket.once('end', () => {
            if (!answered && withdrawal.withdraw()) answer(WITHDRAWN);
          });
        }
        await testPause('service:received');
        if (withdrawal?.withdrawn() === true) return;
        const result = await serveCore(request, options.backend({ startedMs }), withdrawal);
        await testPause('service:answering');
        answer({ ok: true, result });
      } catch (err) {
        if (answered) return; // withdrawn: the asker was told already
        options.onError?.(err);
        answer({ ok: false, error: err instanceof Error ? (err.message.split('\n')[0] ?? 'failed') : String(err) });
      } finally {
        options.onActivity?.(false);
        void testPause('service:done');
      }
    })();
  });
}

/** The answer to a withdrawn request: nothing was, or will be, recorded for it. */
const WITHDRAWN = { ok: false, withdrawn: true, error: 'withdrawn: no checkpoint taken' } as const;

// ---- request validation (the socket is owner-only, but what comes in is still checked) ----

function bad(what: string): never {
  throw new Error(`bad request: ${what}`);
}

function str(v: unknown, what: string, max = 10_000): string {
  if (typeof v !== 'string' || v.length > max || v.includes('\0')) bad(what);
  return v;
}

function optStr(v: unknown, what: string): string | undefined {
  return v === undefined ? undefined : str(v, what, 1000);
}

function strList(v: unknown, what: string): string[] {
  if (!Array.isArray(v) || v.length > 100_000) bad(what);
  return v.map((x) => str(x, what));
}

function toolCall(v: unknown): ToolCall {
  if (typeof v !== 'object' || v === null) bad('call');
  const o = v as Record<string, unknown>;
  const kind = o['kind'];
  if (kind !== 'file' && kind !== 'shell' && kind !== 'code') bad('call.kind');
  const session = optStr(o['session'], 'call.session');
  const toolCallId = optStr(o['toolCallId'], 'call.toolCallId');
  return {
    agent: str(o['agent'], 'call.agent', 100),
    tool: str(o['tool'], 'call.tool', 500),
    kind,
    cwd: str(o['cwd'], 'call.cwd'),
    files: strList(o['files'], 'call.files'),
    command: o['command'] === null ? null : str(o['command'], 'call.command', 1 << 20),
    ...(session === undefined ? {} : { session }),
    ...(toolCallId === undefined ? {} : { toolCallId }),
  };
}

/** The agent, folder and session a prompt-time request names. */
function sessionOf(q: Record<string, unknown>): { agent: string; cwd: string; session: string } {
  return { agent: str(q['agent'], 'agent', 100), cwd: str(q['cwd'], 'cwd'), session: str(q['session'], 'session', 1000) };
}

function previousPrompt(v: unknown): { label: string; id: string | null } {
  if (typeof v !== 'object' || v === null) bad('previous');
  const o = v as Record<string, unknown>;
  const id = o['id'] === null ? null : str(o['id'], 'previous.id', 100);
  if (id !== null && !PROMPT_ID_PATTERN.test(id)) bad('previous.id');
  return { label: str(o['label'], 'previous.label', 1000), id };
}

/** A call's details: each field optional; texts bounded again by the prompt ledger. */
function callDetails(v: unknown): CallDetails {
  if (typeof v !== 'object' || v === null) bad('details');
  const o = v as Record<string, unknown>;
  const exit = o['exit_code'];
  if (exit !== undefined && !(typeof exit === 'number' && Number.isInteger(exit))) bad('details.exit_code');
  const text = (key: string): string | undefined => (o[key] === undefined ? undefined : str(o[key], `details.${key}`, 100_000));
  const tail = text('output_tail');
  const intent = text('intent');
  const transcript = o['transcript'] === undefined ? undefined : str(o['transcript'], 'details.transcript', 10_000);
  return { ...(exit === undefined ? {} : { exit_code: exit }), ...(tail === undefined ? {} : { output_tail: tail }), ...(intent === undefined ? {} : { intent }), ...(transcript === undefined ? {} : { transcript }) };
}

function effects(v: unknown): ClassifiedEffect[] {
  if (!Array.isArray(v) || v.length > 1000) bad('effects');
  return v.map((e: unknown) => {
    if (typeof e !== 'object' || e === null) bad('effect');
    const o = e as Record<string, unknown>;
    const kind = o['kind'];
    if (typeof kind !== 'string' || !(EFFECT_KINDS as readonly string[]).includes(kind)) bad('effect.kind');
    return {
      kind: kind as ClassifiedEffect['kind'],
      target: str(o['target'], 'effect.target'),
      command: str(o['command'], 'effect.command', 1 << 20),
      compensation: o['compensation'] === null ? null : str(o['compensation'], 'effect.compensation'),
      summary: str(o['summary'], 'effect.summary'),
    };
  });
}

/** Effect kinds a call sent nothing for (a push that found everything up to date). */
function effectKinds(v: unknown): ClassifiedEffect['kind'][] {
  if (!Array.isArray(v) || v.length > 100) bad('sentNothing');
  return v.map((k: unknown) => {
    if (typeof k !== 'string' || !(EFFECT_KINDS as readonly string[]).includes(k)) bad('sentNothing');
    return k as ClassifiedEffect['kind'];
  });
}

export interface ParsedRequest {
  request: CoreRequest;
  startedMs: number;
  /** The asker's end before the answer withdraws the request (a CLI snapshot; hooks end their side after sending). */
  withdrawable: boolean;
}

export function parseRequest(line: string): ParsedRequest {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    bad('not JSON');
  }
  if (typeof raw !== 'object' || raw === null) bad('not an object');
  const o = raw as Record<string, unknown>;
  if (o['v'] !== DELEGATE_PROTOCOL) bad(`protocol ${String(o['v'])} (this app speaks ${DELEGATE_PROTOCOL})`);
  const started = typeof o['started_ms'] === 'number' && Number.isFinite(o['started_ms']) ? o['started_ms'] : Date.now();
  const envelope = { startedMs: started, withdrawable: o['withdraw_on_end'] === true };
  const r = o['request'];
  if (typeof r !== 'object' || r === null) bad('request');
  const q = r as Record<string, unknown>;
  switch (q['op']) {
    case 'before':
      return { request: { op: 'before', call: toolCall(q['call']), effects: effects(q['effects']) }, ...envelope };
    case 'after': {
      const outcome = q['outcome'];
      if (outcome !== 'ok' && outcome !== 'failed') bad('outcome');
      const sentNothing = q['sentNothing'] === undefined ? [] : effectKinds(q['sentNothing']);
      const details = q['details'] === undefined ? undefined : callDetails(q['details']);
      return {
        request: {
          op: 'after',
          call: toolCall(q['call']),
          outcome,
          effects: effects(q['effects']),
          ...(sentNothing.length > 0 ? { sentNothing } : {}),
          ...(details === undefined ? {} : { details }),
        },
        ...envelope,
      };
    }
    case 'prompt':
      if (typeof q['id'] !== 'string' || !PROMPT_ID_PATTERN.test(q['id'])) bad('id');
      return {
        request: {
          op: 'prompt',
          ...sessionOf(q),
          text: str(q['text'], 'text', 10_000_000),
          id: str(q['id'], 'id', 100),
          ...(q['previous'] === undefined ? {} : { previous: previousPrompt(q['previous']) }),
        },
        ...envelope,
      };
    case 'turn_end':
      return {
        request: { op: 'turn_end', agent: str(q['agent'], 'agent', 100), cwd: str(q['cwd'], 'cwd'), ...(q['session'] === undefined ? {} : { session: str(q['session'], 'session', 1000) }) },
        ...envelope,
      };
    case 'denied':
      return {
        request: { op: 'denied', agent: str(q['agent'], 'agent', 100), cwd: str(q['cwd'], 'cwd'), toolCallIds: strList(q['toolCallIds'], 'toolCallIds') },
        ...envelope,
      };
    case 'memory':
      return {
        request: {
          op: 'memory',
          ...sessionOf(q),
          present: strList(q['present'], 'present'),
        },
        ...envelope,
      };
    case 'snapshot': {
      const o = q['options'];
      if (typeof o !== 'object' || o === null) bad('options');
      const options = o as Record<string, unknown>;
      const trigger = options['trigger'];
      if (trigger !== 'manual' && trigger !== 'auto' && trigger !== 'hook') bad('options.trigger');
      const reason = options['reason'] === undefined ? undefined : str(options['reason'], 'options.reason');
      const agent = optStr(options['agent'], 'options.agent');
      const tool = optStr(options['tool'], 'options.tool');
      const paths = options['paths'] === undefined ? undefined : strList(options['paths'], 'options.paths');
      const asked: SnapshotRequest = {
        trigger,
        ...(reason === undefined ? {} : { reason }),
        ...(agent === undefined ? {} : { agent }),
        ...(tool === undefined ? {} : { tool }),
        ...(paths === undefined ? {} : { paths }),
      };
      return { request: { op: 'snapshot', dir: str(q['dir'], 'dir'), options: asked }, ...envelope };
    }
    default:
      return bad('op');
  }
}
