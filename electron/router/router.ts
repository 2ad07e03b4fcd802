// The host-agnostic IPC router: both hosts (Electron's ipcMain, the browser
// host's WebSocket) hand it a channel name and an untrusted payload and send
// back whatever it answers. It validates before anything runs and never throws.
import type { z } from 'zod';
import { INVOKE, type InvokeChannel, type InvokeResult } from '../../shared/ipc.js';
import { toSerializedError, type SerializedError } from '../../shared/errors.js';
import type { AppService } from '../app/api.js';
import { HANDLERS, type HandlerContext, type RouterOptions } from './handlers.js';

export type { RouterOptions } from './handlers.js';

export interface Router {
  invoke(channel: string, payload: unknown): Promise<InvokeResult<unknown>>;
}

export function isInvokeChannel(channel: unknown): channel is InvokeChannel {
  return typeof channel === 'string' && Object.prototype.hasOwnProperty.call(INVOKE, channel);
}

/** One line naming the field that failed, e.g. `checkpoints:show: id: not a checkpoint id …`. */
export function describeIssue(channel: string, error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return `${channel}: invalid request`;
  if (issue.code === 'unrecognized_keys') {
    const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
    return `${channel}: ${where}unexpected field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  const field = issue.path.length ? issue.path.map(String).join('.') : 'request';
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return `${channel}: ${field}: required`;
  return `${channel}: ${field}: ${issue.message}`.split('\n')[0] ?? `${channel}: invalid request`;
}

export function createRouter(app: AppService, options: RouterOptions = {}): Router {
  return {
    async invoke(channel: string, payload: unknown): Promise<InvokeResult<unknown>> {
      if (!isInvokeChannel(channel)) {
        return fail({ code: 'bad_input', message: `unknown channel: ${String(channel).slice(0, 100)}` });
      }
      // Absent payload means an empty request (hosts may send undefined for {}).
      const parsed = INVOKE[channel].request.safeParse(payload ?? {});
      if (!parsed.success) return fail({ code: 'bad_input', message: describeIssue(channel, parsed.error) });
      const ctx: HandlerContext = { app, options, raw: payload ?? {} };
      try {
        const handler = HANDLERS[channel] as (req: unknown, ctx: HandlerContext) => Promise<unknown>;
        return { ok: true, value: await handler(parsed.data, ctx) };
      } catch (err) {
        return fail(toSerializedError(err));
      }
    },
  };
}

function fail(error: SerializedError): InvokeResult<never> {
  return { ok: false, error };
}
