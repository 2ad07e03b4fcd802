// The hook's side of delegation: one request, one answer, over the running
// app's socket. No app (no socket, or a stale one nobody listens on) is
// "absent" at once, and the hook does the work itself.
import { connect } from 'node:net';
import type { AgentResult, CoreRequest } from './call.js';
import { DELEGATE_PROTOCOL } from './delegate-socket.js';

/** 'withdrawn': the asker withdrew the request (DelegateOptions.withdraw) and the app recorded nothing for it. */
export type DelegateOutcome = { kind: 'answered'; result: AgentResult } | { kind: 'absent' } | { kind: 'withdrawn' };

export interface DelegateOptions {
  /**
   * Aborted: withdraw the request (a CLI's Ctrl-C). The request is sent with the socket left open;
   * ending it before the answer withdraws it, and the app answers at once whether it was in time.
   */
  withdraw?: AbortSignal;
  /** Called as the request is written (from then on, withdrawing is the app's to answer). */
  onSent?: () => void;
}

/** When this process started. Not performance.timeOrigin: the global `performance` loads perf_hooks (~10 modules) on first use. */
function processStartMs(): number {
  return Math.round(Date.now() - process.uptime() * 1000);
}

const ABSENT_CODES = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'EACCES', 'EPERM', 'ENOTDIR', 'EINVAL', 'ENAMETOOLONG']);

/** Rejects when the app answered with an error or the connection broke after it was made. */
export function delegate(socketPath: string, request: CoreRequest, options: DelegateOptions = {}): Promise<DelegateOutcome> {
  const { withdraw } = options;
  return new Promise((resolveOutcome, reject) => {
    const socket = connect(socketPath);
    let connected = false;
    let text = '';
    const onWithdraw = (): void => {
      if (connected) socket.end();
      else {
        socket.destroy();
        resolveOutcome({ kind: 'withdrawn' });
      }
    };
    withdraw?.addEventListener('abort', onWithdraw, { once: true });
    socket.on('close', () => withdraw?.removeEventListener('abort', onWithdraw));
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      // When this process started: the app waits until changes made before then have reached its watcher.
      const line = `${JSON.stringify({ v: DELEGATE_PROTOCOL, started_ms: processStartMs(), request, ...(withdraw ? { withdraw_on_end: true } : {}) })}\n`;
      options.onSent?.();
      if (withdraw === undefined) socket.end(line);
      else socket.write(line);
    });
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && ABSENT_CODES.has(err.code ?? '')) resolveOutcome({ kind: 'absent' });
      else reject(err);
    });
    socket.on('close', () => {
      if (!connected) return;
      const line = text.split('\n')[0] ?? '';
      let answer: unknown;
      try {
        answer = JSON.parse(line);
      } catch {
        reject(new Error('the running app gave no answer'));
        return;
      }
      const a = answer as { ok?: unknown; result?: unknown; error?: unknown; withdrawn?: unknown };
      if (a.withdrawn === true) resolveOutcome({ kind: 'withdrawn' });
      else if (a.ok === true && typeof a.result === 'object' && a.result !== null) resolveOutcome({ kind: 'answered', result: a.result as AgentResult });
      else reject(new Error(`the running app: ${typeof a.error === 'string' ? a.error : 'failed'}`));
    });
  });
}
