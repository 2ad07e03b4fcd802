// Control requests to whoever serves the store's agent socket (the desktop
// app, `chronoscope serve`, or the background daemon): what it is and what it
// watches (`hooks status`, `daemon --status`), stop (`daemon --stop`), and
// handover (an app starting while the daemon serves takes the socket over and
// goes on watching the daemon's workspaces). Same socket and framing as the
// hooks' requests: one JSON line in, one out.
import { connect } from 'node:net';
import { DELEGATE_PROTOCOL } from './delegate-socket.js';

export type ServiceKind = 'app' | 'daemon';

export type ControlRequest = { control: 'status' } | { control: 'stop' } | { control: 'handover' };

export interface ServiceStatus {
  kind: ServiceKind;
  /** electron | browser | daemon */
  host: string;
  pid: number;
  /** When it started serving (ISO time). */
  since: string;
  version: string;
  /** Workspaces whose changes it watches (their real paths). */
  workspaces: string[];
  /** The daemon leaves after this long with no hook calls; null for an app (it leaves when closed). */
  idle_exit_ms: number | null;
  /** Its last hook call (ISO time), or null. */
  last_call: string | null;
}

/** What stop and handover answer: the service is leaving; these are the workspaces it watched. */
export interface ServiceLeaving {
  leaving: true;
  workspaces: string[];
}

export type ControlAnswer = ServiceStatus | ServiceLeaving;

const CONTROLS = new Set(['status', 'stop', 'handover']);

/** A control request, or null when the line is something else (a hook's request). */
export function parseControl(line: string): ControlRequest | null {
  if (!line.includes('"control"')) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as Record<string, unknown>;
  const control = o['control'];
  if (o['v'] !== DELEGATE_PROTOCOL || typeof control !== 'string' || !CONTROLS.has(control)) return null;
  return { control } as ControlRequest;
}

/**
 * Asks the service on `socketPath`; null when nobody listens, or no answer came within `timeoutMs`
 * (a service still starting, or hung). Rejects when it answered with an error.
 */
export function askService(socketPath: string, request: { control: 'status' }, timeoutMs?: number): Promise<ServiceStatus | null>;
export function askService(socketPath: string, request: { control: 'stop' | 'handover' }, timeoutMs?: number): Promise<ServiceLeaving | null>;
export function askService(socketPath: string, request: ControlRequest, timeoutMs = 2000): Promise<ControlAnswer | null> {
  return new Promise((resolveAnswer, reject) => {
    const socket = connect(socketPath);
    let text = '';
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(() => settle(() => resolveAnswer(null)), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.end(`${JSON.stringify({ v: DELEGATE_PROTOCOL, ...request })}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => settle(() => resolveAnswer(null)));
    socket.on('close', () => {
      const line = text.split('\n')[0] ?? '';
      let answer: { ok?: unknown; result?: unknown; error?: unknown };
      try {
        answer = JSON.parse(line) as typeof answer;
      } catch {
        settle(() => resolveAnswer(null));
        return;
      }
      if (answer.ok === true && typeof answer.result === 'object' && answer.result !== null) settle(() => resolveAnswer(answer.result as ControlAnswer));
      else settle(() => reject(new Error(typeof answer.error === 'string' ? answer.error : 'the service refused')));
    });
  });
}
